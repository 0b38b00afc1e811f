import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers/app.js";
import { TEST_ADMIN } from "../../../test/helpers/constants.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe("POST /api/v1/auth/login", () => {
  it("returns a bearer token pair for valid credentials", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/auth/login",
      payload: { email: TEST_ADMIN.email, password: TEST_ADMIN.password },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.token_type).toBe("bearer");
    expect(body.access_token.split(".")).toHaveLength(3);
    expect(body.refresh_token.split(".")).toHaveLength(3);
  });

  it("answers 401 with the same body for a wrong password and an unknown e-mail", async () => {
    const wrong = await t.app.inject({
      method: "POST",
      url: "/api/v1/auth/login",
      payload: { email: TEST_ADMIN.email, password: "nope-nope" },
    });
    const unknown = await t.app.inject({
      method: "POST",
      url: "/api/v1/auth/login",
      payload: { email: "ghost@example.com", password: "nope-nope" },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.headers["content-type"]).toContain("application/problem+json");
    expect(wrong.headers["www-authenticate"]).toContain("Bearer");
    expect(wrong.json().detail).toBe(unknown.json().detail);
  });

  it("serves /users/me for the token", async () => {
    const res = await t.as(t.adminToken, { method: "GET", url: "/api/v1/users/me" });
    expect(res.statusCode).toBe(200);
    expect(res.json().email).toBe(TEST_ADMIN.email);
    expect(res.json().permissions).toContain("usuarios:leer");
  });
});
