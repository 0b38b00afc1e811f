import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/helpers/app.js";
import { createCompany, createFiscalYear } from "../modules/accounting/test-support.js";
import { documentsFixture, draftReturn, issuedSalesInvoice, line } from "../modules/tax/test-support.js";
import { createApiToken, errorText, outOfScope, streamableClient, structured } from "./test-support.js";

/** get_vat_return and list_vat_book_entries over MCP: scope mcp:tax, company restriction, errors. */

let t: TestApp;
let fx: Awaited<ReturnType<typeof documentsFixture>>;
let base: string;
let client: Client;

beforeAll(async () => {
  t = await createTestApp();
  fx = await documentsFixture(t);
  await issuedSalesInvoice(t, fx.companyId, fx.customer.id, [line("1", "1000", "IVA21")], "2026-02-10");
  await issuedSalesInvoice(t, fx.companyId, fx.customer.id, [line("1", "500", "IVA10")], "2026-05-10");
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
  const { token } = await createApiToken(t, ["mcp:tax"]);
  client = await streamableClient(base, token);
});
afterAll(async () => {
  await client?.close();
  await t?.close();
});

const call = (c: Client, name: string, args: Record<string, unknown> = {}) =>
  c.callTool({ name, arguments: args });

describe("get_vat_return", () => {
  it("computes a draft 303 on the fly with labelled boxes and the result in words", async () => {
    const r = structured<{
      stored: boolean;
      result: string;
      outcome: string;
      boxes: Array<{ box: string; label: string; value: string }>;
    }>(await call(client, "get_vat_return", { year: 2026, period: "1T", company_id: fx.companyId }));
    expect(r.stored).toBe(false);
    expect(r.result).toBe("210.00");
    expect(r.outcome).toBe("210.00 EUR to pay");
    expect(r.boxes.find((b) => b.box === "07")).toEqual({
      box: "07",
      label: "Régimen general 21 %: base imponible",
      value: "1000.00",
      section: "accrued",
      unit: "euros",
      manual: false,
      formula: false,
    });
  });

  it("returns the stored return once it exists, the same boxes as REST", async () => {
    const stored = await draftReturn(t, fx.companyId, "303", "2T");
    const r = structured<{ id: string; stored: boolean; result: string }>(
      await call(client, "get_vat_return", {
        year: 2026,
        period: "2T",
        model: "303",
        company_id: fx.companyId,
      }),
    );
    expect(r).toMatchObject({ id: stored.id, stored: true, result: stored.result });
  });

  it("says what is wrong with a bad period", async () => {
    expect(errorText(await call(client, "get_vat_return", { year: 2026, period: "5T" }))).toMatch(
      /period must be 1T-4T/,
    );
  });
});

describe("list_vat_book_entries", () => {
  it("pages the issued book like GET /api/tax/vat-books/issued", async () => {
    const page = structured<{ items: Array<{ base: string }>; total: number }>(
      await call(client, "list_vat_book_entries", { book: "issued", company_id: fx.companyId, limit: 1 }),
    );
    const rest = (
      await t.as(t.adminToken, {
        method: "GET",
        url: `/api/tax/vat-books/issued?company_id=${fx.companyId}&limit=1`,
      })
    ).json();
    expect(page).toEqual({ items: rest.data, total: 2, limit: 1, offset: 0 });
    const q2 = structured<{ items: Array<{ base: string }> }>(
      await call(client, "list_vat_book_entries", {
        book: "issued",
        date_from: "2026-04-01",
        date_to: "2026-06-30",
        company_id: fx.companyId,
      }),
    );
    expect(q2.items.map((i) => i.base)).toEqual(["500.00"]);
  });
});

describe("access", () => {
  it("needs the mcp:tax scope, and a company-restricted token sees only its company", async () => {
    const { token } = await createApiToken(t, ["mcp:accounting"]);
    const accountingOnly = await streamableClient(base, token);
    try {
      await expect(call(accountingOnly, "get_vat_return", { year: 2026, period: "1T" })).rejects.toThrow(
        outOfScope("mcp:tax"),
      );
    } finally {
      await accountingOnly.close();
    }
    const other = await createCompany(t, { name: "Otra" });
    await createFiscalYear(t, other, "2026");
    const restricted = await createApiToken(t, ["mcp:tax"], { companyId: other });
    const c = await streamableClient(base, restricted.token);
    try {
      const res = await call(c, "get_vat_return", { year: 2026, period: "1T", company_id: fx.companyId });
      expect(errorText(res)).toMatch(/Company not found/);
      const own = structured<{ result: string }>(
        await call(c, "get_vat_return", { year: 2026, period: "1T" }),
      );
      expect(own.result).toBe("0.00");
      const book = await call(c, "list_vat_book_entries", { book: "issued", company_id: fx.companyId });
      expect(errorText(book)).toMatch(/Company not found/);
    } finally {
      await c.close();
    }
  });
});
