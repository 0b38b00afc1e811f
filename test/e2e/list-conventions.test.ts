import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCompany } from "../../src/modules/accounting/test-support.js";
import { createTestApp, type TestApp } from "../helpers/app.js";

/**
 * Every list route of /api (a GET whose query takes `limit`) follows one convention:
 * {data, total, skip, limit}, skip default 0, limit default 50, maximum 10000; a bounded list
 * (total exact up to 10,000 rows) adds total_is_estimate.
 * Routes are discovered from the OpenAPI document, so a new module can't drift.
 */
let t: TestApp;
interface Param {
  name: string;
  in: string;
  required?: boolean;
}
interface Schema {
  properties?: Record<string, unknown>;
  required?: string[];
  anyOf?: Schema[];
}

interface Operation {
  parameters?: Param[];
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}
let lists: { path: string; op: Operation }[] = [];

/** The page schema of a list (a list that also exports files declares the page as its first form). */
function pageSchema(op: Operation): Schema | undefined {
  const declared = op.responses["200"]?.content?.["application/json"]?.schema;
  return declared?.anyOf?.[0] ?? declared;
}
const queryNames = (op: Operation) =>
  (op.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name);

/** Lists that count exactly up to 10,000 rows and page by keyset (issue 21, ADR 014). */
const BOUNDED_LISTS = [
  "/api/accounting/entries",
  "/api/sales/estimates",
  "/api/sales/orders",
  "/api/sales/delivery-notes",
  "/api/sales/invoices",
  "/api/purchases/estimates",
  "/api/purchases/orders",
  "/api/purchases/delivery-notes",
  "/api/purchases/invoices",
  "/api/treasury/customer-receipts",
  "/api/treasury/supplier-payments",
  "/api/bank-reconciliation/movements",
];

beforeAll(async () => {
  t = await createTestApp();
  // Per-company lists (the tax box map) need the tenant to have a company.
  await createCompany(t);
  const doc = (await t.app.inject({ method: "GET", url: "/api/openapi.json" })).json();
  lists = Object.entries(doc.paths as Record<string, { get?: Operation }>)
    .filter(([, item]) => item.get?.parameters?.some((p) => p.in === "query" && p.name === "limit"))
    .map(([path, item]) => ({ path, op: item.get as Operation }));
});
afterAll(async () => {
  await t?.close();
});

describe("/api list conventions", () => {
  it("finds the list routes", () => {
    expect(lists.map((l) => l.path)).toEqual(expect.arrayContaining(["/api/companies", "/api/api-tokens"]));
  });

  it("declares skip, limit, and the {data, total, skip, limit} envelope on every list route", () => {
    for (const { path, op } of lists) {
      expect(queryNames(op), path).toEqual(expect.arrayContaining(["skip", "limit"]));
      const schema = pageSchema(op);
      const keys = Object.keys(schema?.properties ?? {}).filter((k) => k !== "total_is_estimate");
      expect(keys.sort(), path).toEqual(["data", "limit", "skip", "total"]);
    }
  });

  it("applies the defaults and the 10000 maximum on every list route", async () => {
    for (const { path, op } of lists) {
      if (path.includes("{")) continue;
      const required = (op.parameters ?? []).filter((p) => p.in === "query" && p.required);
      const fixed = required.length ? `&${required.map((p) => `${p.name}=x`).join("&")}` : "";
      const tooMany = await t.as(t.adminToken, { method: "GET", url: `${path}?limit=10001${fixed}` });
      expect(tooMany.statusCode, path).toBe(400);
      expect(
        tooMany.json().errors.map((e: { path: string }) => e.path),
        path,
      ).toContain("querystring.limit");
      const negative = await t.as(t.adminToken, { method: "GET", url: `${path}?skip=-1${fixed}` });
      expect(negative.statusCode, path).toBe(400);
      if (required.length) continue;
      const plain = await t.as(t.adminToken, { method: "GET", url: path });
      expect(plain.statusCode, path).toBe(200);
      expect(plain.json(), path).toMatchObject({ skip: 0, limit: 50, total: expect.any(Number) });
      expect(Array.isArray(plain.json().data), path).toBe(true);
      const max = await t.as(t.adminToken, { method: "GET", url: `${path}?limit=10000&skip=5` });
      expect(max.statusCode, path).toBe(200);
      expect(max.json(), path).toMatchObject({ skip: 5, limit: 10000 });
    }
  });

  it("bounded lists declare total_is_estimate and after=, answer the flag and refuse a cursor of no row", async () => {
    const bounded = lists.filter(({ op }) => pageSchema(op)?.properties?.total_is_estimate);
    expect(bounded.map((l) => l.path).sort()).toEqual(expect.arrayContaining([...BOUNDED_LISTS].sort()));
    for (const { path, op } of bounded) {
      expect(pageSchema(op)?.required, path).toEqual(expect.arrayContaining(["total", "total_is_estimate"]));
      expect(queryNames(op), path).toContain("after");
    }
    for (const { path, op } of lists.filter((l) => queryNames(l.op).includes("after"))) {
      expect(pageSchema(op)?.properties, path).toHaveProperty("total_is_estimate");
      if (path.includes("{") || (op.parameters ?? []).some((p) => p.in === "query" && p.required)) continue;
      const page = await t.as(t.adminToken, { method: "GET", url: path });
      expect(page.json(), path).toMatchObject({ total: 0, total_is_estimate: false });
      const nowhere = await t.as(t.adminToken, {
        method: "GET",
        url: `${path}?after=00000000-0000-7000-8000-000000000000`,
      });
      expect(nowhere.statusCode, path).toBe(400);
      expect(nowhere.json().errors, path).toEqual([expect.objectContaining({ path: "after" })]);
    }
  });
});
