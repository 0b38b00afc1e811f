import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers/app.js";
import { TEST_ADMIN, TEST_JWT_SECRET } from "../../../test/helpers/constants.js";
import { users } from "./tables.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: "trace" });
});
afterAll(async () => {
  await t?.close();
});

describe("passwords and tokens never leak", () => {
  it("stores every password as an argon2id hash", async () => {
    const u = await t.userWith([]);
    const created = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/v1/users",
      payload: { email: "hashed@example.com", password: "plain-text-password" },
    });
    expect(created.statusCode).toBe(201);
    const rows = await t.db.select({ email: users.email, hash: users.passwordHash }).from(users);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const row of rows) expect(row.hash, row.email).toMatch(/^\$argon2id\$v=19\$m=\d+,t=\d+,p=\d+\$/);
    const [mine] = await t.db.select().from(users).where(eq(users.id, u.id));
    expect(mine.passwordHash).not.toContain(u.password);
    // A changed password is hashed the same way.
    await t.as(u.token, {
      method: "PUT",
      url: "/api/v1/users/me/password",
      payload: { current_password: u.password, new_password: "changed-password-1" },
    });
    const [changed] = await t.db.select().from(users).where(eq(users.id, u.id));
    expect(changed.passwordHash).toMatch(/^\$argon2id\$/);
    expect(changed.passwordHash).not.toBe(mine.passwordHash);
  });

  it("logs no password, token or Authorization header across logins, refreshes, failures and a password change", async () => {
    const secrets: string[] = [TEST_ADMIN.password, TEST_JWT_SECRET, t.adminToken];
    const u = await t.userWith(["usuarios:leer"]);
    secrets.push(u.password, u.token, u.refreshToken);

    const pair = await t.login(u.email, u.password);
    secrets.push(pair.access_token, pair.refresh_token);
    const rotated = await t.app.inject({
      method: "POST",
      url: "/api/v1/auth/refresh",
      payload: { refresh_token: pair.refresh_token },
    });
    expect(rotated.statusCode).toBe(200);
    secrets.push(rotated.json().access_token, rotated.json().refresh_token);
    // The spent refresh token again (reuse), a wrong password, a garbage token, a bad body.
    await t.app.inject({
      method: "POST",
      url: "/api/v1/auth/refresh",
      payload: { refresh_token: pair.refresh_token },
    });
    const wrongPassword = "wrong-password-that-must-not-be-logged";
    secrets.push(wrongPassword);
    await t.app.inject({
      method: "POST",
      url: "/api/v1/auth/login",
      payload: { email: u.email, password: wrongPassword },
    });
    const garbage = "eyJhbGciOiJIUzI1NiJ9.garbage-token-that-must-not-be-logged.x";
    secrets.push(garbage);
    await t.as(garbage, { method: "GET", url: "/api/v1/users/me" });
    await t.app.inject({
      method: "POST",
      url: "/api/v1/auth/login",
      payload: { email: 42, password: "body-password-that-must-not-be-logged" },
    });
    secrets.push("body-password-that-must-not-be-logged");
    // A token pasted into a query string.
    await t.as(u.token, { method: "GET", url: `/api/v1/users?search=${u.refreshToken}` });

    const newPassword = "new-password-that-must-not-be-logged";
    secrets.push(newPassword);
    const changed = await t.as(u.token, {
      method: "PUT",
      url: "/api/v1/users/me/password",
      payload: { current_password: u.password, new_password: newPassword },
    });
    expect(changed.statusCode).toBe(204);
    // The admin resets a password through the API.
    const resetPassword = "admin-set-password-must-not-be-logged";
    secrets.push(resetPassword);
    await t.as(t.adminToken, {
      method: "PUT",
      url: `/api/v1/users/${u.id}`,
      payload: { password: resetPassword },
    });
    const logout = await t.as(rotated.json().access_token, {
      method: "POST",
      url: "/api/v1/auth/logout",
      payload: { refresh_token: rotated.json().refresh_token },
    });
    expect(logout.statusCode).toBe(401); // revoked by the reset above; still must not be logged

    const log = t.logs.join("");
    expect(t.logs.length).toBeGreaterThan(20);
    expect(log).toContain("/api/v1/auth/login"); // the capture works
    for (const secret of secrets) {
      expect(log.includes(secret), `log contains ${secret.slice(0, 12)}…`).toBe(false);
      // Nor a recognisable part of a JWT (its signature).
      const signature = secret.split(".")[2];
      if (signature && signature.length >= 20) expect(log).not.toContain(signature);
    }
    expect(log.toLowerCase()).not.toMatch(/"authorization"|bearer /);
    for (const line of t.logs) expect(() => JSON.parse(line)).not.toThrow();
  });
});
