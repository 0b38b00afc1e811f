import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers/app.js";

/** Every route of the documents engine, sales and purchases is in /api/openapi.json, described. */

let t: TestApp;
let spec: { paths: Record<string, Record<string, Record<string, unknown>>> };
beforeAll(async () => {
  t = await createTestApp();
  spec = (await t.app.inject({ method: "GET", url: "/api/openapi.json" })).json();
});
afterAll(async () => {
  await t?.close();
});

const docRoutes = (base: string) => [
  ["get", base],
  ["post", base],
  ["get", `${base}/{id}`],
  ["patch", `${base}/{id}`],
  ["delete", `${base}/{id}`],
  ["get", `${base}/{id}/pdf`],
];
const commercial = (base: string) => [...docRoutes(base), ["put", `${base}/{id}/estado`]];

const EXPECTED: Array<[string, string]> = [
  ...(["/api/series", "/api/taxes", "/api/payment-terms"].flatMap((base) => [
    ["get", base],
    ["post", base],
    ["get", `${base}/{id}`],
    ["put", `${base}/{id}`],
  ]) as Array<[string, string]>),
  ["get", "/api/document-settings/{company_id}"],
  ["put", "/api/document-settings/{company_id}"],
  ...(["sales", "purchases"].flatMap((m) => [
    ...commercial(`/api/${m}/estimates`),
    ["post", `/api/${m}/estimates/{id}/convert-to-order`],
    ...commercial(`/api/${m}/orders`),
    ["post", `/api/${m}/orders/{id}/convert-to-delivery-note`],
    ["post", `/api/${m}/orders/{id}/convert-to-invoice`],
    ...commercial(`/api/${m}/delivery-notes`),
    ["post", `/api/${m}/delivery-notes/convert-to-invoice`],
    ...docRoutes(`/api/${m}/invoices`),
    ["post", `/api/${m}/invoices/{id}/rectify`],
    ["post", `/api/${m}/invoices/{id}/generate-accounting-entry`],
  ]) as Array<[string, string]>),
  ["post", "/api/sales/invoices/{id}/issue"],
  ["get", "/api/sales/reports/modelo-347"],
  ["post", "/api/purchases/invoices/{id}/approve"],
  ["post", "/api/purchases/invoices/{id}/reject"],
  ["post", "/api/purchases/invoices/{id}/reopen"],
  ["get", "/api/purchases/invoices/{id}/attachments"],
  ["post", "/api/purchases/invoices/{id}/attachments"],
  ["get", "/api/purchases/invoices/{id}/attachments/{attachment_id}"],
  ["delete", "/api/purchases/invoices/{id}/attachments/{attachment_id}"],
];

const PREFIXES = [
  "/api/sales",
  "/api/purchases",
  "/api/series",
  "/api/taxes",
  "/api/payment-terms",
  "/api/document-settings",
];

describe("/api/openapi.json", () => {
  it("lists every sales, purchases and documents configuration route", () => {
    const missing = EXPECTED.filter(([method, path]) => !spec.paths[path]?.[method]).map((r) => r.join(" "));
    expect(missing).toEqual([]);
  });

  it("gives each of them a tag, a summary, a description with its permission, and its error statuses", () => {
    const documented = Object.entries(spec.paths)
      .filter(([path]) => PREFIXES.some((p) => path === p || path.startsWith(`${p}/`)))
      .flatMap(([path, ops]) =>
        Object.entries(ops).map(([method, op]) => ({ route: `${method} ${path}`, op })),
      );
    expect(documented.length).toBeGreaterThanOrEqual(EXPECTED.length);
    for (const { route, op } of documented) {
      expect(op.summary, route).toEqual(expect.any(String));
      expect((op.summary as string).length, route).toBeGreaterThan(10);
      expect(op.description, route).toMatch(
        /(sales|purchases|companies|accounting):[a-z]+|signed-in|authenticated/i,
      );
      expect((op.tags as string[]).length, route).toBeGreaterThan(0);
      expect(Object.keys(op.responses as object), route).toEqual(
        expect.arrayContaining(["400", "401", "403"]),
      );
    }
  });
});
