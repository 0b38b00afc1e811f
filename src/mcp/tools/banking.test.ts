import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers/app.js";
import {
  bankingFixture,
  createBankAccount,
  expectStatus,
  importFile,
  listMovements,
  norma43For,
  spanishIban,
} from "../../modules/banking/test-support.js";
import { line } from "../../modules/documents/test-support.js";
import { issuedSalesInvoice } from "../../modules/treasury/test-support.js";
import { createApiToken, errorText, outOfScope, streamableClient, structured } from "../test-support.js";

let t: TestApp;
let base: string;
let client: Client;
let a: Awaited<ReturnType<typeof bankingFixture>>;
let b: Awaited<ReturnType<typeof bankingFixture>>;
let invoiceCode: string;

type Page = {
  items: Array<{
    id: string;
    company_id: string;
    amount: string;
    status: string;
    suggestions: Array<{ document_code: string; score: number; reasons: Array<{ code: string }> }>;
    reconciliation: { target: string; entry_id: string } | null;
  }>;
  total: number;
};

beforeAll(async () => {
  t = await createTestApp();
  a = await bankingFixture(t);
  b = await bankingFixture(t);
  const invoice = await issuedSalesInvoice(t, a.companyId, a.customer.id, [line("1", "100")], "2026-03-10");
  invoiceCode = invoice.code;
  const dueDate = (invoice.dues as Array<{ due_date: string }>)[0]!.due_date;
  expectStatus(
    await importFile(
      t,
      a.bank.id,
      norma43For(a.bank.iban, [
        {
          operationDate: dueDate,
          amount: "121.00",
          concepts: [`TRANSF ${invoice.code}`, a.customer.tax_id!],
        },
        { operationDate: "2026-03-01", amount: "-4.00", concepts: ["COMISION"] },
        { operationDate: "2026-06-20", amount: "-9.00", concepts: ["OTRA"] },
      ]),
    ),
    201,
    "import A",
  );
  const bankB = await createBankAccount(t, b.companyId, {
    name: "B",
    iban: spanishIban("2100", "0002", "0400000001"),
  });
  expectStatus(
    await importFile(t, bankB.id, norma43For(bankB.iban, [{ operationDate: "2026-03-11", amount: "7.00" }])),
    201,
    "import B",
  );
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
  client = await streamableClient(base, (await createApiToken(t, ["mcp:banking"])).token);
});
afterAll(async () => {
  await client?.close();
  await t?.close();
});

const call = (c: Client, args: Record<string, unknown> = {}) =>
  c.callTool({ name: "list_bank_movements", arguments: args });

describe("list_bank_movements", () => {
  it("pages the movements with their suggestions, the same as GET /api/bank-reconciliation/movements", async () => {
    const page = structured<Page>(await call(client, { company_id: a.companyId, limit: 2 }));
    expect(page.total).toBe(3);
    expect(page.items.map((m) => m.amount)).toEqual(["-4.00", "121.00"]);
    const rest = await listMovements(t, `&company_id=${a.companyId}`);
    expect(page.items).toEqual(rest.data.slice(0, 2));
    const paid = page.items[1];
    expect(paid!.status).toBe("sugerido");
    expect(paid!.suggestions[0]).toMatchObject({ document_code: invoiceCode, score: 100 });
    expect(paid!.suggestions[0]!.reasons.map((r) => r.code)).toEqual([
      "amount_exact",
      "reference",
      "tax_id",
      "due_date",
    ]);
  });

  it("filters by status and dates, and shows a reconciled movement's match", async () => {
    const open = structured<Page>(await call(client, { company_id: a.companyId, status: "sugerido" }));
    expect(open.items).toHaveLength(1);
    expectStatus(
      await t.as(t.adminToken, {
        method: "POST",
        url: "/api/bank-reconciliation/auto-match",
        payload: { company_id: a.companyId },
      }),
      200,
      "auto-match",
    );
    const done = structured<Page>(await call(client, { company_id: a.companyId, status: "conciliado" }));
    expect(done.items).toHaveLength(1);
    expect(done.items[0]!.reconciliation).toMatchObject({ target: "receipt" });
    const june = structured<Page>(
      await call(client, { company_id: a.companyId, date_from: "2026-06-01", date_to: "2026-06-30" }),
    );
    expect(june.items.map((m) => m.amount)).toEqual(["-9.00"]);
    expect(errorText(await call(client, { date_from: "2026-05-01", date_to: "2026-04-01" }))).toMatch(
      /date_from is after date_to/,
    );
    expect(errorText(await call(client, { status: "pagado" }))).toMatch(/status must be one of/);
  });

  it("a token restricted to a company sees only that company; other scopes cannot call it", async () => {
    const restricted = await streamableClient(
      base,
      (await createApiToken(t, ["mcp:banking"], { companyId: b.companyId })).token,
    );
    const mine = structured<Page>(await call(restricted));
    expect(mine.items.map((m) => [m.company_id, m.amount])).toEqual([[b.companyId, "7.00"]]);
    expect(structured<Page>(await call(restricted, { company_id: a.companyId })).total).toBe(0);
    await restricted.close();
    const contactsOnly = await streamableClient(base, (await createApiToken(t, ["mcp:contacts"])).token);
    await expect(call(contactsOnly)).rejects.toThrow(outOfScope("mcp:banking"));
    await contactsOnly.close();
  });
});
