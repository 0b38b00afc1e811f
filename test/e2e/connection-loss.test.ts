/**
 * The fault test: the real server (`src/main.ts`, its own process) under writes and reads while
 * PostgreSQL terminates its backends. The process must live, the requests that lost their
 * connection answer 503 problem+json with Retry-After, later requests succeed and no acknowledged
 * write is lost. PostgreSQL only: PGlite has no connections to lose.
 */
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { credit, debit, ledgerFixture } from "../../src/modules/accounting/test-support.js";
import { TEST_ADMIN } from "../helpers/constants.js";
import { createTestDatabase, onPostgres, type TestDatabase } from "../helpers/db.js";
import { adminPool } from "../helpers/postgres.js";
import { type ServerProcess, startServerProcess } from "../helpers/server-process.js";

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Answer {
  status: number;
  contentType: string;
  retryAfter: string | null;
  body: string;
}

describe.skipIf(!onPostgres())("the server under lost connections (PostgreSQL only: PGlite has none)", () => {
  let database: TestDatabase;
  let admin: pg.Pool;
  let server: ServerProcess | undefined;
  let base: string;
  let adminToken: string;

  async function call(token: string | null, options: InjectOptions): Promise<Answer> {
    const res = await fetch(`${base}${options.url}`, {
      method: options.method ?? "GET",
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(options.payload ? { "content-type": "application/json" } : {}),
      },
      body: options.payload ? JSON.stringify(options.payload) : undefined,
    });
    return {
      status: res.status,
      contentType: res.headers.get("content-type") ?? "",
      retryAfter: res.headers.get("retry-after"),
      body: await res.text(),
    };
  }
  /** The fixtures' ApiCaller over real HTTP. */
  const api = {
    get adminToken() {
      return adminToken;
    },
    async as(token: string, options: InjectOptions) {
      const a = await call(token, options);
      return { statusCode: a.status, body: a.body, json: () => JSON.parse(a.body) } as LightMyRequestResponse;
    },
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    await database.handle.close(); // the child owns the connections from here
    admin = adminPool(process.env.TEST_DATABASE_URL as string);
    server = await startServerProcess({ DATABASE_URL: database.url as string }, { timeoutMs: 30_000 });
    base = server.base;
    const login = await call(null, {
      method: "POST",
      url: "/api/v1/auth/login",
      payload: { email: TEST_ADMIN.email, password: TEST_ADMIN.password },
    });
    adminToken = JSON.parse(login.body).access_token;
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await admin?.end();
    await database?.destroy();
  });

  async function terminateBackends() {
    const name = new URL(database.url as string).pathname.slice(1);
    const r = await admin.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
      [name],
    );
    return r.rowCount ?? 0;
  }

  it("survives backends terminated during writes, reads, transactions and idle time", async () => {
    const { companyId, codes } = await ledgerFixture(api);
    const acknowledged: string[] = [];
    const answers: Answer[] = [];
    let running = true;

    const writer = async (n: number) => {
      for (let i = 0; running; i++) {
        const a = await call(adminToken, {
          method: "POST",
          url: "/api/accounting/entries",
          payload: {
            company_id: companyId,
            date: "2026-03-01",
            concept: `fault ${n}-${i}`,
            lines: [
              debit(codes.customer, "121.00"),
              credit(codes.sales, "100.00"),
              credit(codes.vatOutput, "21.00"),
            ],
          },
        }).catch(() => undefined);
        if (!a) continue;
        answers.push(a);
        if (a.status === 201) acknowledged.push(JSON.parse(a.body).id);
      }
    };
    const reader = async () => {
      while (running) {
        const a = await call(adminToken, {
          url: `/api/accounting/entries?company_id=${companyId}&limit=20`,
        }).catch(() => undefined);
        if (a) answers.push(a);
      }
    };
    const load = [...[1, 2, 3, 4].map(writer), reader(), reader(), reader(), reader()];

    let terminated = 0;
    for (let round = 0; round < 4; round++) {
      await tick(400);
      terminated += await terminateBackends();
    }
    // Idle: nothing runs while the connections are cut.
    running = false;
    await Promise.all(load);
    await tick(300);
    terminated += await terminateBackends();
    await tick(300);

    expect(terminated).toBeGreaterThan(0);
    expect(server?.child.exitCode, server?.output()).toBeNull();

    for (const a of answers) {
      expect([200, 201, 503], a.body).toContain(a.status);
      if (a.status === 503) {
        expect(a.contentType).toContain("application/problem+json");
        expect(Number(a.retryAfter)).toBeGreaterThan(0);
      }
    }
    expect(answers.some((a) => a.status === 201)).toBe(true);

    // Later requests succeed, and every entry the server acknowledged is in the ledger.
    const after = await call(adminToken, {
      url: `/api/accounting/entries?company_id=${companyId}&limit=10000`,
    });
    expect(after.status).toBe(200);
    const stored = new Set((JSON.parse(after.body).data as { id: string }[]).map((e) => e.id));
    for (const id of acknowledged) expect(stored.has(id)).toBe(true);
    const write = await call(adminToken, {
      method: "POST",
      url: "/api/accounting/entries",
      payload: {
        company_id: companyId,
        date: "2026-03-02",
        concept: "after the outage",
        lines: [debit(codes.bank, "5.00"), credit(codes.customer, "5.00")],
      },
    });
    expect(write.status).toBe(201);
    expect(server?.child.exitCode).toBeNull();
  }, 60_000);
});
