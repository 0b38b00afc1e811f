/**
 * Throttling beyond one (e-mail, IP) pair (issue 16): password spraying from one IP, one account
 * guessed from many IPs, and X-Forwarded-For rotation behind a proxy.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { expectProblem } from "../../../../test/helpers/problem.js";
import { MAX_FAILED_LOGINS_PER_ACCOUNT, MAX_FAILED_LOGINS_PER_IP } from "./repository.js";

let t: TestApp;
let proxied: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  proxied = await createTestApp({ TRUST_PROXY: "true" });
});
afterAll(async () => {
  await t?.close();
  await proxied?.close();
});

const attempt = (app: TestApp, email: string, ip: string, headers: Record<string, string> = {}) =>
  app.app.inject({
    method: "POST",
    url: "/api/v1/auth/login",
    payload: { email, password: "wrong-password" },
    remoteAddress: ip,
    headers,
  });

describe("login throttling per IP and per account", () => {
  it("spraying 30 accounts x 4 guesses from one IP is stopped after the per-IP limit", async () => {
    const statuses: number[] = [];
    for (let account = 0; account < 30; account++) {
      for (let guess = 0; guess < 4; guess++) {
        statuses.push((await attempt(t, `spray-${account}@example.com`, "198.51.100.7")).statusCode);
      }
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(MAX_FAILED_LOGINS_PER_IP);
    expect(statuses.slice(MAX_FAILED_LOGINS_PER_IP).every((s) => s === 429)).toBe(true);
    // Another IP is not affected.
    expect((await attempt(t, "spray-0@example.com", "198.51.100.8")).statusCode).toBe(401);
  });

  it("10 IPs x 6 guesses on one account get the per-account limit, not 50 guesses", async () => {
    const user = await t.userWith([]);
    let guesses = 0;
    for (let ip = 0; ip < 10; ip++) {
      for (let guess = 0; guess < 6; guess++) {
        const res = await attempt(t, user.email, `192.0.2.${ip + 1}`);
        if (res.statusCode === 401) guesses += 1;
        else expectProblem(res, 429);
      }
    }
    expect(guesses).toBe(MAX_FAILED_LOGINS_PER_ACCOUNT);
  });

  it("behind a proxy, rotating the left-most X-Forwarded-For doesn't escape: the right-most hop counts", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await attempt(proxied, "rotating@example.com", "10.0.0.2", {
        "x-forwarded-for": `203.0.113.${i + 1}, 198.51.100.99`,
      });
      statuses.push(res.statusCode);
    }
    // The pair (e-mail, 198.51.100.99) is throttled after 5, whatever the client wrote first.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
  });
});
