import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp, type TestUser } from "../../../../test/helpers/app.js";
import { TEST_ADMIN } from "../../../../test/helpers/constants.js";
import { expectProblem, expectUnauthorized } from "../../../../test/helpers/problem.js";

let t: TestApp;
let auditor: TestUser;
let carol: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  auditor = await t.userWith(["admin:auditar"]);
  carol = await t.userWith([], { email: "carol@example.com" });
  const attempt = (email: string, password: string) =>
    t.app.inject({
      method: "POST",
      url: "/api/v1/auth/login",
      payload: { email, password },
      remoteAddress: "198.51.100.7",
      headers: { "user-agent": "audit-test/1.0" },
    });
  expect((await attempt("Carol@Example.com", carol.password)).statusCode).toBe(200);
  expect((await attempt("carol@example.com", "not-her-password")).statusCode).toBe(401);
  expect((await attempt("stranger@example.com", "whatever-1")).statusCode).toBe(401);
});
afterAll(async () => {
  await t?.close();
});

interface AuditRecord {
  id: string;
  email: string;
  user_id: string | null;
  success: boolean;
  reason: string;
  ip: string | null;
  user_agent: string | null;
  created_at: string;
}

const audit = async (query = "", token = auditor.token) => {
  const res = await t.as(token, { method: "GET", url: `/api/v1/auth/login-audit${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: AuditRecord[]; total: number; limit: number; offset: number };
};

const isoDay = (offsetDays: number) =>
  new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

describe("GET /api/v1/auth/login-audit", () => {
  it("records successes and failures with who, why, where and when", async () => {
    const page = await audit("?email=carol@example.com");
    expect(page.total).toBe(3); // userWith's own login, and the two attempts above
    const [failure, success] = page.data; // newest first
    expect(Object.keys(failure).sort()).toEqual(
      ["created_at", "email", "id", "ip", "reason", "success", "user_agent", "user_id"].sort(),
    );
    expect(failure).toMatchObject({
      email: "carol@example.com",
      user_id: carol.id,
      success: false,
      reason: "bad_password",
      ip: "198.51.100.7",
      user_agent: "audit-test/1.0",
    });
    expect(success).toMatchObject({
      email: "carol@example.com",
      user_id: carol.id,
      success: true,
      reason: "ok",
      ip: "198.51.100.7",
      user_agent: "audit-test/1.0",
    });
    for (const r of page.data) {
      expect(r.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(Math.abs(Date.parse(r.created_at) - Date.now())).toBeLessThan(10 * 60_000);
    }
    expect(Date.parse(page.data[0].created_at)).toBeGreaterThanOrEqual(Date.parse(page.data[1].created_at));
  });

  it("records an unknown e-mail without a user", async () => {
    const page = await audit("?email=stranger@example.com");
    expect(page.data).toHaveLength(1);
    expect(page.data[0]).toMatchObject({ user_id: null, success: false, reason: "unknown_email" });
  });

  it("filters by success", async () => {
    const failures = await audit("?success=false&limit=1000");
    expect(failures.total).toBeGreaterThanOrEqual(2);
    expect(failures.data.every((r) => !r.success)).toBe(true);
    const successes = await audit("?success=true&limit=1000");
    expect(successes.data.every((r) => r.success)).toBe(true);
    expect(successes.data.some((r) => r.email === TEST_ADMIN.email)).toBe(true);
    const all = await audit("?limit=1000");
    expect(all.total).toBe(failures.total + successes.total);
  });

  it("filters by date_from and date_to (inclusive days)", async () => {
    const all = await audit("?limit=1000");
    expect((await audit(`?date_from=${isoDay(-1)}&date_to=${isoDay(1)}`)).total).toBe(all.total);
    expect((await audit(`?date_from=${isoDay(1)}`)).total).toBe(0);
    expect((await audit(`?date_to=${isoDay(-1)}`)).total).toBe(0);
    // A record from three days ago falls in a range that covers that day only.
    await t.db.execute(
      sql`insert into login_audit (id, email, success, reason, ip, created_at)
          values (gen_random_uuid(), 'old@example.com', false, 'unknown_email', '192.0.2.1',
                  now() - interval '3 days')`,
    );
    const old = await audit(`?date_from=${isoDay(-3)}&date_to=${isoDay(-3)}`);
    expect(old.data.map((r) => r.email)).toEqual(["old@example.com"]);
    expect((await audit(`?date_from=${isoDay(-2)}&email=old@`)).total).toBe(0);
  });

  it("paginates as {data, total, limit, offset}", async () => {
    const all = await audit("?limit=1000");
    expect(all.total).toBeGreaterThanOrEqual(4);
    const first = await audit("?limit=2");
    expect(first).toMatchObject({ limit: 2, offset: 0, total: all.total });
    expect(first.data.map((r) => r.id)).toEqual(all.data.slice(0, 2).map((r) => r.id));
    const second = await audit("?limit=2&offset=2");
    expect(second).toMatchObject({ limit: 2, offset: 2, total: all.total });
    expect(second.data.map((r) => r.id)).toEqual(all.data.slice(2, 4).map((r) => r.id));
    expect((await audit(`?offset=${all.total}`)).data).toEqual([]);
    const defaults = await audit();
    expect(defaults).toMatchObject({ limit: 50, offset: 0 });
  });

  it("answers 400 to bad filters and 403 without admin:auditar, 401 without a token", async () => {
    for (const q of ["?date_from=yesterday", "?success=maybe", "?limit=0", "?limit=1001", "?offset=-1"]) {
      expectProblem(await t.as(auditor.token, { method: "GET", url: `/api/v1/auth/login-audit${q}` }), 400);
    }
    const reader = await t.userWith(["usuarios:leer", "admin:leer"]);
    expectProblem(await t.as(reader.token, { method: "GET", url: "/api/v1/auth/login-audit" }), 403);
    expectUnauthorized(await t.app.inject({ method: "GET", url: "/api/v1/auth/login-audit" }));
  });
});
