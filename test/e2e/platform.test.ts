import Fastify, { type LightMyRequestResponse } from "fastify";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../src/platform/auth/actor.js";
import { registerGuard, routeDeclarations } from "../../src/platform/auth/guard.js";
import type { DatabaseHandle } from "../../src/platform/db/client.js";
import { singleTenant } from "../../src/platform/db/tenancy.js";
import { registerErrorHandling } from "../../src/platform/http/error-handler.js";
import { createTestApp, type TestApp, type TestUser } from "../helpers/app.js";
import { TEST_ADMIN } from "../helpers/constants.js";
import { onPostgres } from "../helpers/db.js";
import { expectProblem } from "../helpers/problem.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DOCS = /^\/api(\/v1)?\/(docs|redoc|openapi\.json)(\/|$)/;

let t: TestApp;
let nobody: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  nobody = await t.userWith([]);
});
afterAll(async () => {
  await t?.close();
});

const responses: LightMyRequestResponse[] = [];
const record = (res: LightMyRequestResponse) => {
  responses.push(res);
  return res;
};

describe("one error body for every status", () => {
  const cases: [string, number, () => Promise<LightMyRequestResponse>, string][] = [
    [
      "validation",
      400,
      () =>
        t.as(t.adminToken, {
          method: "POST",
          url: "/api/v1/users",
          payload: { email: "nope", password: "x" },
        }),
      "/api/v1/users",
    ],
    [
      "malformed JSON",
      400,
      () =>
        t.app.inject({
          method: "POST",
          url: "/api/v1/auth/login",
          headers: { "content-type": "application/json" },
          payload: '{"email": ',
        }),
      "/api/v1/auth/login",
    ],
    [
      "non-UUID path id",
      400,
      () => t.as(t.adminToken, { method: "GET", url: "/api/v1/users/42" }),
      "/api/v1/users/42",
    ],
    ["no token", 401, () => t.app.inject({ method: "GET", url: "/api/v1/users" }), "/api/v1/users"],
    [
      "missing permission",
      403,
      () => t.as(nobody.token, { method: "GET", url: "/api/v1/users?limit=5" }),
      "/api/v1/users",
    ],
    ["unknown route", 404, () => t.app.inject({ method: "GET", url: "/api/v1/nowhere" }), "/api/v1/nowhere"],
    [
      "unknown record",
      404,
      () => t.as(t.adminToken, { method: "GET", url: "/api/v1/users/0190a3c4-0000-7000-8000-000000000000" }),
      "/api/v1/users/0190a3c4-0000-7000-8000-000000000000",
    ],
    [
      "duplicate",
      409,
      () =>
        t.as(t.adminToken, {
          method: "POST",
          url: "/api/v1/users",
          payload: { email: TEST_ADMIN.email, password: "long-enough" },
        }),
      "/api/v1/users",
    ],
    [
      "JSON body over 1 MiB",
      413,
      () =>
        t.app.inject({
          method: "POST",
          url: "/api/v1/auth/login",
          payload: { email: "a@example.com", password: "x".repeat(1024 * 1024 + 1) },
        }),
      "/api/v1/auth/login",
    ],
    [
      "text/plain body",
      415,
      () =>
        t.app.inject({
          method: "POST",
          url: "/api/v1/auth/login",
          headers: { "content-type": "text/plain" },
          payload: JSON.stringify({ email: TEST_ADMIN.email, password: TEST_ADMIN.password }),
        }),
      "/api/v1/auth/login",
    ],
    [
      "too many attempts",
      429,
      async () => {
        const attempt = () =>
          t.app.inject({
            method: "POST",
            url: "/api/v1/auth/login",
            payload: { email: "victim@example.com", password: "guess-guess" },
            remoteAddress: "192.0.2.200",
          });
        for (let i = 0; i < 5; i++) expect((await attempt()).statusCode).toBe(401);
        return attempt();
      },
      "/api/v1/auth/login",
    ],
  ];

  it.each(cases)("%s -> %i", async (_name, status, send, instance) => {
    const res = record(await send());
    const body = expectProblem(res, status);
    expect(body.instance).toBe(instance);
    expect(body.type).toMatch(/^urn:cuadra:problem:/);
    const allowed = ["type", "title", "status", "detail", "instance", "errors", "retry_after", "holders"];
    for (const key of Object.keys(body)) expect(allowed).toContain(key);
    if (status === 429) {
      expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
    }
    if (status === 401) expect(res.headers["www-authenticate"]).toMatch(/^Bearer/);
  });

  it("validation errors list each field with path and message", async () => {
    const res = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/v1/users",
      payload: { email: "nope", password: "x" },
    });
    const body = expectProblem(res, 400);
    expect(body.errors).toEqual(
      expect.arrayContaining([
        { path: "body.email", message: expect.any(String) },
        { path: "body.password", message: expect.any(String) },
      ]),
    );
    const query = expectProblem(
      await t.as(t.adminToken, { method: "GET", url: "/api/v1/users?limit=5000" }),
      400,
    );
    expect(query.errors?.[0]).toEqual({ path: "querystring.limit", message: expect.any(String) });
  });
});

describe("x-request-id", () => {
  it("is on every response: successes, problems, preflights and docs", async () => {
    record(await t.app.inject({ method: "GET", url: "/api/health" }));
    record(await t.as(t.adminToken, { method: "GET", url: "/api/v1/users/me" }));
    record(
      await t.app.inject({
        method: "OPTIONS",
        url: "/api/v1/users",
        headers: { origin: "http://localhost:5173", "access-control-request-method": "GET" },
      }),
    );
    record(await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" }));
    expect(responses.length).toBeGreaterThan(10);
    const ids = responses.map((res) => res.headers["x-request-id"]);
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("echoes a valid incoming x-request-id and replaces an invalid one", async () => {
    const echoed = await t.app.inject({
      method: "GET",
      url: "/api/health",
      headers: { "x-request-id": "trace-123.abc" },
    });
    expect(echoed.headers["x-request-id"]).toBe("trace-123.abc");
    const problem = await t.app.inject({
      method: "GET",
      url: "/api/v1/users",
      headers: { "x-request-id": "client-42" },
    });
    expect(problem.statusCode).toBe(401);
    expect(problem.headers["x-request-id"]).toBe("client-42");
    for (const bad of ["has spaces in it", "x".repeat(129), "<script>", "a\tb"]) {
      const res = await t.app.inject({ method: "GET", url: "/api/health", headers: { "x-request-id": bad } });
      expect(res.headers["x-request-id"]).toMatch(UUID);
    }
  });

  it("is the reqId of the request's log lines", async () => {
    await t.app.inject({
      method: "GET",
      url: "/api/health",
      headers: { "x-request-id": "find-me-in-the-log" },
    });
    const lines = t.logs.map((l) => JSON.parse(l)).filter((l) => l.reqId === "find-me-in-the-log");
    expect(lines.length).toBeGreaterThanOrEqual(2);
  });
});

describe("CORS", () => {
  it("lets the front end's origin in with credentials and the Authorization header", async () => {
    for (const origin of ["http://localhost:5173", "http://localhost:42210", "http://localhost:8000"]) {
      const res = await t.app.inject({
        method: "OPTIONS",
        url: "/api/v1/users/me",
        headers: {
          origin,
          "access-control-request-method": "GET",
          "access-control-request-headers": "authorization,content-type",
        },
      });
      expect(res.statusCode).toBeLessThan(300);
      expect(res.headers["access-control-allow-origin"]).toBe(origin);
      expect(res.headers["access-control-allow-credentials"]).toBe("true");
      expect(String(res.headers["access-control-allow-headers"]).toLowerCase()).toContain("authorization");
      expect(String(res.headers["access-control-allow-methods"])).toContain("DELETE");
    }
    const actual = await t.as(t.adminToken, {
      method: "GET",
      url: "/api/v1/users/me",
      headers: { origin: "http://localhost:5173" },
    });
    expect(actual.headers["access-control-allow-origin"]).toBe("http://localhost:5173");
    expect(String(actual.headers["access-control-expose-headers"]).toLowerCase()).toContain("x-request-id");
  });

  it("lets the front end read a 401 (to try its one refresh) and a problem's headers", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/api/v1/users/me",
      headers: { origin: "http://localhost:5173", authorization: "Bearer expired.or.garbage" },
    });
    expect(res.statusCode).toBe(401);
    expect(res.headers["access-control-allow-origin"]).toBe("http://localhost:5173");
    expect(res.headers["access-control-allow-credentials"]).toBe("true");
    const exposed = String(res.headers["access-control-expose-headers"]).toLowerCase();
    for (const h of ["www-authenticate", "retry-after", "x-request-id"]) expect(exposed).toContain(h);
  });

  it("gives an unknown origin no allow-origin header", async () => {
    const preflight = await t.app.inject({
      method: "OPTIONS",
      url: "/api/v1/users/me",
      headers: { origin: "https://evil.example", "access-control-request-method": "GET" },
    });
    expect(preflight.headers["access-control-allow-origin"]).toBeUndefined();
    const actual = await t.as(t.adminToken, {
      method: "GET",
      url: "/api/v1/users/me",
      headers: { origin: "https://evil.example" },
    });
    expect(actual.headers["access-control-allow-origin"]).toBeUndefined();
  });
});

describe("every route declares who may call it", () => {
  it("each route under /api has a permission or an auth declaration", () => {
    const declared = routeDeclarations(t.app);
    const api = declared.filter((r) => r.url.startsWith("/api"));
    expect(api.length).toBeGreaterThan(20);
    const undeclared = api.filter((r) => !DOCS.test(r.url) && !r.permission && !r.auth);
    expect(undeclared).toEqual([]);
    for (const r of api) {
      if (r.permission)
        expect(r.permission, `${r.method} ${r.url}`).toMatch(
          /^[a-z_]+:(leer|crear|editar|eliminar|validar|auditar)$/,
        );
      if (r.auth) expect(["public", "authenticated"]).toContain(r.auth);
    }
    expect(api).toContainEqual(
      expect.objectContaining({ method: "GET", url: "/api/health", auth: "public" }),
    );
    expect(api).toContainEqual(
      expect.objectContaining({ method: "GET", url: "/api/v1/users", permission: "usuarios:leer" }),
    );
  });

  it("the docs routes are the public ones", () => {
    const docs = routeDeclarations(t.app).filter((r) => DOCS.test(r.url));
    expect(docs.length).toBeGreaterThan(4);
    for (const r of docs) expect(r.auth, `${r.method} ${r.url}`).toBe("public");
  });

  it("the guard closes a route that declares nothing, and 5xx bodies hide internals", async () => {
    const app = Fastify({ logger: false });
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    registerErrorHandling(app);
    const actor: Actor = {
      kind: "user",
      userId: "u",
      email: "u@example.com",
      fullName: "",
      permissions: new Set(["budgets:leer"]),
      roles: [],
      companyId: null,
    };
    const handle = { kind: "pglite", db: null, location: ":memory:" } as unknown as DatabaseHandle;
    registerGuard(app, { tenants: singleTenant(handle), authenticators: { jwt: async () => actor } });
    app.get("/api/undeclared", async () => ({ ok: true }));
    app.get("/api/authenticated", { config: { auth: "authenticated" } }, async () => ({ ok: true }));
    app.get("/api/permitted", { config: { permission: "budgets:leer" } }, async () => ({ ok: true }));
    app.get("/api/boom", { config: { auth: "public" } }, async () => {
      throw new Error("connection string postgres://secret@db");
    });
    await app.ready();
    const bearer = { authorization: "Bearer whatever" };
    expectProblem(await app.inject({ method: "GET", url: "/api/undeclared", headers: bearer }), 403);
    expectProblem(await app.inject({ method: "GET", url: "/api/undeclared" }), 401);
    expect((await app.inject({ method: "GET", url: "/api/authenticated", headers: bearer })).statusCode).toBe(
      200,
    );
    expect((await app.inject({ method: "GET", url: "/api/permitted", headers: bearer })).statusCode).toBe(
      200,
    );
    const boom = expectProblem(await app.inject({ method: "GET", url: "/api/boom" }), 500);
    expect(boom.detail).not.toContain("secret");
    expect(routeDeclarations(app).map((r) => r.url)).toEqual(
      expect.arrayContaining(["/api/undeclared", "/api/authenticated", "/api/permitted"]),
    );
    await app.close();
  });
});

describe("health and readiness", () => {
  it("GET /api/health and GET /api/ready answer 200", async () => {
    const health = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: "ok" });
    const ready = await t.app.inject({ method: "GET", url: "/api/ready" });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: "ok" });
  });

  // Last: it closes the database under the running app.
  it("with the database gone, /api/ready is a 503 problem and /api/health still 200", async () => {
    await t.database.handle.close();
    const ready = await t.app.inject({ method: "GET", url: "/api/ready" });
    const body = expectProblem(ready, 503);
    expect(ready.headers["retry-after"]).toBeDefined();
    expect(body.detail).not.toMatch(/pool|pglite|closed/i);
    const health = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(health.statusCode).toBe(200);
    // The process keeps serving: again, and again.
    expectProblem(await t.app.inject({ method: "GET", url: "/api/ready" }), 503);
    expect((await t.app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
    if (!onPostgres()) {
      // Closing PGlite is an outage: routes answer 503, never 500. (On PostgreSQL an ended pool
      // is a shutdown, not an outage; a refused connection maps to 503 the same way.)
      expectProblem(
        await t.app.inject({
          method: "POST",
          url: "/api/v1/auth/login",
          payload: { email: TEST_ADMIN.email, password: TEST_ADMIN.password },
        }),
        503,
      );
      expectProblem(await t.as(t.adminToken, { method: "GET", url: "/api/v1/users/me" }), 503);
    }
  });
});
