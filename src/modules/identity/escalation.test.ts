/**
 * Privilege escalation through the identity routes (issue 16, "usuarios:editar is enough to become
 * administrator"): nobody grants what they don't hold, nobody changes their own roles or company
 * restriction, a company-restricted user manages its company's users only, and only an
 * administrator sets another user's password.
 */
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp, type TestUser } from "../../../test/helpers/app.js";
import { TEST_ADMIN } from "../../../test/helpers/constants.js";
import { expectProblem } from "../../../test/helpers/problem.js";
import { createCompany } from "../accounting/test-support.js";
import { permissionCatalog } from "./catalog.js";

let t: TestApp;
let adminId: string;
let adminRoleId: string;
let companyA: string;
let companyB: string;

beforeAll(async () => {
  t = await createTestApp();
  const me = (await t.as(t.adminToken, { url: "/api/v1/users/me" })).json();
  adminId = me.id;
  adminRoleId = me.roles.find((r: { name: string }) => r.name === "admin").id;
  companyA = await createCompany(t, { name: "Company A" });
  companyB = await createCompany(t, { name: "Company B" });
});
afterAll(async () => {
  await t?.close();
});

const v1 = (token: string, method: InjectOptions["method"], url: string, payload?: unknown) =>
  t.as(token, {
    method,
    url: `/api/v1${url}`,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

async function me(token: string) {
  const body = (await v1(token, "GET", "/users/me")).json();
  return { permissions: body.permissions as string[], companyId: body.company_id as string | null };
}

async function newRole(permissions: string[]) {
  const role = (
    await v1(t.adminToken, "POST", "/roles", { name: `r-${Math.random().toString(36).slice(2)}` })
  ).json();
  for (const p of permissions) {
    const [modulo, accion] = p.split(":");
    expect(
      (await v1(t.adminToken, "POST", `/roles/${role.id}/permissions`, { modulo, accion })).statusCode,
    ).toBe(200);
  }
  return role.id as string;
}

describe("the findings of the audit, one by one", () => {
  let editor: TestUser;
  let colleague: TestUser;
  let outsider: TestUser;
  beforeAll(async () => {
    editor = await t.userWith(["usuarios:leer", "usuarios:editar", "usuarios:crear"], {
      companyId: companyA,
    });
    colleague = await t.userWith([], { companyId: companyA });
    outsider = await t.userWith([], { companyId: companyB });
  });

  it("PUT /users/{self}/roles with the admin role: 403, and no permission gained", async () => {
    const before = await me(editor.token);
    expectProblem(await v1(editor.token, "PUT", `/users/${editor.id}/roles`, { role_id: adminRoleId }), 403);
    expect(await me(editor.token)).toEqual(before);
  });

  it("giving another user a role with permissions the caller lacks: 403; a role within its own: 200", async () => {
    expectProblem(
      await v1(editor.token, "PUT", `/users/${colleague.id}/roles`, { role_id: adminRoleId }),
      403,
    );
    const wider = await newRole(["usuarios:leer", "budgets:leer"]);
    expectProblem(await v1(editor.token, "PUT", `/users/${colleague.id}/roles`, { role_id: wider }), 403);
    const within = await newRole(["usuarios:leer"]);
    const res = await v1(editor.token, "PUT", `/users/${colleague.id}/roles`, { role_id: within });
    expect(res.statusCode).toBe(200);
    expect((await me(colleague.token)).permissions).toEqual(["usuarios:leer"]);
  });

  it("changing one's own roles is refused, even to a role within one's permissions", async () => {
    const within = await newRole(["usuarios:leer"]);
    expectProblem(await v1(editor.token, "PUT", `/users/${editor.id}/roles`, { role_id: within }), 403);
    expectProblem(await v1(editor.token, "DELETE", `/users/${editor.id}/roles/${editor.roleId}`), 403);
  });

  it("PUT /users/{self} {company_id: null} or another company: 403, the restriction stays", async () => {
    expectProblem(await v1(editor.token, "PUT", `/users/${editor.id}`, { company_id: null }), 403);
    expectProblem(await v1(editor.token, "PUT", `/users/${editor.id}`, { company_id: companyB }), 403);
    expect((await me(editor.token)).companyId).toBe(companyA);
  });

  it("a company-restricted user can't give a wider restriction to others, on create or update", async () => {
    expectProblem(await v1(editor.token, "PUT", `/users/${colleague.id}`, { company_id: null }), 403);
    expectProblem(await v1(editor.token, "PUT", `/users/${colleague.id}`, { company_id: companyB }), 403);
    const email = `puppet-${Date.now()}@example.com`;
    expectProblem(
      await v1(editor.token, "POST", "/users", { email, password: "password-123", company_id: null }),
      403,
    );
    expectProblem(
      await v1(editor.token, "POST", "/users", { email, password: "password-123", company_id: companyB }),
      403,
    );
    expectProblem(
      await v1(editor.token, "POST", "/users", { email, password: "password-123", role_ids: [adminRoleId] }),
      403,
    );
    // Omitted: the new user belongs to the caller's company.
    const created = await v1(editor.token, "POST", "/users", { email, password: "password-123" });
    expect(created.statusCode).toBe(201);
    expect(created.json().company_id).toBe(companyA);
  });

  it("PUT /users/{other} {password} without admin rights: 403, the old password still works", async () => {
    expectProblem(await v1(editor.token, "PUT", `/users/${colleague.id}`, { password: "taken-over-1" }), 403);
    expectProblem(await v1(editor.token, "PUT", `/users/${editor.id}`, { password: "taken-over-1" }), 403);
    await t.login(colleague.email, colleague.password);
  });

  it("an administrator sets it: the user's sessions end, the new password works, and it is audited", async () => {
    const target = await t.userWith([], { companyId: companyA });
    const res = await v1(t.adminToken, "PUT", `/users/${target.id}`, { password: "reset-by-admin-1" });
    expect(res.statusCode).toBe(200);
    expect((await v1(target.token, "GET", "/users/me")).statusCode).toBe(401);
    const refreshed = await t.app.inject({
      method: "POST",
      url: "/api/v1/auth/refresh",
      payload: { refresh_token: target.refreshToken },
    });
    expect(refreshed.statusCode).toBe(401);
    await t.login(target.email, "reset-by-admin-1");
    const audit = (
      await v1(t.adminToken, "GET", `/auth/login-audit?email=${encodeURIComponent(target.email)}`)
    ).json();
    const entry = audit.data.find((r: { reason: string }) => r.reason === "password_reset_by_admin");
    expect(entry).toBeDefined();
    expect(entry.user_agent ?? JSON.stringify(entry)).toContain(TEST_ADMIN.email);
  });

  it("lists and shows only its company's users; another company's user is 404 everywhere", async () => {
    const list = (await v1(editor.token, "GET", "/users?limit=1000")).json();
    expect(list.data.length).toBeGreaterThan(0);
    expect(list.data.every((u: { company_id: string | null }) => u.company_id === companyA)).toBe(true);
    expect(list.total).toBe(list.data.length);
    expectProblem(await v1(editor.token, "GET", `/users/${outsider.id}`), 404);
    expectProblem(await v1(editor.token, "GET", `/users/${adminId}`), 404);
    expectProblem(await v1(editor.token, "PUT", `/users/${outsider.id}`, { full_name: "x" }), 404);
    expectProblem(await v1(editor.token, "POST", `/users/${outsider.id}/revoke-tokens`), 404);
    expectProblem(await v1(editor.token, "PUT", `/users/${adminId}`, { is_active: false }), 404);
  });

  it("nobody manages a user holding permissions they don't (an unrestricted editor vs the admin)", async () => {
    const unrestricted = await t.userWith(["usuarios:leer", "usuarios:editar", "usuarios:eliminar"]);
    expectProblem(await v1(unrestricted.token, "PUT", `/users/${adminId}`, { is_active: false }), 403);
    expectProblem(
      await v1(unrestricted.token, "PUT", `/users/${adminId}`, { email: "mine@example.com" }),
      403,
    );
    expectProblem(await v1(unrestricted.token, "DELETE", `/users/${adminId}`), 403);
    expectProblem(await v1(unrestricted.token, "DELETE", `/users/${adminId}/roles/${adminRoleId}`), 403);
    expectProblem(await v1(unrestricted.token, "POST", `/users/${adminId}/revoke-tokens`), 403);
    await t.login(TEST_ADMIN.email, TEST_ADMIN.password);
  });

  it("roles:editar can't add a permission it lacks, to its own role or any other", async () => {
    const roleEditor = await t.userWith(["roles:leer", "roles:editar", "roles:crear"]);
    expectProblem(
      await v1(roleEditor.token, "POST", `/roles/${roleEditor.roleId}/permissions`, {
        modulo: "admin",
        accion: "editar",
      }),
      403,
    );
    const created = (await v1(roleEditor.token, "POST", "/roles", { name: `mine-${Date.now()}` })).json();
    expectProblem(
      await v1(roleEditor.token, "POST", `/roles/${created.id}/permissions`, {
        modulo: "usuarios",
        accion: "editar",
      }),
      403,
    );
    expect((await me(roleEditor.token)).permissions).toEqual(["roles:crear", "roles:editar", "roles:leer"]);
  });
});

describe("the sweep: everything but admin:* never ends with more permissions or a wider company scope", () => {
  const allButAdmin = permissionCatalog()
    .map((p) => `${p.modulo}:${p.accion}`)
    .filter((p) => !p.startsWith("admin:"));

  for (const restricted of [false, true]) {
    it(restricted ? "restricted to a company" : "unrestricted", async () => {
      const u = await t.userWith(allButAdmin, restricted ? { companyId: companyA } : {});
      const before = await me(u.token);
      const held = new Set(before.permissions);
      const statuses: number[] = [];
      const attempt = async (method: InjectOptions["method"], url: string, payload?: unknown) => {
        const res = await v1(u.token, method, url, payload);
        statuses.push(res.statusCode);
        return res;
      };

      // Roles: the admin role, admin:* on its own role or on a new one, then taking a role.
      await attempt("PUT", `/users/${u.id}/roles`, { role_id: adminRoleId });
      for (const accion of ["leer", "crear", "editar", "eliminar", "validar", "auditar"]) {
        await attempt("POST", `/roles/${u.roleId}/permissions`, { modulo: "admin", accion });
      }
      const fresh = (await attempt("POST", "/roles", { name: `sweep-${restricted}-${Date.now()}` })).json();
      await attempt("POST", `/roles/${fresh.id}/permissions`, { modulo: "admin", accion: "editar" });
      await attempt("PUT", `/users/${u.id}/roles`, { role_id: fresh.id });
      await attempt("PUT", `/roles/${adminRoleId}`, { description: "mine now" });
      const adminPermissions = (await v1(t.adminToken, "GET", `/roles/${adminRoleId}/permissions`)).json();
      await attempt("DELETE", `/roles/${adminRoleId}/permissions/${adminPermissions[0].id}`);
      // Its own record: company, password.
      await attempt("PUT", `/users/${u.id}`, { company_id: null });
      await attempt("PUT", `/users/${u.id}`, { company_id: restricted ? companyB : companyA });
      await attempt("PUT", `/users/${u.id}`, { password: "self-set-password-1" });
      // The administrator's account: take it over or lock it out.
      await attempt("PUT", `/users/${adminId}`, { password: "taken-over-123" });
      await attempt("PUT", `/users/${adminId}`, { email: `${u.email}.admin` });
      await attempt("PUT", `/users/${adminId}`, { is_active: false });
      await attempt("DELETE", `/users/${adminId}/roles/${adminRoleId}`);
      await attempt("DELETE", `/users/${adminId}`);
      // Puppets: a user created with more than the caller holds, or a wider company.
      const puppetEmail = `puppet-${restricted}-${Date.now()}@example.com`;
      await attempt("POST", "/users", {
        email: puppetEmail,
        password: "puppet-password-1",
        role_ids: [adminRoleId],
      });
      await attempt("POST", "/users", {
        email: `${puppetEmail}.2`,
        password: "puppet-password-1",
        ...(restricted ? { company_id: null } : {}),
        role_ids: [u.roleId],
      });

      expect(statuses.some((s) => s >= 500)).toBe(false);
      const after = await me(u.token);
      expect(new Set(after.permissions)).toEqual(held);
      expect(after.companyId).toBe(before.companyId);
      // The administrator is untouched.
      const admin = await t.login(TEST_ADMIN.email, TEST_ADMIN.password);
      expect((await me(admin.access_token)).permissions).toContain("admin:editar");
      // Every user it could create holds nothing it doesn't, with no wider company scope.
      const created = (
        await v1(t.adminToken, "GET", `/users?search=${encodeURIComponent(`puppet-${restricted}`)}`)
      ).json();
      for (const puppet of created.data as { email: string; company_id: string | null }[]) {
        if (restricted) expect(puppet.company_id).toBe(companyA);
        const token = (await t.login(puppet.email, "puppet-password-1")).access_token;
        for (const p of (await me(token)).permissions) expect(held.has(p)).toBe(true);
      }
    });
  }
});
