import { eq } from "drizzle-orm";
import type { FastifyInstance, InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers/app.js";
import { TEST_JWT_SECRET } from "../../../test/helpers/constants.js";
import { expectProblem, expectUnauthorized } from "../../../test/helpers/problem.js";
import { buildApp } from "../../app/build.js";
import { loadConfig } from "../../config.js";
import { singleTenant } from "../../platform/db/tenancy.js";
import { users } from "./tables.js";

let t: TestApp;
/** A second server node on the same database, with its own in-process caches. */
let nodeB: FastifyInstance;
let permissionIds: Map<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  const config = loadConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", JWT_SECRET: TEST_JWT_SECRET });
  nodeB = await buildApp({
    config: { ...config, jwtSecret: TEST_JWT_SECRET },
    tenants: singleTenant(t.database.handle),
  });
  await nodeB.ready();
  const catalog = (await t.as(t.adminToken, { method: "GET", url: "/api/v1/permissions" })).json() as {
    id: string;
    modulo: string;
    accion: string;
  }[];
  permissionIds = new Map(catalog.map((p) => [`${p.modulo}:${p.accion}`, p.id]));
});
afterAll(async () => {
  await nodeB?.close();
  await t?.close();
});

const listUsers = (token: string) => t.as(token, { method: "GET", url: "/api/v1/users" });

describe("changes take effect on the very next request", () => {
  it("a user deactivated through DELETE /users/{id} loses its live token", async () => {
    const u = await t.userWith(["usuarios:leer"]);
    expect((await listUsers(u.token)).statusCode).toBe(200);
    expect((await t.as(t.adminToken, { method: "DELETE", url: `/api/v1/users/${u.id}` })).statusCode).toBe(
      204,
    );
    expectUnauthorized(await listUsers(u.token));
    expectUnauthorized(await t.as(u.token, { method: "GET", url: "/api/v1/users/me" }));
  });

  it("a user deactivated through PUT /users/{id} loses its live token", async () => {
    const u = await t.userWith([]);
    const res = await t.as(t.adminToken, {
      method: "PUT",
      url: `/api/v1/users/${u.id}`,
      payload: { is_active: false },
    });
    expect(res.statusCode).toBe(200);
    expectUnauthorized(await t.as(u.token, { method: "GET", url: "/api/v1/users/me" }));
  });

  it("a user deactivated in the database by any other path is refused too (the triggers notify every node)", async () => {
    const u = await t.userWith([]);
    await t.db.update(users).set({ isActive: false }).where(eq(users.id, u.id));
    expectUnauthorized(await t.as(u.token, { method: "GET", url: "/api/v1/users/me" }));
    // Reactivated, the same (unrevoked) session works again.
    await t.db.update(users).set({ isActive: true }).where(eq(users.id, u.id));
    expect((await t.as(u.token, { method: "GET", url: "/api/v1/users/me" })).statusCode).toBe(200);
  });

  it("a permission removed from a role -> 403 on the next request; added back -> 200", async () => {
    const u = await t.userWith(["usuarios:leer"]);
    expect((await listUsers(u.token)).statusCode).toBe(200);
    const permId = permissionIds.get("usuarios:leer");
    const removed = await t.as(t.adminToken, {
      method: "DELETE",
      url: `/api/v1/roles/${u.roleId}/permissions/${permId}`,
    });
    expect(removed.statusCode).toBe(204);
    expectProblem(await listUsers(u.token), 403);
    const added = await t.as(t.adminToken, {
      method: "POST",
      url: `/api/v1/roles/${u.roleId}/permissions`,
      payload: { modulo: "usuarios", accion: "leer" },
    });
    expect(added.statusCode).toBe(200);
    expect((await listUsers(u.token)).statusCode).toBe(200);
  });

  it("a role removed from a user -> 403 on the next request; assigned again -> 200", async () => {
    const u = await t.userWith(["usuarios:leer"]);
    expect((await listUsers(u.token)).statusCode).toBe(200);
    const removed = await t.as(t.adminToken, {
      method: "DELETE",
      url: `/api/v1/users/${u.id}/roles/${u.roleId}`,
    });
    expect(removed.statusCode).toBe(204);
    expectProblem(await listUsers(u.token), 403);
    const me = (await t.as(u.token, { method: "GET", url: "/api/v1/users/me" })).json();
    expect(me.roles).toEqual([]);
    expect(me.permissions).toEqual([]);
    const assigned = await t.as(t.adminToken, {
      method: "PUT",
      url: `/api/v1/users/${u.id}/roles`,
      payload: { role_id: u.roleId },
    });
    expect(assigned.statusCode).toBe(200);
    expect((await listUsers(u.token)).statusCode).toBe(200);
  });

  it("permissions from several roles add up and stay while one role still grants them", async () => {
    const u = await t.userWith(["usuarios:leer"]);
    const other = await t.userWith(["usuarios:leer", "roles:leer"]);
    await t.as(t.adminToken, {
      method: "PUT",
      url: `/api/v1/users/${u.id}/roles`,
      payload: { role_id: other.roleId },
    });
    expect((await t.as(u.token, { method: "GET", url: "/api/v1/roles" })).statusCode).toBe(200);
    await t.as(t.adminToken, { method: "DELETE", url: `/api/v1/users/${u.id}/roles/${u.roleId}` });
    expect((await listUsers(u.token)).statusCode).toBe(200);
  });
});

describe("on every server node", () => {
  const onB = (token: string, options: InjectOptions) =>
    nodeB.inject({ ...options, headers: { ...(options.headers ?? {}), authorization: `Bearer ${token}` } });

  it("a permission removed through node A is refused by node B on its next request", async () => {
    const u = await t.userWith(["usuarios:leer"]);
    // Node B has served this user: whatever it caches is warm.
    for (let i = 0; i < 3; i++)
      expect((await onB(u.token, { method: "GET", url: "/api/v1/users" })).statusCode).toBe(200);
    const removed = await t.as(t.adminToken, {
      method: "DELETE",
      url: `/api/v1/roles/${u.roleId}/permissions/${permissionIds.get("usuarios:leer")}`,
    });
    expect(removed.statusCode).toBe(204);
    expectProblem(await onB(u.token, { method: "GET", url: "/api/v1/users" }), 403);
  });

  it("a role removed, a user deactivated, a logout through node A: node B refuses next", async () => {
    const roleHolder = await t.userWith(["usuarios:leer"]);
    const deactivated = await t.userWith(["usuarios:leer"]);
    const loggedOut = await t.userWith(["usuarios:leer"]);
    for (const u of [roleHolder, deactivated, loggedOut]) {
      expect((await onB(u.token, { method: "GET", url: "/api/v1/users" })).statusCode).toBe(200);
    }
    await t.as(t.adminToken, {
      method: "DELETE",
      url: `/api/v1/users/${roleHolder.id}/roles/${roleHolder.roleId}`,
    });
    await t.as(t.adminToken, { method: "DELETE", url: `/api/v1/users/${deactivated.id}` });
    await t.as(loggedOut.token, { method: "POST", url: "/api/v1/auth/logout" });
    expectProblem(await onB(roleHolder.token, { method: "GET", url: "/api/v1/users" }), 403);
    expectUnauthorized(await onB(deactivated.token, { method: "GET", url: "/api/v1/users" }));
    expectUnauthorized(await onB(loggedOut.token, { method: "GET", url: "/api/v1/users" }));
  });

  it("a permission granted through node A is honoured by node B on its next request", async () => {
    const u = await t.userWith([]);
    expectProblem(await onB(u.token, { method: "GET", url: "/api/v1/roles" }), 403);
    await t.as(t.adminToken, {
      method: "POST",
      url: `/api/v1/roles/${u.roleId}/permissions`,
      payload: { modulo: "roles", accion: "leer" },
    });
    expect((await onB(u.token, { method: "GET", url: "/api/v1/roles" })).statusCode).toBe(200);
  });
});
