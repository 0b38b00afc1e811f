import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { TEST_ADMIN } from "../helpers/constants.js";
import { fuzzDocument } from "../helpers/openapi-fuzz.js";

/**
 * Malformed requests derived from both OpenAPI documents, for every operation (MCP's JSON-RPC
 * routes aside), as the administrator. Fails on any 5xx and any error body that is not
 * application/problem+json. A few requests per operation here; `npm run fuzz` sends many more
 * (FUZZ_RUNS per operation, FUZZ_SEED to replay).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 4);
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // a record to name, so that requests get past the 404s (lists of every module feed the known ids)
  await t.createCompany("Fuzz SL", "B12345674");
});
afterAll(async () => {
  await t?.close();
});

const login = async () => (await t.login(TEST_ADMIN.email, TEST_ADMIN.password)).access_token;

describe("fuzzing every operation of the OpenAPI documents", () => {
  it.each(["/api/v1/openapi.json", "/api/openapi.json"])(
    "%s: no 5xx, every error a problem+json",
    async (url) => {
      const spec = (await t.app.inject({ method: "GET", url })).json();
      const { findings, requests, operations } = await fuzzDocument(t, spec, {
        runs: RUNS,
        seed: SEED,
        login,
      });
      expect(operations).toBeGreaterThan(10);
      expect(requests).toBeGreaterThanOrEqual(operations * RUNS);
      expect(findings, JSON.stringify(findings.slice(0, 20), null, 2)).toEqual([]);
    },
    Math.max(120_000, RUNS * 60_000),
  );
});
