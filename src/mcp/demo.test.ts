import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/helpers/app.js";
import { demoDatabase } from "../../test/helpers/demo.js";
import { createApiToken, sseClient, streamableClient, structured } from "./test-support.js";

let t: TestApp;
let base: string;
let clients: Record<string, Client>;

beforeAll(async () => {
  // The whole demo, loaded once in the run for this file and test/e2e/demo (ADR 039).
  t = await createTestApp({}, { database: (await demoDatabase()).database });
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
  const { token } = await createApiToken(t, ["mcp"]);
  clients = {
    "Streamable HTTP": await streamableClient(base, token),
    SSE: (await sseClient(base, token)).client,
  };
}, 400_000);
afterAll(async () => {
  for (const client of Object.values(clients ?? {})) await client.close();
  await t?.close();
});

const rest = async (url: string) => {
  const res = await t.as(t.adminToken, { method: "GET", url });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json();
};

type Page = { items: Record<string, unknown>[]; total: number; limit: number; offset: number };

describe.each(["Streamable HTTP", "SSE"])("the demo books over %s agree with the REST API", (transport) => {
  const call = async <T = Page>(name: string, args: Record<string, unknown> = {}) =>
    structured<T>(await clients[transport].callTool({ name, arguments: args }));

  it("contacts", async () => {
    const page = await call("list_contacts", { limit: 20, offset: 5 });
    const same = await rest("/api/clients?limit=20&skip=5");
    expect(page).toEqual({ items: same.data, total: same.total, limit: 20, offset: 5 });
    expect(page.total).toBeGreaterThan(0);
    const first = page.items[0] as { id: string };
    expect(await call("get_contact", { contact_id: first.id })).toEqual(
      await rest(`/api/clients/${first.id}`),
    );
  });

  it("products", async () => {
    const page = await call("list_products", { limit: 200 });
    const same = await rest("/api/products?limit=200");
    expect(page.items).toEqual(same.data);
    expect(page.total).toBeGreaterThan(0);
    const first = page.items[0] as { id: string; reference: string };
    const byReference = await call("get_product", { reference: first.reference });
    expect(byReference).toEqual(await rest(`/api/products/${first.id}`));
  });

  it("chart of accounts and every group, subgroup and account balance, to the cent", async () => {
    const accounts = await call("list_accounts", { fiscal_year_code: "2026", limit: 30 });
    expect(accounts.items).toEqual(
      (await rest("/api/accounting/accounts?fiscal_year_code=2026&limit=30")).data,
    );
    const report = await rest("/api/accounting/balances?fiscal_year_code=2026");
    const rows = [...report.groups, ...report.subgroups, ...report.accounts] as {
      code: string;
      debit: string;
      credit: string;
      balance: string;
    }[];
    expect(rows.length).toBeGreaterThan(5);
    for (const row of rows) {
      const balance = await call<{ debit: string; credit: string; balance: string }>("get_account_balance", {
        account_code: row.code,
        fiscal_year_code: "2026",
      });
      expect({ debit: balance.debit, credit: balance.credit, balance: balance.balance }, row.code).toEqual({
        debit: row.debit,
        credit: row.credit,
        balance: row.balance,
      });
    }
  });

  it("journal entries with their lines", async () => {
    const page = await call<{
      items: (Record<string, unknown> & { id: string; lines: unknown[] })[];
      total: number;
    }>("list_journal_entries", { fiscal_year_code: "2026", limit: 10, offset: 100 });
    const same = await rest("/api/accounting/entries?fiscal_year_code=2026&limit=10&skip=100");
    expect(page.total).toBe(same.total);
    expect(page.items.map(({ lines, ...summary }) => summary)).toEqual(same.data);
    for (const entry of page.items.slice(0, 3)) {
      expect(entry).toEqual(await rest(`/api/accounting/entries/${entry.id}`));
    }
  });
});
