import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp, type TestUser } from "../../../test/helpers/app.js";
import { expectProblem, expectUnauthorized } from "../../../test/helpers/problem.js";
import { routeDeclarations } from "../../platform/auth/guard.js";
import * as roles from "./roles/service.js";
import * as users from "./users/service.js";

type Method = "GET" | "POST" | "PUT" | "DELETE";
type Access = string | "authenticated" | "public";

/** Every /api/v1 identity route and who may call it: the contract this file enforces. */
const ROUTES: [Method, string, Access][] = [
  ["POST", "/api/v1/auth/login", "public"],
  ["POST", "/api/v1/auth/refresh", "public"],
  ["POST", "/api/v1/auth/logout", "authenticated"],
  ["POST", "/api/v1/auth/logout-all", "authenticated"],
  ["GET", "/api/v1/auth/login-audit", "admin:auditar"],
  ["GET", "/api/v1/users/me", "authenticated"],
  ["PUT", "/api/v1/users/me/password", "authenticated"],
  ["GET", "/api/v1/users", "usuarios:leer"],
  ["GET", "/api/v1/users/:id", "usuarios:leer"],
  ["POST", "/api/v1/users", "usuarios:crear"],
  ["PUT", "/api/v1/users/:id", "usuarios:editar"],
  ["DELETE", "/api/v1/users/:id", "usuarios:eliminar"],
  ["POST", "/api/v1/users/:id/revoke-tokens", "usuarios:editar"],
  ["PUT", "/api/v1/users/:id/roles", "usuarios:editar"],
  ["DELETE", "/api/v1/users/:id/roles/:role_id", "usuarios:editar"],
  ["GET", "/api/v1/roles", "roles:leer"],
  ["GET", "/api/v1/roles/:id", "roles:leer"],
  ["POST", "/api/v1/roles", "roles:crear"],
  ["PUT", "/api/v1/roles/:id", "roles:editar"],
  ["DELETE", "/api/v1/roles/:id", "roles:eliminar"],
  ["GET", "/api/v1/roles/:id/permissions", "roles:leer"],
  ["POST", "/api/v1/roles/:id/permissions", "roles:editar"],
  ["DELETE", "/api/v1/roles/:id/permissions/:perm_id", "roles:editar"],
  ["GET", "/api/v1/permissions", "roles:leer"],
];

const IDENTITY = /^\/api\/v1\/(auth|users|roles|permissions)(\/|$)/;
const concrete = (url: string) => url.replace(/:[a-z_]+/g, () => randomUUID());
const protectedRoutes = ROUTES.filter(([, , access]) => access !== "public");
const permissionRoutes = ROUTES.filter(([, , access]) => access.includes(":"));

let t: TestApp;
let nobody: TestUser;
/** Access token of a user holding every permission of the catalog but this one. */
const everythingElse = new Map<string, string>();

beforeAll(async () => {
  t = await createTestApp();
  nobody = await t.userWith([]);
  for (const permission of new Set(permissionRoutes.map(([, , p]) => p))) {
    const [modulo, accion] = permission.split(":");
    const role = await roles.createRole(t.ctx, { name: `all-but-${permission}` });
    await t.db.execute(
      sql`insert into role_permissions (role_id, permission_id)
          select ${role.id}, id from permissions where not (modulo = ${modulo} and accion = ${accion})`,
    );
    const email = `all-but-${modulo}-${accion}@example.com`;
    await users.createUser(t.ctx, { email, password: "all-but-password", roleIds: [role.id] });
    everythingElse.set(permission, (await t.login(email, "all-but-password")).access_token);
  }
});
afterAll(async () => {
  await t?.close();
});

describe("identity route declarations", () => {
  it("the table above is exactly what the app registered", () => {
    const registered = routeDeclarations(t.app)
      .filter((r) => IDENTITY.test(r.url) && r.method !== "HEAD")
      .map((r) => [r.method, r.url, r.permission ?? r.auth] as [Method, string, Access])
      .sort((a, b) => `${a[1]} ${a[0]}`.localeCompare(`${b[1]} ${b[0]}`));
    const expected = [...ROUTES].sort((a, b) => `${a[1]} ${a[0]}`.localeCompare(`${b[1]} ${b[0]}`));
    expect(registered).toEqual(expected);
  });
});

describe.each(protectedRoutes)("%s %s (%s)", (method, url) => {
  it("answers 401 without a token", async () => {
    expectUnauthorized(
      await t.app.inject({ method, url: concrete(url), payload: method === "GET" ? undefined : {} }),
    );
  });
});

describe.each(permissionRoutes)("%s %s (%s)", (method, url, permission) => {
  it("answers 403 to a user with no permissions", async () => {
    const body = expectProblem(
      await t.as(nobody.token, { method, url: concrete(url), payload: method === "GET" ? undefined : {} }),
      403,
    );
    expect(body.detail).toContain(permission);
  });

  it("answers 403 to a user holding every other permission", async () => {
    expectProblem(
      await t.as(everythingElse.get(permission)!, {
        method,
        url: concrete(url),
        payload: method === "GET" ? undefined : {},
      }),
      403,
    );
  });
});

describe("public routes", () => {
  it.each(ROUTES.filter(([, , access]) => access === "public"))(
    "%s %s needs no token",
    async (method, url) => {
      const res = await t.app.inject({ method, url, payload: {} });
      expect(res.statusCode).toBe(400); // validation of the empty body, not 401
    },
  );
});
