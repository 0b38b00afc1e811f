import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp, type TestUser } from "../../../../test/helpers/app.js";
import { expectProblem, expectUnauthorized } from "../../../../test/helpers/problem.js";
import { listLoginAudit } from "./repository.js";

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  alice = await t.userWith([]);
  bob = await t.userWith([]);
});
afterAll(async () => {
  await t?.close();
});

const attempt = (email: string, password: string, ip: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/v1/auth/login",
    payload: { email, password },
    remoteAddress: ip,
    headers: { "user-agent": "brute-force-test" },
  });

function expectTooMany(res: Awaited<ReturnType<typeof attempt>>) {
  const body = expectProblem(res, 429);
  const retryAfter = res.headers["retry-after"];
  expect(retryAfter).toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThan(0);
  expect(Number(retryAfter)).toBeLessThanOrEqual(900);
  return body;
}

describe("brute-force protection on POST /api/v1/auth/login", () => {
  it("5 failures for one e-mail from one IP -> the 6th attempt is 429, even with the right password", async () => {
    const ip = "203.0.113.10";
    for (let i = 0; i < 5; i++) expectUnauthorized(await attempt(alice.email, `wrong-${i}`, ip));
    expectTooMany(await attempt(alice.email, alice.password, ip));
    expectTooMany(await attempt(alice.email, "wrong-again", ip));
    // Case does not get around it.
    expectTooMany(await attempt(alice.email.toUpperCase(), alice.password, ip));
  });

  it("audits the refused attempts as rate_limited, without counting them as failures", async () => {
    const { rows } = await listLoginAudit(t.db, { email: alice.email, limit: 100, offset: 0 });
    const fromIp = rows.filter((r) => r.ip === "203.0.113.10");
    expect(fromIp.filter((r) => r.reason === "bad_password")).toHaveLength(5);
    const limited = fromIp.filter((r) => r.reason === "rate_limited");
    expect(limited).toHaveLength(3);
    for (const r of limited) {
      expect(r.success).toBe(false);
      expect(r.userAgent).toBe("brute-force-test");
      expect(r.email).toBe(alice.email);
    }
  });

  it("leaves another e-mail from the same IP, and the same e-mail from another IP, unaffected", async () => {
    expect((await attempt(bob.email, bob.password, "203.0.113.10")).statusCode).toBe(200);
    expect((await attempt(alice.email, alice.password, "203.0.113.99")).statusCode).toBe(200);
  });

  it("can't be outrun by concurrent attempts: 20 at once get 5 password checks", async () => {
    const u = await t.userWith([]);
    const ip = "203.0.113.14";
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => attempt(u.email, i === 19 ? u.password : `wrong-${i}`, ip)),
    );
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    const { rows } = await listLoginAudit(t.db, { email: u.email, limit: 100, offset: 0 });
    const fromIp = rows.filter((r) => r.ip === ip);
    expect(fromIp.filter((r) => r.reason === "bad_password")).toHaveLength(5);
    expect(fromIp.filter((r) => r.reason === "rate_limited")).toHaveLength(15);
  });

  it("counts failures for an unknown e-mail the same way (no enumeration)", async () => {
    const ip = "203.0.113.11";
    for (let i = 0; i < 5; i++) expectUnauthorized(await attempt("nobody@example.com", "x-x-x-x", ip));
    expectTooMany(await attempt("nobody@example.com", "x-x-x-x", ip));
  });

  it("4 failures then a success reset the count", async () => {
    const ip = "203.0.113.12";
    for (let i = 0; i < 4; i++) expectUnauthorized(await attempt(bob.email, "wrong", ip));
    expect((await attempt(bob.email, bob.password, ip)).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) expectUnauthorized(await attempt(bob.email, "wrong", ip));
    expect((await attempt(bob.email, bob.password, ip)).statusCode).toBe(200);
  });

  it("keeps refusing until the 15-minute window has passed, then lets the e-mail in", async () => {
    const ip = "203.0.113.13";
    const age = (minutes: number) =>
      t.db.execute(
        sql`update login_audit set created_at = created_at - make_interval(secs => ${minutes * 60})
             where ip = ${ip}`,
      );
    for (let i = 0; i < 5; i++) expectUnauthorized(await attempt(alice.email, "wrong", ip));
    expect(Number(expectTooMany(await attempt(alice.email, alice.password, ip)).retry_after)).toBeGreaterThan(
      840,
    );
    await age(14);
    const later = await attempt(alice.email, alice.password, ip);
    expectTooMany(later);
    expect(Number(later.headers["retry-after"])).toBeLessThanOrEqual(60);
    await age(1.05);
    expect((await attempt(alice.email, alice.password, ip)).statusCode).toBe(200);
  });
});
