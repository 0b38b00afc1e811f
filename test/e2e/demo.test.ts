import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DemoResult, loadDemo } from "../../src/cli/demo.js";
import { queryOne } from "../../src/platform/db/sql.js";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { TEST_ADMIN } from "../helpers/constants.js";
import { demoDatabase } from "../helpers/demo.js";

let t: TestApp;
/** What the run's one `loadDemo` on the suite's template returned (this file's or `mcp/demo`'s, ADR 039). */
let first: DemoResult;
beforeAll(async () => {
  const demo = await demoDatabase();
  first = demo.loaded;
  t = await createTestApp({}, { database: demo.database });
}, 400_000);
afterAll(async () => {
  await t?.close();
});

const count = async (table: string) =>
  Number((await queryOne<{ n: string }>(t.db, sql.raw(`select count(*) as n from ${table}`)))?.n);

describe("npm run cli -- demo", () => {
  it("loads the project and enterprise demos once, with balanced books and a live summary", async () => {
    expect(first.budget.created).toBe(true);
    expect(first.company.created).toBe(true);
    expect(first.entriesCreated).toBe(500);
    expect(first.sales).toEqual({ created: true, invoices: 200 });
    expect(first.purchases).toEqual({ created: true, invoices: 120 });
    expect(first.treasury).toEqual({ created: true, bankAccounts: 2, budgetLines: 6, payments: 27 });
    expect(first.tax).toMatchObject({ created: true, settled: quartersOver() });

    const second = await loadDemo(t.db, TEST_ADMIN.email);
    expect(second.budget.created).toBe(false);
    expect(second.company.created).toBe(false);
    expect(second.entriesCreated).toBe(0);
    expect(second.sales).toEqual({ created: false, invoices: 0 });
    expect(second.purchases).toEqual({ created: false, invoices: 0 });
    expect(second.treasury).toEqual({ created: false, bankAccounts: 0, budgetLines: 0, payments: 0 });
    expect(second.tax).toEqual({ created: false, returns: 0, settled: 0 });

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
    // 500 ledger entries, one per issued sales invoice (200), per approved supplier invoice (110), per
    // payment (27 by the treasury demo, the rest by the bank statement's auto-match) and per VAT
    // settlement (one per quarter over).
    const payments = await count("treasury_payments");
    expect(payments).toBeGreaterThan(27);
    expect(await count("entries")).toBe(810 + payments + quartersOver());
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
    // The professional's invoice carries IRPF (so do the landlord's): the company reports it in modelo
    // 190, not 347.
    const professional = await queryOne<{ contact_id: string }>(
      t.db,
      sql`select distinct d.contact_id from documents d join document_taxes x on x.document_id = d.id
           where d.direction = 'purchase' and x.kind = 'irpf' and d.contact_tax_id ~ '^[0-9]'`,
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

    await expectTaxReturns(companyId, year);
  }, 400_000);
});

/** The quarters of the current year already over: the demo confirms, settles and presents their returns. */
const quartersOver = () => Math.floor(new Date().getUTCMonth() / 3);
/** <T3030...> (17) + AUX (311) + pages 01 (1581), 03 (1017) and DID (823) + </T3030...> (18). */
const FILE_303_LENGTH = 17 + 311 + 1581 + 1017 + 823 + 18;

const get = (url: string) => t.as(t.adminToken, { method: "GET", url });
const cents = (amount: string | null | undefined) => Math.round(Number(amount ?? "0") * 100);

async function expectTaxReturns(companyId: string, year: number) {
  const res = await get(`/api/tax/returns?company_id=${companyId}&year=${year}&limit=100`);
  expect(res.statusCode, res.body).toBe(200);
  const all = res.json().data as TaxReturn[];
  const of = (model: string) =>
    all.filter((r) => r.model === model).sort((a, b) => a.period.localeCompare(b.period));

  // A 303 per quarter begun: those over presented with their settlement entry and file, the current one a draft.
  const q303 = of("303");
  expect(q303.map((r) => r.period)).toEqual(["1T", "2T", "3T", "4T"].slice(0, quartersOver() + 1));
  for (const [i, r] of q303.entries()) {
    const over = i < quartersOver();
    expect(r.estado, r.period).toBe(over ? "presentada" : "borrador");
    const file = await get(`/api/tax/returns/${r.id}/file`);
    expect(file.statusCode, r.period).toBe(over ? 200 : 409);
    if (!over) {
      expect(r.entry_id).toBeNull();
      continue;
    }
    const text = file.rawPayload.toString("latin1");
    expect(text).toHaveLength(FILE_303_LENGTH);
    expect(text.startsWith(`<T3030${year}${r.period}0000>`)).toBe(true);
    // Every invoice's entry holds what its taxes say; the only differences `check` finds are the
    // ledger demo's hand-made invoice entries on 477/472, which no invoice explains.
    const check = (await get(`/api/tax/returns/${r.id}/check`)).json() as Check;
    expect(check.differences.length, r.period).toBeGreaterThan(0);
    for (const d of check.differences) {
      expect(d.document_id).toBeNull();
      expect(d.concept).toMatch(/^Factura (emitida|recibida) F?R?2026-\d{4}$/);
    }
    const ledger = (account: string) => cents(check.totals.find((x) => x.account === account)?.ledger);
    const handMade = check.differences.reduce(
      (acc, d) => acc + (d.account === "477" ? cents(d.posted) : -cents(d.posted)),
      0,
    );
    expect(ledger("477") - ledger("472") - handMade, r.period).toBe(cents(r.boxes["46"]));
    // The settlement entry: the ledger's 477 and 472 reversed, the net to 4750 (to pay) or 4700.
    const entry = (await get(`/api/accounting/entries/${r.entry_id}`)).json() as {
      lines: { subaccount_code: string; debit: string; credit: string }[];
    };
    const counterpart = entry.lines.filter((l) => /^47[05]0/.test(l.subaccount_code));
    const net = counterpart.reduce((acc, l) => acc + cents(l.credit) - cents(l.debit), 0);
    expect(net, r.period).toBe(ledger("477") - ledger("472"));
    expect(counterpart[0].subaccount_code.slice(0, 4)).toBe(r.declaration_type === "I" ? "4750" : "4700");
  }
  // The mini excavator bought in January (capital goods, box 30) leaves the first quarter to compensate...
  const behind30 = (await get(`/api/tax/returns/${q303[0].id}/boxes/30`)).json() as {
    invoices: { amount: string }[];
  };
  expect(behind30.invoices.map((x) => x.amount)).toEqual([q303[0].boxes["30"]]);
  expect(cents(q303[0].boxes["30"])).toBeGreaterThan(0);
  expect(cents(q303[0].result)).toBeLessThan(0);
  expect(q303[0].declaration_type).toBe("C");
  if (q303.length > 1) {
    // ...carried into the second, which applies it.
    expect(cents(q303[1].boxes["110"])).toBe(-cents(q303[0].result));
    expect(cents(q303[1].boxes["78"])).toBeGreaterThan(0);
  }
  // With a whole quarter after it, something is left to pay.
  if (quartersOver() >= 2)
    expect(q303.some((r) => cents(r.result) > 0 && r.declaration_type === "I")).toBe(true);

  // The professional's invoice (3,500 at 15 %) in a 111; the office rent (2,400 at 19 %) in the 115s.
  const m111 = of("111");
  expect(m111).toHaveLength(1);
  expect(m111[0].boxes).toMatchObject({ "07": "1", "08": "3500.00", "09": "525.00", "28": "525.00" });
  const m115 = of("115");
  expect(m115.length).toBeGreaterThan(0);
  for (const r of m115) {
    expect(r.boxes["01"]).toBe("1");
    expect(cents(r.boxes["03"]) % 45600).toBe(0);
  }
  // The German supplier's goods: intra-EU acquisitions (key A) in the 349s.
  const m349 = of("349");
  expect(m349.length).toBeGreaterThan(0);
  for (const r of m349) expect(r.records.map((x) => [x.key, x.country])).toEqual([["A", "DE"]]);
  for (const r of [...m111, ...m115, ...m349].filter((x) => x.estado === "presentada"))
    expect((await get(`/api/tax/returns/${r.id}/file`)).statusCode, `${r.model} ${r.period}`).toBe(200);

  // The 390 adds up the quarters' 303s, and its result is what they paid and left to compensate.
  const [m390] = of("390");
  const total = (box: string) => q303.reduce((acc, r) => acc + cents(r.boxes[box]), 0);
  for (const [box390, box303] of [
    ["01", "01"],
    ["03", "04"],
    ["05", "07"],
    ["06", "09"],
    ["47", "27"],
    ["48", "28"],
    ["50", "30"],
    ["64", "45"],
    ["65", "46"],
  ])
    expect(cents(m390.boxes[box390]), `390 ${box390}`).toBe(total(box303));
  // The year's result is what the 303s paid less what the last one leaves to compensate: its
  // result (97, 98) and the earlier compensation still pending (87).
  if (quartersOver() === 3)
    expect(cents(m390.boxes["86"])).toBe(
      cents(m390.boxes["95"]) -
        cents(m390.boxes["97"]) -
        cents(m390.boxes["98"]) -
        cents(q303[3].boxes["87"]),
    );
  // Its file (once confirmed) carries the same sums where the DR390 design puts them.
  expect(m390.issues).toEqual([]);
  expect(
    (await t.as(t.adminToken, { method: "POST", url: `/api/tax/returns/${m390.id}/confirm` })).statusCode,
  ).toBe(200);
  const file = (await get(`/api/tax/returns/${m390.id}/file`)).rawPayload.toString("latin1");
  const pageAt = (tag: string) => file.indexOf(`<T390${tag}>`);
  const amountAt = (tag: string, position: number) => {
    const field = file.slice(pageAt(tag) + position - 1, pageAt(tag) + position + 16);
    return field.startsWith("N") ? -Number(field.slice(1)) : Number(field);
  };
  expect(file.slice(0, 17)).toBe(`<T3900${year}0A0000>`);
  expect(amountAt("02B00", 353)).toBe(total("27")); // 47
  expect(amountAt("03000", 217)).toBe(total("28")); // 48
  expect(amountAt("03000", 693)).toBe(total("30")); // 50
  expect(amountAt("04000", 659)).toBe(total("45")); // 64
  expect(amountAt("04000", 676)).toBe(total("46")); // 65
  expect(amountAt("06000", 225)).toBe(cents(m390.boxes["95"])); // 95
}

interface Check {
  totals: { account: string; ledger: string }[];
  differences: { account: string; document_id: string | null; concept: string | null; posted: string }[];
}

interface TaxReturn {
  id: string;
  records: { key: string; country: string }[];
  issues: unknown[];
  model: string;
  period: string;
  estado: string;
  result: string | null;
  declaration_type: string | null;
  entry_id: string | null;
  boxes: Record<string, string>;
}

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
