import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/helpers/app.js";
import { insertBudget, insertItem } from "../modules/projects/test-support.js";
import { readOnly, sqlState } from "../platform/db/sql.js";
import {
  type Books,
  createApiToken,
  errorText,
  seedBooks,
  snapshotTables,
  streamableClient,
  structured,
} from "./test-support.js";

let t: TestApp;
let books: Books;
let base: string;
let client: Client;
let invoiceId: string;
let purchaseInvoiceId: string;

let budgetId: string;
let certificationId: string;

const TOOL_NAMES = [
  "get_account_balance",
  "get_budget",
  "get_cash_flow",
  "get_certification",
  "get_contact",
  "get_invoice",
  "get_product",
  "get_purchase_invoice",
  "get_vat_return",
  "list_accounts",
  "list_bank_movements",
  "list_budgets",
  "list_certifications",
  "list_companies",
  "list_contacts",
  "list_fiscal_years",
  "list_invoices",
  "list_journal_entries",
  "list_products",
  "list_purchase_invoices",
  "list_vat_book_entries",
];

beforeAll(async () => {
  t = await createTestApp();
  books = await seedBooks(t);
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
  const draft = (url: string, contact: Record<string, string>) =>
    t.as(t.adminToken, {
      method: "POST",
      url,
      payload: {
        company_id: books.companyId,
        ...contact,
        lines: [{ description: "Hormigon", quantity: "1", unit_price: "85.50", tax_code: "IVA21" }],
      },
    });
  invoiceId = (await draft("/api/sales/invoices", { client_id: books.customer.id })).json().id;
  purchaseInvoiceId = (
    await draft("/api/purchases/invoices", { supplier_id: books.supplier.id, supplier_number: "F-1" })
  ).json().id;
  const budget = await insertBudget(t.db, { companyId: books.companyId });
  const item = await insertItem(t.db, budget.id, { code: "01", quantity: "2", unitPrice: "10" });
  budgetId = budget.id;
  const certification = await t.as(t.adminToken, {
    method: "POST",
    url: "/api/v1/certifications",
    payload: {
      budget_id: budgetId,
      period_start: "2026-03-01",
      period_end: "2026-03-31",
      lines: [{ budget_item_id: item.id, quantity_to_origin: "1" }],
    },
  });
  certificationId = certification.json().id;
  const { token } = await createApiToken(t, ["mcp"]);
  client = await streamableClient(base, token);
});
afterAll(async () => {
  await client?.close();
  await t?.close();
});

const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args });
const rest = async (url: string) => {
  const res = await t.as(t.adminToken, { method: "GET", url });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe("tools/list", () => {
  it("lists every read-only tool with titles, described and bounded inputs, and output schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOL_NAMES);
    for (const tool of tools) {
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.description?.length, tool.name).toBeGreaterThan(40);
      expect(tool.annotations).toEqual({
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      });
      expect(tool.outputSchema?.type, tool.name).toBe("object");
      const properties = tool.inputSchema.properties as Record<string, Record<string, unknown>>;
      for (const [name, schema] of Object.entries(properties)) {
        expect(schema.description, `${tool.name}.${name}`).toBeTruthy();
      }
      if (properties.limit) {
        expect(properties.limit).toMatchObject({ default: 50, minimum: 1, maximum: 200 });
        expect(properties.offset).toMatchObject({ default: 0, minimum: 0 });
      }
    }
    const entries = tools.find((tool) => tool.name === "list_journal_entries")!;
    const dateFrom = (entries.inputSchema.properties as Record<string, { format?: string; pattern?: string }>)
      .date_from;
    expect(dateFrom.format ?? dateFrom.pattern).toBeTruthy();
    const listContacts = tools.find((tool) => tool.name === "list_contacts")!;
    expect(Object.keys(listContacts.inputSchema.properties ?? {}).sort()).toEqual(
      ["contact_type", "is_active", "limit", "offset", "search"].sort(),
    );
    expect(Object.keys(listContacts.outputSchema?.properties ?? {}).sort()).toEqual([
      "items",
      "limit",
      "offset",
      "total",
    ]);
  });
});

describe("contacts", () => {
  it("list_contacts pages full records, the same page as GET /api/clients", async () => {
    const page = structured<{ items: { id: string; name: string }[]; total: number }>(
      await call("list_contacts", { limit: 2, offset: 0 }),
    );
    const same = await rest("/api/clients?limit=2&skip=0");
    expect(page).toEqual({ items: same.data, total: same.total, limit: 2, offset: 0 });
    expect(page.total).toBe(3);
    const next = structured<{ items: unknown[] }>(await call("list_contacts", { limit: 2, offset: 2 }));
    expect(next.items).toHaveLength(1);
  });

  it("list_contacts filters by type and search", async () => {
    const suppliers = structured<{ items: { name: string }[] }>(
      await call("list_contacts", { contact_type: "supplier" }),
    );
    expect(suppliers.items.map((c) => c.name)).toEqual(["Ferreteria Sur"]);
    const found = structured<{ items: { id: string }[] }>(await call("list_contacts", { search: "norte" }));
    expect(found.items.map((c) => c.id)).toEqual([books.customer.id]);
  });

  it("get_contact returns the record; an unknown id says what to do", async () => {
    const contact = structured(await call("get_contact", { contact_id: books.customer.id }));
    expect(contact).toEqual(await rest(`/api/clients/${books.customer.id}`));
    expect(contact).toMatchObject({ legal_name: "Construcciones Norte SL", city: "Bilbao" });
    const missing = errorText(
      await call("get_contact", { contact_id: "01900000-0000-7000-8000-000000000000" }),
    );
    expect(missing).toMatch(/Contact not found.*list_contacts/);
    expect(errorText(await call("get_contact", { contact_id: "42" }))).toMatch(/contact_id must be a UUID/);
  });
});

describe("products", () => {
  it("list_products and get_product by id or reference", async () => {
    const page = structured<{ items: { reference: string }[]; total: number }>(
      await call("list_products", { search: "horm" }),
    );
    expect(page.items.map((p) => p.reference)).toEqual(["HORM-25"]);
    const all = structured(await call("list_products", {}));
    const same = await rest("/api/products");
    expect(all).toEqual({ items: same.data, total: same.total, limit: 50, offset: 0 });
    const byId = structured(await call("get_product", { product_id: books.product.id }));
    expect(byId).toMatchObject({ reference: "HORM-25", sale_price: "85.50", cost_price: "60.00" });
    expect(structured(await call("get_product", { reference: "HORM-25" }))).toEqual(byId);
    expect(errorText(await call("get_product", {}))).toMatch(/exactly one of product_id and reference/);
    expect(errorText(await call("get_product", { reference: "NOPE" }))).toMatch(/not found.*list_products/);
  });
});

describe("ledger", () => {
  it("list_accounts reads the year's chart of accounts", async () => {
    const page = structured<{ items: { code: string; fiscal_year_code: string }[]; total: number }>(
      await call("list_accounts", { fiscal_year_code: "2026", company_id: books.companyId, limit: 200 }),
    );
    expect(page.total).toBeGreaterThan(200);
    expect(page.items).toHaveLength(200);
    expect(page.items[0]).toMatchObject({ code: "1", fiscal_year_code: "2026" });
    const same = await rest(
      `/api/accounting/accounts?company_id=${books.companyId}&fiscal_year_code=2026&limit=5`,
    );
    const five = structured<{ items: unknown[] }>(
      await call("list_accounts", { fiscal_year_code: "2026", company_id: books.companyId, limit: 5 }),
    );
    expect(five.items).toEqual(same.data);
  });

  it("get_account_balance agrees with GET /api/accounting/balances to the cent", async () => {
    const report = await rest(`/api/accounting/balances?company_id=${books.companyId}&fiscal_year_code=2026`);
    for (const code of ["5", "57", "572", books.codes.bank, "7", "477"]) {
      const balance = structured<{ debit: string; credit: string; balance: string }>(
        await call("get_account_balance", {
          account_code: code,
          fiscal_year_code: "2026",
          company_id: books.companyId,
        }),
      );
      const level =
        code.length === 1
          ? "groups"
          : code.length === 2
            ? "subgroups"
            : code.length === 3
              ? "accounts"
              : "subaccounts";
      const row = report[level].find((r: { code: string }) => r.code === code);
      expect({ debit: balance.debit, credit: balance.credit, balance: balance.balance }, code).toEqual({
        debit: row.debit,
        credit: row.credit,
        balance: row.balance,
      });
    }
    const bank = structured(
      await call("get_account_balance", {
        account_code: books.codes.bank,
        fiscal_year_code: "2026",
        company_id: books.companyId,
      }),
    );
    expect(bank).toMatchObject({
      debit: "1210.00",
      credit: "500.25",
      balance: "709.75",
      fiscal_year_code: "2026",
    });
  });

  it("get_account_balance explains unknown codes, years and a missing company", async () => {
    const args = { fiscal_year_code: "2026", company_id: books.companyId };
    expect(errorText(await call("get_account_balance", { ...args, account_code: "9999999" }))).toMatch(
      /not found.*list_accounts/,
    );
    expect(errorText(await call("get_account_balance", { ...args, account_code: "57x" }))).toMatch(
      /account_code must be 1 to 15 digits/,
    );
    expect(
      errorText(
        await call("get_account_balance", {
          account_code: "572",
          fiscal_year_code: "1999",
          company_id: books.companyId,
        }),
      ),
    ).toMatch(/Fiscal year 1999 not found/);
    expect(
      errorText(await call("get_account_balance", { account_code: "572", fiscal_year_code: "2026" })),
    ).toMatch(/company_id is required/);
  });

  it("list_journal_entries returns entries with their lines, filtered by dates", async () => {
    const page = structured<{
      items: { concept: string; total: string; lines: { debit: string }[] }[];
      total: number;
    }>(await call("list_journal_entries", { company_id: books.companyId, fiscal_year_code: "2026" }));
    expect(page.total).toBe(2);
    expect(page.items.map((e) => e.concept)).toEqual(["Compra de arena", "Venta de hormigon"]);
    expect(page.items[1].total).toBe("1210.00");
    expect(page.items[1].lines).toHaveLength(3);
    const march = structured<{ items: { concept: string }[] }>(
      await call("list_journal_entries", { date_from: "2026-03-01", date_to: "2026-03-31" }),
    );
    expect(march.items.map((e) => e.concept)).toEqual(["Venta de hormigon"]);
    const rest2 = await rest(`/api/accounting/entries?company_id=${books.companyId}&fiscal_year_code=2026`);
    expect(page.items.map(({ lines, ...summary }) => summary)).toEqual(rest2.data);
    expect(
      errorText(await call("list_journal_entries", { date_from: "2026-04-01", date_to: "2026-03-01" })),
    ).toMatch(/date_from is after date_to/);
    expect(errorText(await call("list_journal_entries", { date_from: "01/03/2026" }))).toMatch(/YYYY-MM-DD/);
  });
});

describe("arguments", () => {
  it("refuses out-of-bounds pages and unknown arguments with a message saying what to do", async () => {
    expect(errorText(await call("list_contacts", { limit: 201 }))).toMatch(/limit is at most 200/);
    expect(errorText(await call("list_contacts", { limit: 0 }))).toMatch(/limit must be at least 1/);
    expect(errorText(await call("list_products", { offset: -1 }))).toMatch(/offset must be 0 or more/);
    expect(errorText(await call("list_contacts", { page: 2 }))).toMatch(/page/);
    expect(errorText(await call("list_contacts", { contact_type: "client" }))).toMatch(
      /customer, supplier or both/,
    );
    for (const text of [errorText(await call("list_contacts", { limit: "x" }))])
      expect(text).not.toMatch(/\n\s+at /);
  });
});

describe("no tool writes", () => {
  it("every registered tool leaves every table unchanged", async () => {
    const { tools } = await client.listTools();
    const args: Record<string, Record<string, unknown>> = {
      list_contacts: {},
      get_contact: { contact_id: books.customer.id },
      list_products: {},
      get_product: { reference: "HORM-25" },
      list_accounts: { fiscal_year_code: "2026", company_id: books.companyId },
      get_account_balance: { account_code: "572", fiscal_year_code: "2026", company_id: books.companyId },
      list_journal_entries: { company_id: books.companyId },
      list_invoices: {},
      get_invoice: { invoice_id: invoiceId },
      list_purchase_invoices: {},
      get_purchase_invoice: { invoice_id: purchaseInvoiceId },
      get_vat_return: { year: 2026, period: "1T", company_id: books.companyId },
      list_vat_book_entries: { book: "issued", company_id: books.companyId },
      get_cash_flow: { company_id: books.companyId },
      list_bank_movements: {},
      list_budgets: {},
      get_budget: { budget_id: budgetId },
      list_certifications: {},
      get_certification: { certification_id: certificationId },
      list_companies: {},
      list_fiscal_years: {},
    };
    expect(Object.keys(args).sort()).toEqual(tools.map((tool) => tool.name).sort());
    const before = await snapshotTables(t.db);
    expect(Object.keys(before).length).toBeGreaterThan(10);
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
      expect(tool.annotations?.destructiveHint, tool.name).toBe(false);
      structured(await call(tool.name, args[tool.name]));
      expect(await snapshotTables(t.db), tool.name).toEqual(before);
    }
  }, 120_000); // every tool, each followed by a snapshot of every table

  it("runs the tools read-only (src/platform/db/read-only.test.ts): a write fails in the database itself", async () => {
    const write = readOnly(t.database.handle, (db) =>
      db.execute(sql`update contacts set name = 'hacked' where id = ${books.customer.id}`),
    );
    await expect(write).rejects.toSatisfy((err) => sqlState(err) === "25006");
    expect(structured(await call("get_contact", { contact_id: books.customer.id }))).toMatchObject({
      name: "Construcciones Norte",
    });
  });
});
