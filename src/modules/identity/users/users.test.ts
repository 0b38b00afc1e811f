import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { TEST_ADMIN } from "../../../../test/helpers/constants.js";
import { expectProblem, expectUnauthorized } from "../../../../test/helpers/problem.js";
import { PERMISSION_ACTIONS, PERMISSION_MODULES } from "../catalog.js";
import * as roles from "../roles/service.js";

let t: TestApp;
let adminId: string;
let adminRoleId: string;
beforeAll(async () => {
  t = await createTestApp();
  const me = (await t.as(t.adminToken, { method: "GET", url: "/api/v1/users/me" })).json();
  adminId = me.id;
  adminRoleId = me.roles.find((r: { name: string }) => r.name === "admin").id;
});
afterAll(async () => {
  await t?.close();
});

interface UserOut {
  id: string;
  email: string;
  full_name: string;
  is_active: boolean;
  company_id: string | null;
  roles: { id: string; name: string }[];
  created_at: string;
  updated_at: string;
}

const admin = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  t.as(t.adminToken, { method, url: `/api/v1${url}`, ...(payload ? { payload } : {}) });

async function createUser(body: Record<string, unknown>): Promise<UserOut> {
  const res = await admin("POST", "/users", body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe("POST /api/v1/users", () => {
  it("creates a user (201) who can log in, with lower-cased e-mail and roles", async () => {
    const role = await roles.createRole(t.ctx, { name: "clerks" });
    const user = await createUser({
      email: "Dora@Example.com",
      password: "dora-password",
      full_name: "Dora Díaz",
      role_ids: [role.id],
    });
    expect(user).toMatchObject({
      email: "dora@example.com",
      full_name: "Dora Díaz",
      is_active: true,
      company_id: null,
      roles: [{ id: role.id, name: "clerks" }],
    });
    expect(user.created_at).toMatch(/Z$/);
    expect(user).not.toHaveProperty("password");
    expect(user).not.toHaveProperty("password_hash");
    expect((await t.login("dora@example.com", "dora-password")).access_token).toBeTruthy();
  });

  it("answers 409 to a duplicate e-mail, in any case", async () => {
    await createUser({ email: "dup@example.com", password: "dup-password" });
    const body = expectProblem(
      await admin("POST", "/users", { email: "DUP@example.com", password: "other-password" }),
      409,
    );
    expect(body.detail).toMatch(/already exists/);
  });

  it("answers 400 to an invalid e-mail, a short password, and an unknown field type", async () => {
    for (const payload of [
      { email: "not-an-email", password: "long-enough" },
      { email: "short@example.com", password: "short" },
      { email: "x@example.com" },
      { email: "x@example.com", password: "long-enough", role_ids: ["nope"] },
      { email: "x@example.com", password: "long-enough", is_active: "yes" },
    ]) {
      const body = expectProblem(await admin("POST", "/users", payload), 400);
      expect(body.errors?.length, JSON.stringify(payload)).toBeGreaterThan(0);
    }
    const short = expectProblem(
      await admin("POST", "/users", { email: "short@example.com", password: "short" }),
      400,
    );
    expect(short.errors?.[0].path).toBe("body.password");
  });

  it("answers 400 to a role that does not exist", async () => {
    expectProblem(
      await admin("POST", "/users", {
        email: "norole@example.com",
        password: "long-enough",
        role_ids: [randomUUID()],
      }),
      400,
    );
    // Nothing was left behind.
    const list = (await admin("GET", "/users?search=norole")).json();
    expect(list.total).toBe(0);
  });
});

describe("company restriction of a user", () => {
  it("accepts an existing company and answers 400 to one that does not exist", async () => {
    const companyId = await t.createCompany("Restricted Co", "B12345674");
    const ok = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/v1/users",
      payload: { email: "restricted@example.com", password: "password-123", company_id: companyId },
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().company_id).toBe(companyId);
    const bad = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/v1/users",
      payload: { email: "ghost-company@example.com", password: "password-123", company_id: randomUUID() },
    });
    expectProblem(bad, 400);
    const update = await t.as(t.adminToken, {
      method: "PUT",
      url: `/api/v1/users/${ok.json().id}`,
      payload: { company_id: randomUUID() },
    });
    expectProblem(update, 400);
  });
});

describe("GET /api/v1/users", () => {
  let role: { id: string };
  beforeAll(async () => {
    role = await roles.createRole(t.ctx, { name: "listers" });
    await createUser({ email: "list-a@example.com", password: "list-password", full_name: "Ana Lista" });
    await createUser({ email: "list-b@example.com", password: "list-password", role_ids: [role.id] });
    await createUser({ email: "list-c@example.com", password: "list-password", is_active: false });
  });

  it("lists with {data, total, limit, offset} in a stable order", async () => {
    const res = await admin("GET", "/users");
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page).toMatchObject({ limit: 50, offset: 0 });
    expect(page.total).toBe(page.data.length);
    expect(page.data[0].email).toBe(TEST_ADMIN.email);
    const two = (await admin("GET", "/users?limit=2&offset=1")).json();
    expect(two).toMatchObject({ limit: 2, offset: 1, total: page.total });
    expect(two.data.map((u: UserOut) => u.id)).toEqual(page.data.slice(1, 3).map((u: UserOut) => u.id));
  });

  it("filters by search (e-mail or name, case-insensitive, wildcards literal)", async () => {
    const byEmail = (await admin("GET", "/users?search=LIST-")).json();
    expect(byEmail.data.map((u: UserOut) => u.email).sort()).toEqual([
      "list-a@example.com",
      "list-b@example.com",
      "list-c@example.com",
    ]);
    const byName = (await admin("GET", "/users?search=ana%20lista")).json();
    expect(byName.data.map((u: UserOut) => u.email)).toEqual(["list-a@example.com"]);
    expect((await admin("GET", "/users?search=%25")).json().total).toBe(0);
  });

  it("filters by is_active and role_id", async () => {
    const inactive = (await admin("GET", "/users?is_active=false&search=list-")).json();
    expect(inactive.data.map((u: UserOut) => u.email)).toEqual(["list-c@example.com"]);
    const active = (await admin("GET", "/users?is_active=true&search=list-")).json();
    expect(active.total).toBe(2);
    const byRole = (await admin("GET", `/users?role_id=${role.id}`)).json();
    expect(byRole.data.map((u: UserOut) => u.email)).toEqual(["list-b@example.com"]);
    expect(byRole.data[0].roles).toEqual([{ id: role.id, name: "listers" }]);
    const admins = (await admin("GET", `/users?role_id=${adminRoleId}`)).json();
    expect(admins.data.map((u: UserOut) => u.id)).toContain(adminId);
  });

  it("answers 400 to bad query values", async () => {
    for (const q of ["limit=0", "limit=1001", "offset=-1", "is_active=maybe", "role_id=nope"]) {
      expectProblem(await admin("GET", `/users?${q}`), 400);
    }
  });
});

describe("GET /api/v1/users/{id}", () => {
  it("returns the user, 404 for an unknown id, 400 for a non-UUID", async () => {
    const user = await createUser({ email: "detail@example.com", password: "detail-password" });
    const res = await admin("GET", `/users/${user.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(user);
    expectProblem(await admin("GET", `/users/${randomUUID()}`), 404);
    expectProblem(await admin("GET", "/users/123"), 400);
  });
});

describe("PUT /api/v1/users/{id}", () => {
  it("updates e-mail and name", async () => {
    const user = await createUser({ email: "upd@example.com", password: "upd-password" });
    const res = await admin("PUT", `/users/${user.id}`, { email: "Upd2@example.com", full_name: "Updated" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: user.id, email: "upd2@example.com", full_name: "Updated" });
    expect((await t.login("upd2@example.com", "upd-password")).access_token).toBeTruthy();
  });

  it("setting a password revokes the user's tokens; the new one logs in", async () => {
    const u = await t.userWith([]);
    expect((await admin("PUT", `/users/${u.id}`, { password: "reset-password" })).statusCode).toBe(200);
    expectUnauthorized(await t.as(u.token, { method: "GET", url: "/api/v1/users/me" }));
    expect((await t.login(u.email, "reset-password")).access_token).toBeTruthy();
  });

  it("answers 409 to another user's e-mail, 400 to an empty or invalid body, 404 to an unknown id", async () => {
    const a = await createUser({ email: "upd-a@example.com", password: "upd-password" });
    await createUser({ email: "upd-b@example.com", password: "upd-password" });
    expectProblem(await admin("PUT", `/users/${a.id}`, { email: "upd-b@example.com" }), 409);
    // Its own e-mail is not a conflict.
    expect((await admin("PUT", `/users/${a.id}`, { email: "upd-a@example.com" })).statusCode).toBe(200);
    expectProblem(await admin("PUT", `/users/${a.id}`, {}), 400);
    expectProblem(await admin("PUT", `/users/${a.id}`, { email: "nope" }), 400);
    expectProblem(await admin("PUT", `/users/${a.id}`, { password: "short" }), 400);
    expectProblem(await admin("PUT", `/users/${randomUUID()}`, { full_name: "x" }), 404);
  });

  it("refuses to deactivate the last active administrator (409)", async () => {
    expectProblem(await admin("PUT", `/users/${adminId}`, { is_active: false }), 409);
  });
});

describe("DELETE /api/v1/users/{id}", () => {
  it("deactivates (204): the record stays, inactive, its tokens die and it can't log in", async () => {
    const u = await t.userWith([]);
    const res = await admin("DELETE", `/users/${u.id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe("");
    expect((await admin("GET", `/users/${u.id}`)).json().is_active).toBe(false);
    expectUnauthorized(await t.as(u.token, { method: "GET", url: "/api/v1/users/me" }));
    expectUnauthorized(
      await t.app.inject({
        method: "POST",
        url: "/api/v1/auth/refresh",
        payload: { refresh_token: u.refreshToken },
      }),
    );
    await expect(t.login(u.email, u.password)).rejects.toThrow(/401/);
  });

  it("refuses to deactivate the last active administrator (409), allows it once there is another", async () => {
    const body = expectProblem(await admin("DELETE", `/users/${adminId}`), 409);
    expect(body.detail).toMatch(/last active administrator/);
    const second = await createUser({
      email: "second-admin@example.com",
      password: "second-password",
      role_ids: [adminRoleId],
    });
    const secondToken = (await t.login("second-admin@example.com", "second-password")).access_token;
    // An inactive admin does not count.
    const ghost = await createUser({
      email: "ghost-admin@example.com",
      password: "ghost-password",
      role_ids: [adminRoleId],
      is_active: false,
    });
    expect(ghost.is_active).toBe(false);
    expect((await admin("DELETE", `/users/${second.id}`)).statusCode).toBe(204);
    expectProblem(await admin("DELETE", `/users/${adminId}`), 409);
    // Reactivated, the second admin lets the first go, and then is the last one.
    expect((await admin("PUT", `/users/${second.id}`, { is_active: true })).statusCode).toBe(200);
    const again = (await t.login("second-admin@example.com", "second-password")).access_token;
    expect(secondToken).not.toBe(again);
    expect((await t.as(again, { method: "DELETE", url: `/api/v1/users/${adminId}` })).statusCode).toBe(204);
    expectProblem(await t.as(again, { method: "DELETE", url: `/api/v1/users/${second.id}` }), 409);
    // Put the original admin back for the tests that follow.
    expect(
      (await t.as(again, { method: "PUT", url: `/api/v1/users/${adminId}`, payload: { is_active: true } }))
        .statusCode,
    ).toBe(200);
    t.adminToken = (await t.login(TEST_ADMIN.email, TEST_ADMIN.password)).access_token;
    expect((await admin("DELETE", `/users/${second.id}`)).statusCode).toBe(204);
  });

  it("answers 404 to an unknown id and 400 to a non-UUID", async () => {
    expectProblem(await admin("DELETE", `/users/${randomUUID()}`), 404);
    expectProblem(await admin("DELETE", "/users/abc"), 400);
  });
});

describe("PUT /api/v1/users/{id}/roles and DELETE /api/v1/users/{id}/roles/{role_id}", () => {
  it("assigns a role (idempotently) and removes it", async () => {
    const u = await t.userWith([]);
    const role = await roles.createRole(t.ctx, { name: "assignable" });
    const res = await admin("PUT", `/users/${u.id}/roles`, { role_id: role.id });
    expect(res.statusCode).toBe(200);
    expect(
      res
        .json()
        .roles.map((r: { id: string }) => r.id)
        .sort(),
    ).toEqual([role.id, u.roleId].sort());
    expect((await admin("PUT", `/users/${u.id}/roles`, { role_id: role.id })).statusCode).toBe(200);
    expect((await admin("DELETE", `/users/${u.id}/roles/${role.id}`)).statusCode).toBe(204);
    const after = (await admin("GET", `/users/${u.id}`)).json();
    expect(after.roles.map((r: { id: string }) => r.id)).not.toContain(role.id);
  });

  it("answers 404 to an unknown user, role or assignment, 400 to bad ids", async () => {
    const u = await t.userWith([]);
    const role = await roles.createRole(t.ctx, { name: "unassigned" });
    expectProblem(await admin("PUT", `/users/${randomUUID()}/roles`, { role_id: role.id }), 404);
    expectProblem(await admin("PUT", `/users/${u.id}/roles`, { role_id: randomUUID() }), 404);
    expectProblem(await admin("PUT", `/users/${u.id}/roles`, { role_id: "nope" }), 400);
    expectProblem(await admin("PUT", `/users/${u.id}/roles`, {}), 400);
    expectProblem(await admin("DELETE", `/users/${u.id}/roles/${role.id}`), 404);
    expectProblem(await admin("DELETE", `/users/${u.id}/roles/${randomUUID()}`), 404);
    expectProblem(await admin("DELETE", `/users/${randomUUID()}/roles/${role.id}`), 404);
    expectProblem(await admin("DELETE", `/users/${u.id}/roles/nope`), 400);
  });

  it("refuses to take the admin role from the last active administrator (409)", async () => {
    expectProblem(await admin("DELETE", `/users/${adminId}/roles/${adminRoleId}`), 409);
    expect((await admin("GET", "/users/me")).json().roles.map((r: { id: string }) => r.id)).toContain(
      adminRoleId,
    );
  });
});

describe("GET /api/v1/users/me", () => {
  it("returns the caller with roles and effective permissions", async () => {
    const u = await t.userWith(["usuarios:leer", "roles:leer"]);
    const res = await t.as(u.token, { method: "GET", url: "/api/v1/users/me" });
    expect(res.statusCode).toBe(200);
    const me = res.json();
    expect(me).toMatchObject({ id: u.id, email: u.email, is_active: true });
    expect(me.roles).toEqual([{ id: u.roleId, name: expect.stringMatching(/^role-/) }]);
    expect(me.permissions).toEqual(["roles:leer", "usuarios:leer"]);
    const adminMe = (await admin("GET", "/users/me")).json();
    expect(adminMe.permissions).toHaveLength(PERMISSION_MODULES.length * PERMISSION_ACTIONS.length);
  });
});

describe("PUT /api/v1/users/me/password", () => {
  it("changes the password: the new one logs in, the old one doesn't; other sessions end, this one stays", async () => {
    const u = await t.userWith([]);
    const other = await t.login(u.email, u.password);
    const res = await t.as(u.token, {
      method: "PUT",
      url: "/api/v1/users/me/password",
      payload: { current_password: u.password, new_password: "brand-new-password" },
    });
    expect(res.statusCode).toBe(204);
    expect((await t.as(u.token, { method: "GET", url: "/api/v1/users/me" })).statusCode).toBe(200);
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: "/api/v1/auth/refresh",
          payload: { refresh_token: u.refreshToken },
        })
      ).statusCode,
    ).toBe(200);
    expectUnauthorized(await t.as(other.access_token, { method: "GET", url: "/api/v1/users/me" }));
    expectUnauthorized(
      await t.app.inject({
        method: "POST",
        url: "/api/v1/auth/refresh",
        payload: { refresh_token: other.refresh_token },
      }),
    );
    expect((await t.login(u.email, "brand-new-password")).access_token).toBeTruthy();
    await expect(t.login(u.email, u.password)).rejects.toThrow(/401/);
  });

  it("answers 400 to a wrong current password, a short or unchanged new one; 401 without a token", async () => {
    const u = await t.userWith([]);
    const change = (payload: object) =>
      t.as(u.token, { method: "PUT", url: "/api/v1/users/me/password", payload });
    const wrong = expectProblem(
      await change({ current_password: "not-it", new_password: "another-password" }),
      400,
    );
    expect(wrong.errors?.[0].path).toBe("body.current_password");
    expectProblem(await change({ current_password: u.password, new_password: "short" }), 400);
    expectProblem(await change({ current_password: u.password, new_password: u.password }), 400);
    expectProblem(await change({ new_password: "another-password" }), 400);
    expectUnauthorized(
      await t.app.inject({
        method: "PUT",
        url: "/api/v1/users/me/password",
        payload: { current_password: u.password, new_password: "another-password" },
      }),
    );
    // Still the old password.
    expect((await t.login(u.email, u.password)).access_token).toBeTruthy();
  });
});
