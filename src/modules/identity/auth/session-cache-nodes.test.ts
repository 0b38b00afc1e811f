/**
 * The JWT guard's session-state cache (ADR 034) against revocation: on the node that made the
 * change, the very next request; on another node (its own pool and LISTEN connection on
 * PostgreSQL; the same handle on PGlite, which admits one process), as soon as the notification
 * arrives; with the LISTEN connection gone, every request queries the database.
 */
import { sql } from "drizzle-orm";
import type { FastifyInstance, InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { TEST_JWT_SECRET } from "../../../../test/helpers/constants.js";
import { onPostgres } from "../../../../test/helpers/db.js";
import { expectProblem, expectUnauthorized } from "../../../../test/helpers/problem.js";
import { buildApp } from "../../../app/build.js";
import { loadConfig } from "../../../config.js";
import { type DatabaseHandle, openDatabase } from "../../../platform/db/client.js";
import { LISTENER_APPLICATION_NAME } from "../../../platform/db/notifications.js";
import { singleTenant } from "../../../platform/db/tenancy.js";
import { sessionCacheOf } from "./session-cache.js";

/** Node B reconnects its LISTEN this long after losing it: wide enough to observe it down. */
const RECONNECT_MS = 1_500;

let t: TestApp;
let handleB: DatabaseHandle;
let ownHandleB: DatabaseHandle | undefined;
let nodeB: FastifyInstance;
/** Session-state queries each node sent to the database. */
const sessionQueries = new Map<DatabaseHandle, number>();

function countSessionQueries(handle: DatabaseHandle) {
  const prepared = handle.prepared.bind(handle);
  sessionQueries.set(handle, 0);
  handle.prepared = (name, text, params) => {
    if (name === "cuadra_auth_session_state")
      sessionQueries.set(handle, (sessionQueries.get(handle) ?? 0) + 1);
    return prepared(name, text, params);
  };
}

async function eventually(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const listening = (handle: DatabaseHandle) =>
  eventually(() => sessionCacheOf(handle).isListening, "the LISTEN connection");

beforeAll(async () => {
  t = await createTestApp();
  const url = t.database.url;
  ownHandleB = url ? await openDatabase({ url, poolSize: 3, listen: { retryMs: RECONNECT_MS } }) : undefined;
  handleB = ownHandleB ?? t.database.handle;
  const config = loadConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", JWT_SECRET: TEST_JWT_SECRET });
  nodeB = await buildApp({
    config: { ...config, jwtSecret: TEST_JWT_SECRET },
    // Not closing the shared PGlite handle when this node stops: the first node owns it.
    tenants: { ...singleTenant(handleB), close: async () => {} },
  });
  await nodeB.ready();
  countSessionQueries(t.database.handle);
  if (ownHandleB) countSessionQueries(ownHandleB);
  // Each cache starts listening at its first request: start both now.
  await listening(t.database.handle);
  await listening(handleB);
});
afterAll(async () => {
  await nodeB?.close();
  await ownHandleB?.close();
  await t?.close();
});

const onA = (token: string, options: InjectOptions) => t.as(token, options);
const onB = (token: string, options: InjectOptions) =>
  nodeB.inject({ ...options, headers: { ...options.headers, authorization: `Bearer ${token}` } });
const me = { method: "GET", url: "/api/v1/users/me" } as const;

/** Node B refuses `token`: at once when it shares node A's handle (PGlite), once notified otherwise. */
async function refusedOnB(token: string, status = 401) {
  if (!ownHandleB) {
    expectProblem(await onB(token, me), status);
    return;
  }
  await eventually(async () => (await onB(token, me)).statusCode === status, `node B to answer ${status}`);
}

describe("the session-state cache on the node that made the change", () => {
  it("answers a repeated request without the session query", async () => {
    const u = await t.userWith([]);
    const before = sessionQueries.get(t.database.handle)!;
    expect((await onA(u.token, me)).statusCode).toBe(200);
    expect(sessionQueries.get(t.database.handle)).toBe(before + 1);
    for (let i = 0; i < 3; i++) expect((await onA(u.token, me)).statusCode).toBe(200);
    expect(sessionQueries.get(t.database.handle)).toBe(before + 1);
  });

  it("refuses a cached token on the very next request after logout, logout-all and revoke-tokens", async () => {
    const u = await t.userWith([]);
    expect((await onA(u.token, me)).statusCode).toBe(200);
    expect((await onA(u.token, { method: "POST", url: "/api/v1/auth/logout" })).statusCode).toBe(204);
    expectUnauthorized(await onA(u.token, me));

    const second = await t.login(u.email, u.password);
    expect((await onA(second.access_token, me)).statusCode).toBe(200);
    expect(
      (await onA(second.access_token, { method: "POST", url: "/api/v1/auth/logout-all" })).statusCode,
    ).toBe(204);
    expectUnauthorized(await onA(second.access_token, me));

    const third = await t.login(u.email, u.password);
    expect((await onA(third.access_token, me)).statusCode).toBe(200);
    const revoked = await onA(t.adminToken, { method: "POST", url: `/api/v1/users/${u.id}/revoke-tokens` });
    expect(revoked.statusCode).toBe(204);
    expectUnauthorized(await onA(third.access_token, me));
  });

  it("shows a changed name and company restriction on the very next request", async () => {
    const u = await t.userWith([]);
    expect((await onA(u.token, me)).json().full_name).not.toBe("Renamed Person");
    const company = await t.createCompany("Cache Co", "B76543214");
    const put = await onA(t.adminToken, {
      method: "PUT",
      url: `/api/v1/users/${u.id}`,
      payload: { full_name: "Renamed Person", company_id: company },
    });
    expect(put.statusCode).toBe(200);
    const after = (await onA(u.token, me)).json();
    expect(after.full_name).toBe("Renamed Person");
    expect(after.company_id).toBe(company);
  });

  it("refuses a cached token on the very next request after deactivation or a password reset", async () => {
    const gone = await t.userWith([]);
    expect((await onA(gone.token, me)).statusCode).toBe(200);
    expect((await onA(t.adminToken, { method: "DELETE", url: `/api/v1/users/${gone.id}` })).statusCode).toBe(
      204,
    );
    expectUnauthorized(await onA(gone.token, me));

    const reset = await t.userWith([]);
    expect((await onA(reset.token, me)).statusCode).toBe(200);
    const put = await onA(t.adminToken, {
      method: "PUT",
      url: `/api/v1/users/${reset.id}`,
      payload: { password: "a-brand-new-password-1" },
    });
    expect(put.statusCode).toBe(200);
    expectUnauthorized(await onA(reset.token, me));
  });

  it("refuses the whole session on the very next request once a spent refresh token is reused", async () => {
    const u = await t.userWith([]);
    expect((await onA(u.token, me)).statusCode).toBe(200);
    const rotated = await t.app.inject({
      method: "POST",
      url: "/api/v1/auth/refresh",
      payload: { refresh_token: u.refreshToken },
    });
    expect(rotated.statusCode).toBe(200);
    await t.db.execute(
      sql`update refresh_tokens set used_at = used_at - interval '1 minute' where used_at is not null`,
    );
    const reuse = await t.app.inject({
      method: "POST",
      url: "/api/v1/auth/refresh",
      payload: { refresh_token: u.refreshToken },
    });
    expectUnauthorized(reuse);
    expectUnauthorized(await onA(u.token, me));
  });
});

describe("the session-state cache on another node", () => {
  it("refuses a token cached on node B once node A logged it out", async () => {
    const u = await t.userWith([]);
    expect((await onB(u.token, me)).statusCode).toBe(200);
    expect((await onB(u.token, me)).statusCode).toBe(200);
    expect((await onA(u.token, { method: "POST", url: "/api/v1/auth/logout" })).statusCode).toBe(204);
    await refusedOnB(u.token);
  });

  it("refuses a token cached on node B once node A deactivated its user", async () => {
    const u = await t.userWith([]);
    expect((await onB(u.token, me)).statusCode).toBe(200);
    expect((await onA(t.adminToken, { method: "DELETE", url: `/api/v1/users/${u.id}` })).statusCode).toBe(
      204,
    );
    await refusedOnB(u.token);
  });

  it("applies a permission removed on node A to node B's next requests once notified", async () => {
    const u = await t.userWith(["usuarios:leer"]);
    const listUsers = { method: "GET", url: "/api/v1/users" } as const;
    expect((await onB(u.token, listUsers)).statusCode).toBe(200);
    const catalog = (await onA(t.adminToken, { method: "GET", url: "/api/v1/permissions" })).json() as {
      id: string;
      modulo: string;
      accion: string;
    }[];
    const permission = catalog.find((p) => p.modulo === "usuarios" && p.accion === "leer")!;
    const removed = await onA(t.adminToken, {
      method: "DELETE",
      url: `/api/v1/roles/${u.roleId}/permissions/${permission.id}`,
    });
    expect(removed.statusCode).toBe(204);
    if (!ownHandleB) expectProblem(await onB(u.token, listUsers), 403);
    else await eventually(async () => (await onB(u.token, listUsers)).statusCode === 403, "node B's 403");
  });

  it("refuses a token once its session is revoked by plain SQL (an operator, another program)", async () => {
    const u = await t.userWith([]);
    expect((await onB(u.token, me)).statusCode).toBe(200);
    await t.db.execute(
      sql`update sessions set revoked_at = now(), revoked_reason = 'test' where user_id = ${u.id}`,
    );
    await refusedOnB(u.token);
  });
});

describe.skipIf(!onPostgres())("the session-state cache without its LISTEN connection", () => {
  it("queries on every request while the connection is down, and starts empty when it is back", async () => {
    const cached = await t.userWith([]);
    const other = await t.userWith([]);
    expect((await onB(cached.token, me)).statusCode).toBe(200);
    expect((await onB(other.token, me)).statusCode).toBe(200);
    expect(sessionCacheOf(handleB).size).toBeGreaterThanOrEqual(2);

    await t.db.execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity
           where datname = current_database() and application_name = ${LISTENER_APPLICATION_NAME}`,
    );
    await eventually(() => !sessionCacheOf(handleB).isListening, "node B to notice the lost connection");
    expect(sessionCacheOf(handleB).size).toBe(0);

    // Revoked while node B hears nothing: node B queries, so it refuses at once.
    await t.db.execute(
      sql`update sessions set revoked_at = now(), revoked_reason = 'test' where user_id = ${cached.id}`,
    );
    const queries = sessionQueries.get(handleB)!;
    expectUnauthorized(await onB(cached.token, me));
    expect((await onB(other.token, me)).statusCode).toBe(200);
    expect((await onB(other.token, me)).statusCode).toBe(200);
    expect(sessionQueries.get(handleB)).toBe(queries + 3);
    expect(sessionCacheOf(handleB).size).toBe(0);

    await listening(handleB);
    expectUnauthorized(await onB(cached.token, me));
    expect((await onB(other.token, me)).statusCode).toBe(200);
    const afterReconnect = sessionQueries.get(handleB)!;
    expect((await onB(other.token, me)).statusCode).toBe(200);
    expect(sessionQueries.get(handleB)).toBe(afterReconnect);
  });
});
