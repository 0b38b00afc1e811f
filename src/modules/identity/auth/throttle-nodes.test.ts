/**
 * Login throttling across server nodes (ADR 013): the counters are the login_audit rows in the
 * tenant's database, so every node sharing that database sees every other node's failures. Two app
 * instances, each with its own connection pool on PostgreSQL (the same handle on PGlite, which
 * admits one process), share one database here.
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { TEST_JWT_SECRET } from "../../../../test/helpers/constants.js";
import { expectProblem } from "../../../../test/helpers/problem.js";
import { buildApp } from "../../../app/build.js";
import { loadConfig } from "../../../config.js";
import { type DatabaseHandle, openDatabase } from "../../../platform/db/client.js";
import { singleTenant } from "../../../platform/db/tenancy.js";
import { MAX_FAILED_LOGINS, MAX_FAILED_LOGINS_PER_ACCOUNT, MAX_FAILED_LOGINS_PER_IP } from "./repository.js";

let t: TestApp;
let secondHandle: DatabaseHandle | undefined;
let nodes: FastifyInstance[];

beforeAll(async () => {
  t = await createTestApp();
  const url = t.database.url;
  secondHandle = url ? await openDatabase({ url, poolSize: 3 }) : undefined;
  const config = loadConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", JWT_SECRET: TEST_JWT_SECRET });
  const second = await buildApp({
    config: { ...config, jwtSecret: TEST_JWT_SECRET },
    // Not closing the shared PGlite handle when this node stops: the first node owns it.
    tenants: { ...singleTenant(secondHandle ?? t.database.handle), close: async () => {} },
  });
  await second.ready();
  nodes = [t.app, second];
});
afterAll(async () => {
  await nodes?.[1]?.close();
  await secondHandle?.close();
  await t?.close();
});

const attempt = (node: number, email: string, ip: string) =>
  nodes[node].inject({
    method: "POST",
    url: "/api/v1/auth/login",
    payload: { email, password: "wrong-password" },
    remoteAddress: ip,
  });

describe("login throttling shared by every node of one database", () => {
  it("counts one (e-mail, IP) pair's failures made on either node", async () => {
    const user = await t.userWith([]);
    for (let i = 0; i < MAX_FAILED_LOGINS; i++) {
      expect((await attempt(i % 2, user.email, "203.0.113.10")).statusCode).toBe(401);
    }
    expectProblem(await attempt(0, user.email, "203.0.113.10"), 429);
    expectProblem(await attempt(1, user.email, "203.0.113.10"), 429);
  });

  it("counts one account's failures from many IPs across the nodes", async () => {
    const user = await t.userWith([]);
    for (let i = 0; i < MAX_FAILED_LOGINS_PER_ACCOUNT; i++) {
      expect((await attempt(i % 2, user.email, `192.0.2.${i + 1}`)).statusCode).toBe(401);
    }
    expectProblem(await attempt(0, user.email, "192.0.2.200"), 429);
    expectProblem(await attempt(1, user.email, "192.0.2.201"), 429);
  });

  it("counts one IP's failures over many accounts across the nodes", async () => {
    for (let i = 0; i < MAX_FAILED_LOGINS_PER_IP; i++) {
      expect((await attempt(i % 2, `spread-${i}@example.com`, "198.51.100.50")).statusCode).toBe(401);
    }
    expectProblem(await attempt(0, "spread-x@example.com", "198.51.100.50"), 429);
    expectProblem(await attempt(1, "spread-y@example.com", "198.51.100.50"), 429);
  });

  it("lets a correct password in on the other node while the limits are not reached", async () => {
    const user = await t.userWith([]);
    expect((await attempt(0, user.email, "203.0.113.77")).statusCode).toBe(401);
    const ok = await nodes[1].inject({
      method: "POST",
      url: "/api/v1/auth/login",
      payload: { email: user.email, password: user.password },
      remoteAddress: "203.0.113.77",
    });
    expect(ok.statusCode).toBe(200);
  });
});
