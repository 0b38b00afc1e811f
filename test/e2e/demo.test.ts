import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadDemo } from "../../src/cli/demo.js";
import { queryOne } from "../../src/platform/db/sql.js";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { TEST_ADMIN } from "../helpers/constants.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const count = async (table: string) =>
  Number((await queryOne<{ n: string }>(t.db, sql.raw(`select count(*) as n from ${table}`)))?.n);

describe("npm run cli -- demo", () => {
  it("loads the project and enterprise demos once, with balanced books and a live summary", async () => {
    const first = await loadDemo(t.db, TEST_ADMIN.email);
    expect(first.budget.created).toBe(true);
    expect(first.company.created).toBe(true);
    expect(first.entriesCreated).toBe(500);
    expect(first.sales).toEqual({ created: true, invoices: 200 });
    expect(first.purchases).toEqual({ created: true, invoices: 120 });
    expect(first.treasury).toEqual({ created: true, bankAccounts: 2, budgetLines: 6, payments: 27 });

    const second = await loadDemo(t.db, TEST_ADMIN.email);
    expect(second.budget.created).toBe(false);
    expect(second.company.created).toBe(false);
    expect(second.entriesCreated).toBe(0);
    expect(second.sales).toEqual({ created: false, invoices: 0 });
    expect(second.purchases).toEqual({ created: false, invoices: 0 });
    expect(second.treasury).toEqual({ created: false, bankAccounts: 0, budgetLines: 0, payments: 0 });

    // VeriFactu is on: every issued sales invoice has its record, and the chain verifies.
    const issuedSales = Number(
      (
        await queryOne<{ n: string }>(
          t.db,
          sql`select count(*) as n from documents where direction = 'sale' and kind = 'invoice' and estado = 'emitida'`,
        )
      )?.n,
    );
    expect(await count("verifactu_records")).toBe(issuedSales);
    const verified = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/verifactu/verify?company_id=${first.company.companyId}`,
    });
    expect(verified.json()).toMatchObject({ ok: true, records: { checked: issuedSales } });

    expect(await count("budgets")).toBe(1);
    expect(await count("companies")).toBe(1);
    expect(await count("contacts")).toBe(50);
    expect(await count("products")).toBe(100);
    // 500 ledger entries, one per issued sales invoice (200), per approved supplier invoice (110) and
    // per payment: 27 by the treasury demo, the rest by the bank statement's auto-match.
    const payments = await count("treasury_payments");
    expect(payments).toBeGreaterThan(27);
    expect(await count("entries")).toBe(810 + payments);
    const books = await queryOne<{ debit: string; credit: string }>(
      t.db,
      sql`select sum(debit)::text as debit, sum(credit)::text as credit from entry_lines`,
    );
    expect(books?.debit).toBe(books?.credit);

    const budget = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/v1/budgets/${first.budget.budgetId}`,
    });
    expect(budget.statusCode).toBe(200);
    const summary = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/v1/accounting/summary?budget_id=${first.budget.budgetId}`,
    });
    expect(summary.statusCode).toBe(200);
    expect(summary.json().totals.budgeted).toBe(budget.json().pem);

    const companyId = first.company.companyId;
    const sales = await documentCounts(companyId, "sales");
    expect(sales).toMatchObject({ estimates: 3, orders: 2, "delivery-notes": 2 });
    expect(sales.invoices).toEqual({ emitida: 200 });
    const purchases = await documentCounts(companyId, "purchases");
    expect(purchases).toMatchObject({ estimates: 2, orders: 3, "delivery-notes": 3 });
    expect(purchases.invoices).toEqual({ aprobada: 110, pendiente: 9, rechazada: 1 });

    const year = new Date().getUTCFullYear();
    const report = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/sales/reports/modelo-347?year=${year}&company_id=${companyId}`,
    });
    expect(report.statusCode, report.body).toBe(200);
    const parties = report.json().parties as { key: string; name: string; annual_amount: string }[];
    const keyB = parties.filter((p) => p.key === "B");
    const keyA = parties.filter((p) => p.key === "A");
    expect(keyB.length).toBeGreaterThanOrEqual(5);
    expect(keyA.length).toBeGreaterThanOrEqual(3);
    for (const p of parties) expect(Number(p.annual_amount), p.name).toBeGreaterThan(3005.06);
    // The professional's invoice carries IRPF: the company reports it in modelo 190, not 347.
    const professional = await queryOne<{ contact_id: string }>(
      t.db,
      sql`select distinct d.contact_id from documents d join document_taxes x on x.document_id = d.id
           where d.direction = 'purchase' and x.kind = 'irpf'`,
    );
    expect(professional).toBeDefined();
    expect(
      parties.some(
        (p) => p.key === "A" && (p as { contact_id?: string }).contact_id === professional?.contact_id,
      ),
    ).toBe(false);

    // Treasury: two banks, the budget lines and a quarter of cash flow by week.
    const flow = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/treasury/cash-flow?company_id=${companyId}`,
    });
    expect(flow.statusCode, flow.body).toBe(200);
    const cash = flow.json() as {
      bank_balances: { name: string }[];
      buckets: { outflows: { forecast: string } }[];
      overdue: { receivables_count: number };
    };
    expect(cash.bank_balances.map((b) => b.name)).toEqual(["Banco Santander c/c", "CaixaBank c/c"]);
    expect(cash.buckets.length).toBeGreaterThanOrEqual(13);
    expect(cash.buckets.some((b) => Number(b.outflows.forecast) >= 18500)).toBe(true);
    expect(cash.overdue.receivables_count).toBeGreaterThan(0);
    expect(await count("treasury_budgets")).toBe(6);
  }, 400_000);
});

const KINDS = ["estimates", "orders", "delivery-notes", "invoices"] as const;

/** Per kind: how many documents (invoices: per state) the demo company has. */
async function documentCounts(companyId: string, module: "sales" | "purchases") {
  const out: Record<string, number | Record<string, number>> = {};
  for (const kind of KINDS) {
    const res = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/${module}/${kind}?company_id=${companyId}&limit=10000`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json() as { data: { estado: string }[]; total: number };
    if (kind !== "invoices") out[kind] = page.total;
    else {
      const states: Record<string, number> = {};
      for (const d of page.data) states[d.estado] = (states[d.estado] ?? 0) + 1;
      out[kind] = states;
    }
  }
  return out as Record<(typeof KINDS)[number], number> & { invoices: Record<string, number> };
}
