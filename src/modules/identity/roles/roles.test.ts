import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { expectProblem } from "../../../../test/helpers/problem.js";
import { PERMISSION_ACTIONS, PERMISSION_MODULES } from "../catalog.js";

/** Every module of the catalog times its six actions. */
const CATALOG_SIZE = PERMISSION_MODULES.length * PERMISSION_ACTIONS.length;

let t: TestApp;
let adminRoleId: string;
let catalog: PermissionOut[];
const permId = (p: string) => {
  const [modulo, accion] = p.split(":");
  const found = catalog.find((c) => c.modulo === modulo && c.accion === accion);
  if (!found) throw new Error(`no permission ${p}`);
  return found.id;
};

beforeAll(async () => {
  t = await createTestApp();
  const me = (await t.as(t.adminToken, { method: "GET", url: "/api/v1/users/me" })).json();
  adminRoleId = me.roles.find((r: { name: string }) => r.name === "admin").id;
  catalog = (await t.as(t.adminToken, { method: "GET", url: "/api/v1/permissions" })).json();
});
afterAll(async () => {
  await t?.close();
});

interface PermissionOut {
  id: string;
  modulo: string;
  accion: string;
  submenu: string | null;
  view: string | null;
}

const admin = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  t.as(t.adminToken, { method, url: `/api/v1${url}`, ...(payload ? { payload } : {}) });

async function createRole(name: string, description?: string) {
  const res = await admin("POST", "/roles", { name, ...(description ? { description } : {}) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; name: string; description: string; permissions: PermissionOut[] };
}

describe("GET /api/v1/permissions", () => {
  it("lists the whole catalog: every module x 6 actions, each with submenu and view", async () => {
    expect(catalog).toHaveLength(CATALOG_SIZE);
    expect(PERMISSION_MODULES).toContain("verifactu");
    expect(PERMISSION_MODULES).toContain("tax");
    expect(PERMISSION_ACTIONS).toHaveLength(6);
    const keys = new Set(catalog.map((p) => `${p.modulo}:${p.accion}`));
    expect(keys.size).toBe(CATALOG_SIZE);
    for (const m of PERMISSION_MODULES)
      for (const a of PERMISSION_ACTIONS) expect(keys).toContain(`${m}:${a}`);
    for (const p of catalog) {
      expect(Object.keys(p).sort()).toEqual(["accion", "id", "modulo", "submenu", "view"]);
      expect(p.view).toBe(`${p.modulo}.${p.accion}`);
    }
  });

  it("requires roles:leer", async () => {
    const u = await t.userWith(["roles:leer"]);
    expect((await t.as(u.token, { method: "GET", url: "/api/v1/permissions" })).json()).toHaveLength(
      CATALOG_SIZE,
    );
    const v = await t.userWith(["usuarios:leer"]);
    expectProblem(await t.as(v.token, { method: "GET", url: "/api/v1/permissions" }), 403);
  });
});

describe("POST /api/v1/roles", () => {
  it("creates a role (201) with no permissions", async () => {
    const role = await createRole("Site managers", "Run the sites");
    expect(role).toMatchObject({
      name: "Site managers",
      description: "Run the sites",
      is_system: false,
      permissions: [],
    });
    expect((await admin("GET", `/roles/${role.id}`)).json()).toEqual(role);
  });

  it("answers 409 to a duplicate name in any case, 400 to an invalid body", async () => {
    await createRole("Estimators");
    expectProblem(await admin("POST", "/roles", { name: "ESTIMATORS" }), 409);
    expectProblem(await admin("POST", "/roles", { name: "admin" }), 409);
    expectProblem(await admin("POST", "/roles", {}), 400);
    expectProblem(await admin("POST", "/roles", { name: "   " }), 400);
    expectProblem(await admin("POST", "/roles", { name: "x".repeat(101) }), 400);
  });
});

describe("GET /api/v1/roles and /api/v1/roles/{id}", () => {
  it("lists roles with {data, total, limit, offset}, admin first, filtered by search", async () => {
    await createRole("Listed one");
    await createRole("Listed two");
    const page = (await admin("GET", "/roles")).json();
    expect(page).toMatchObject({ limit: 50, offset: 0 });
    expect(page.total).toBe(page.data.length);
    expect(page.data[0]).toMatchObject({ id: adminRoleId, name: "admin", is_system: true });
    expect(page.data[0]).not.toHaveProperty("permissions");
    const found = (await admin("GET", "/roles?search=listed")).json();
    expect(found.data.map((r: { name: string }) => r.name)).toEqual(["Listed one", "Listed two"]);
    const second = (await admin("GET", "/roles?search=listed&limit=1&offset=1")).json();
    expect(second).toMatchObject({ total: 2, limit: 1, offset: 1 });
    expect(second.data[0].name).toBe("Listed two");
  });

  it("shows a role with its permissions; 404 unknown, 400 non-UUID", async () => {
    const res = await admin("GET", `/roles/${adminRoleId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().permissions).toHaveLength(CATALOG_SIZE);
    expectProblem(await admin("GET", `/roles/${randomUUID()}`), 404);
    expectProblem(await admin("GET", "/roles/admin"), 400);
  });
});

describe("PUT /api/v1/roles/{id}", () => {
  it("renames and re-describes a role", async () => {
    const role = await createRole("Old name");
    const res = await admin("PUT", `/roles/${role.id}`, { name: "New name", description: "Changed" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: role.id, name: "New name", description: "Changed" });
    // Changing only the case of its own name is not a clash.
    expect((await admin("PUT", `/roles/${role.id}`, { name: "NEW NAME" })).json().name).toBe("NEW NAME");
  });

  it("answers 409 to another role's name, 400 to an empty body, 404 to an unknown id", async () => {
    const a = await createRole("Role A");
    await createRole("Role B");
    expectProblem(await admin("PUT", `/roles/${a.id}`, { name: "role b" }), 409);
    expectProblem(await admin("PUT", `/roles/${a.id}`, {}), 400);
    expectProblem(await admin("PUT", `/roles/${randomUUID()}`, { name: "x" }), 404);
  });
});

describe("role permissions", () => {
  it("adds a permission by permission_id and by {modulo, accion}, idempotently", async () => {
    const role = await createRole("Permission holder");
    const byId = await admin("POST", `/roles/${role.id}/permissions`, {
      permission_id: permId("budgets:leer"),
    });
    expect(byId.statusCode).toBe(200);
    expect(byId.json().permissions.map((p: PermissionOut) => `${p.modulo}:${p.accion}`)).toEqual([
      "budgets:leer",
    ]);
    const byName = await admin("POST", `/roles/${role.id}/permissions`, {
      modulo: "budgets",
      accion: "crear",
    });
    expect(byName.statusCode).toBe(200);
    expect(
      (await admin("POST", `/roles/${role.id}/permissions`, { modulo: "budgets", accion: "crear" }))
        .statusCode,
    ).toBe(200);
    const list = await admin("GET", `/roles/${role.id}/permissions`);
    expect(list.statusCode).toBe(200);
    expect(list.json().map((p: PermissionOut) => `${p.modulo}:${p.accion}`)).toEqual([
      "budgets:crear",
      "budgets:leer",
    ]);
  });

  it("answers 404 to an unknown permission or role, 400 to a bad body", async () => {
    const role = await createRole("Picky");
    expectProblem(await admin("POST", `/roles/${role.id}/permissions`, { permission_id: randomUUID() }), 404);
    expectProblem(
      await admin("POST", `/roles/${role.id}/permissions`, { modulo: "nope", accion: "leer" }),
      404,
    );
    expectProblem(
      await admin("POST", `/roles/${randomUUID()}/permissions`, { modulo: "budgets", accion: "leer" }),
      404,
    );
    expectProblem(
      await admin("POST", `/roles/${role.id}/permissions`, { modulo: "budgets", accion: "fly" }),
      400,
    );
    expectProblem(await admin("POST", `/roles/${role.id}/permissions`, { permission_id: "nope" }), 400);
    expectProblem(await admin("POST", `/roles/${role.id}/permissions`, {}), 400);
    expectProblem(await admin("GET", `/roles/${randomUUID()}/permissions`), 404);
  });

  it("removes a permission (204); 404 when the role does not hold it", async () => {
    const role = await createRole("Shrinking");
    await admin("POST", `/roles/${role.id}/permissions`, { modulo: "activities", accion: "leer" });
    const id = permId("activities:leer");
    expect((await admin("DELETE", `/roles/${role.id}/permissions/${id}`)).statusCode).toBe(204);
    expect((await admin("GET", `/roles/${role.id}/permissions`)).json()).toEqual([]);
    expectProblem(await admin("DELETE", `/roles/${role.id}/permissions/${id}`), 404);
    expectProblem(await admin("DELETE", `/roles/${role.id}/permissions/${randomUUID()}`), 404);
    expectProblem(await admin("DELETE", `/roles/${randomUUID()}/permissions/${id}`), 404);
    expectProblem(await admin("DELETE", `/roles/${role.id}/permissions/nope`), 400);
  });
});

describe("DELETE /api/v1/roles/{id}", () => {
  it("deletes an unused role (204)", async () => {
    const role = await createRole("Short-lived");
    await admin("POST", `/roles/${role.id}/permissions`, { modulo: "budgets", accion: "leer" });
    expect((await admin("DELETE", `/roles/${role.id}`)).statusCode).toBe(204);
    expectProblem(await admin("GET", `/roles/${role.id}`), 404);
    expectProblem(await admin("DELETE", `/roles/${role.id}`), 404);
  });

  it("answers 409 while users hold the role, and deletes it once they don't", async () => {
    const u = await t.userWith(["budgets:leer"]);
    const body = expectProblem(await admin("DELETE", `/roles/${u.roleId}`), 409);
    expect(body.holders).toBe(1);
    expect((await admin("GET", `/roles/${u.roleId}`)).statusCode).toBe(200);
    expect((await admin("DELETE", `/users/${u.id}/roles/${u.roleId}`)).statusCode).toBe(204);
    expect((await admin("DELETE", `/roles/${u.roleId}`)).statusCode).toBe(204);
  });

  it("answers 400 to a non-UUID", async () => {
    expectProblem(await admin("DELETE", "/roles/nope"), 400);
  });
});

describe("the built-in admin role", () => {
  it("can't be deleted, renamed (even by case) or stripped (409), and keeps every permission", async () => {
    expectProblem(await admin("DELETE", `/roles/${adminRoleId}`), 409);
    expectProblem(await admin("PUT", `/roles/${adminRoleId}`, { name: "superuser" }), 409);
    expectProblem(await admin("PUT", `/roles/${adminRoleId}`, { name: "ADMIN" }), 409);
    expectProblem(await admin("DELETE", `/roles/${adminRoleId}/permissions/${permId("usuarios:leer")}`), 409);
    const role = (await admin("GET", `/roles/${adminRoleId}`)).json();
    expect(role).toMatchObject({ name: "admin", is_system: true });
    expect(role.permissions).toHaveLength(CATALOG_SIZE);
  });

  it("can have its description edited", async () => {
    const res = await admin("PUT", `/roles/${adminRoleId}`, { description: "Everything" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: "admin", description: "Everything" });
  });
});

describe("role routes check their permissions", () => {
  it("roles:leer reads but can't write", async () => {
    const u = await t.userWith(["roles:leer"]);
    expect((await t.as(u.token, { method: "GET", url: "/api/v1/roles" })).statusCode).toBe(200);
    expect((await t.as(u.token, { method: "GET", url: `/api/v1/roles/${adminRoleId}` })).statusCode).toBe(
      200,
    );
    expectProblem(
      await t.as(u.token, { method: "POST", url: "/api/v1/roles", payload: { name: "nope" } }),
      403,
    );
  });

  it("roles:crear, roles:editar and roles:eliminar each allow their own route", async () => {
    // budgets:leer too: nobody adds a permission they don't hold.
    const u = await t.userWith(["roles:crear", "roles:editar", "roles:eliminar", "budgets:leer"]);
    const created = await t.as(u.token, {
      method: "POST",
      url: "/api/v1/roles",
      payload: { name: "By editor" },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id;
    const edited = await t.as(u.token, {
      method: "PUT",
      url: `/api/v1/roles/${id}`,
      payload: { name: "Edited" },
    });
    expect(edited.statusCode).toBe(200);
    const added = await t.as(u.token, {
      method: "POST",
      url: `/api/v1/roles/${id}/permissions`,
      payload: { modulo: "budgets", accion: "leer" },
    });
    expect(added.statusCode).toBe(200);
    expect((await t.as(u.token, { method: "DELETE", url: `/api/v1/roles/${id}` })).statusCode).toBe(204);
  });
});
