import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { createCompany } from "../../accounting/test-support.js";
import { createContact, expectStatus, line } from "../../documents/test-support.js";
import {
  approvedPurchaseInvoice,
  createBankAccount,
  IBANS,
  issuedSalesInvoice,
  treasuryFixture,
} from "../test-support.js";

let t: TestApp;
let fx: Awaited<ReturnType<typeof treasuryFixture>>;

beforeAll(async () => {
  t = await createTestApp();
  fx = await treasuryFixture(t);
});
afterAll(async () => {
  await t?.close();
});

const call = (method: "GET" | "POST" | "PATCH", url: string, payload?: object, token = t.adminToken) =>
  t.as(token, { method, url, payload });

async function dueOf(
  invoiceId: string,
  base: "customer-receipts" | "supplier-payments" = "customer-receipts",
) {
  const page = expectStatus<{ data: Array<{ id: string }> }>(
    await call("GET", `/api/treasury/${base}?invoice_id=${invoiceId}`),
    200,
  );
  return page.data[0].id;
}

async function saleDueOn(contactId: string, hundreds: number, dueDate?: string) {
  const inv = await issuedSalesInvoice(t, fx.companyId, contactId, [line(String(hundreds), "100")]);
  const id = await dueOf(inv.id);
  if (dueDate)
    expectStatus(await call("PATCH", `/api/treasury/customer-receipts/${id}`, { due_date: dueDate }), 200);
  return id;
}

async function purchaseDueOn(contactId: string, units: string, dueDate?: string) {
  const inv = await approvedPurchaseInvoice(t, fx.companyId, contactId, [line("1", units)]);
  const id = await dueOf(inv.id, "supplier-payments");
  if (dueDate)
    expectStatus(await call("PATCH", `/api/treasury/supplier-payments/${id}`, { due_date: dueDate }), 200);
  return id;
}

const budget = (body: object) =>
  call("POST", "/api/treasury/budgets", { company_id: fx.companyId, category: "test", ...body }).then((r) =>
    expectStatus(r, 201),
  );

interface CashFlowOut {
  ledger_balance: string;
  expected_before_from: string;
  opening: string;
  buckets: Array<{
    label: string;
    inflows: Record<string, string>;
    outflows: Record<string, string>;
    net: string;
    closing: string;
  }>;
  closing: string;
  overdue: { receivables: string; receivables_count: number; payables: string; payables_count: number };
  closing_with_overdue: string;
  bank_balances: Array<{ name: string; balance: string }>;
  other_cash: string;
}

describe("cash flow", () => {
  it("opens with the bank balances and what falls due before from, then buckets receipts, payments and forecast", async () => {
    const bankB = await createBankAccount(t, fx.companyId, { name: "Banco Dos", iban: IBANS[1] });
    // Ledger: bank A +20.00 (21.00 received, 1.00 fees); bank B -60.50 (a supplier paid).
    const overdueReceipt = await saleDueOn(fx.customer.id, 1);
    expectStatus(
      await call("POST", `/api/treasury/customer-receipts/${overdueReceipt}/pay`, {
        date: "2026-03-15",
        amount: "21.00",
        fees: "1.00",
        bank_account_id: fx.bank.id,
      }),
      201,
    );
    const paidPurchase = await purchaseDueOn(fx.supplier.id, "50");
    expectStatus(
      await call("POST", `/api/treasury/supplier-payments/${paidPurchase}/pay`, {
        date: "2026-03-20",
        amount: "60.50",
        bank_account_id: bankB.id,
      }),
      201,
    );
    await purchaseDueOn(fx.supplier.id, "10"); // 12.10 overdue payable
    await saleDueOn(fx.customer.id, 2, "2099-01-05"); // 242.00
    await saleDueOn(fx.customer.id, 0.5, "2099-02-10"); // 60.50
    await saleDueOn(fx.customer.id, 0.1, "2098-12-31"); // 12.10 before from
    await purchaseDueOn(fx.supplier.id, "100", "2099-01-12"); // 121.00
    await budget({
      date: "2099-01-25",
      amount: "-1000",
      recurrence: "monthly",
      until: "2099-03-25",
      bank_account_id: bankB.id,
    });
    await budget({ date: "2099-02-10", amount: "500" });
    await budget({ date: "2098-12-20", amount: "-200", bank_account_id: fx.bank.id });
    await budget({ date: "2098-11-15", amount: "-300", recurrence: "quarterly" });

    const flow = expectStatus<CashFlowOut>(
      await call(
        "GET",
        `/api/treasury/cash-flow?company_id=${fx.companyId}&from=2099-01-01&to=2099-03-31&granularity=month`,
      ),
      200,
    );
    expect(flow).toMatchObject({
      ledger_balance: "-40.50",
      expected_before_from: "-487.90",
      opening: "-528.40",
      closing: "-3146.90",
      overdue: { receivables: "100.00", receivables_count: 1, payables: "12.10", payables_count: 1 },
      closing_with_overdue: "-3059.00",
      other_cash: "0.00",
    });
    expect(flow.bank_balances.map((b) => [b.name, b.balance])).toEqual([
      ["Banco Uno", "20.00"],
      ["Banco Dos", "-60.50"],
    ]);
    expect(flow.buckets).toEqual([
      {
        start: "2099-01-01",
        end: "2099-01-31",
        label: "2099-01",
        inflows: { receipts: "242.00", forecast: "0.00", total: "242.00" },
        outflows: { payments: "121.00", forecast: "1000.00", total: "1121.00" },
        net: "-879.00",
        closing: "-1407.40",
      },
      {
        start: "2099-02-01",
        end: "2099-02-28",
        label: "2099-02",
        inflows: { receipts: "60.50", forecast: "500.00", total: "560.50" },
        outflows: { payments: "0.00", forecast: "1300.00", total: "1300.00" },
        net: "-739.50",
        closing: "-2146.90",
      },
      {
        start: "2099-03-01",
        end: "2099-03-31",
        label: "2099-03",
        inflows: { receipts: "0.00", forecast: "0.00", total: "0.00" },
        outflows: { payments: "0.00", forecast: "1000.00", total: "1000.00" },
        net: "-1000.00",
        closing: "-3146.90",
      },
    ]);

    // One bank: its balance and its forecast lines; the open receipts and payments all count.
    const onlyB = expectStatus<CashFlowOut>(
      await call(
        "GET",
        `/api/treasury/cash-flow?company_id=${fx.companyId}&from=2099-01-01&to=2099-03-31&granularity=month&bank_account_id=${bankB.id}`,
      ),
      200,
    );
    expect(onlyB).toMatchObject({
      ledger_balance: "-60.50",
      expected_before_from: "12.10",
      opening: "-48.40",
      closing: "-2866.90",
    });
    expect(onlyB.buckets.map((b) => b.closing)).toEqual(["-927.40", "-1866.90", "-2866.90"]);
    expect(onlyB.bank_balances.map((b) => b.name)).toEqual(["Banco Dos"]);

    // Defaults: today and 90 days on, by ISO week.
    const byDefault = expectStatus<CashFlowOut & { from: string; to: string; granularity: string }>(
      await call("GET", `/api/treasury/cash-flow?company_id=${fx.companyId}`),
      200,
    );
    expect(byDefault.granularity).toBe("week");
    expect(byDefault.buckets.length).toBeGreaterThanOrEqual(13);
    expect(byDefault.buckets[0].label).toMatch(/^\d{4}-W\d{2}$/);
    expect(byDefault.overdue.receivables).toBe("100.00");
  });

  it("refuses a reversed window, too many buckets and another company's bank account", async () => {
    const base = `/api/treasury/cash-flow?company_id=${fx.companyId}`;
    expect((await call("GET", `${base}&from=2099-02-01&to=2099-01-01`)).statusCode).toBe(400);
    const days = await call("GET", `${base}&from=2099-01-01&to=2100-12-31&granularity=day`);
    expect(days.statusCode).toBe(400);
    expect(days.json().errors[0].path).toBe("granularity");
    expect((await call("GET", `${base}&granularity=year`)).statusCode).toBe(400);
    const other = await createCompany(t, { name: "Cash flow other" });
    const theirs = await createBankAccount(t, other, { iban: IBANS[2] });
    const bad = await call("GET", `${base}&bank_account_id=${theirs.id}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].path).toBe("bank_account_id");
    const u = await t.userWith(["treasury:leer"], { companyId: other });
    expect((await call("GET", base, undefined, u.token)).statusCode).toBe(404);
    expect(
      (await call("GET", `/api/treasury/aging?company_id=${fx.companyId}`, undefined, u.token)).statusCode,
    ).toBe(404);
    const own = expectStatus<CashFlowOut>(
      await call("GET", "/api/treasury/cash-flow", undefined, u.token),
      200,
    );
    expect(own.overdue.receivables_count).toBe(0);
    const nobody = await t.userWith([]);
    expect((await call("GET", "/api/treasury/cash-flow", undefined, nobody.token)).statusCode).toBe(403);
  });
});

describe("aging", () => {
  it("puts each open amount in its bucket by days past due, at the edges 30/31, 60/61, 90/91", async () => {
    const c = await createContact(t, fx.companyId, { name: "Aging Cliente" });
    const s = await createContact(t, fx.companyId, { name: "Aging Proveedor" });
    await saleDueOn(c.id, 1, "2026-08-31"); // 30 days: 121.00
    await saleDueOn(c.id, 2, "2026-08-30"); // 31: 242.00
    await saleDueOn(c.id, 3, "2026-08-01"); // 60: 363.00
    await saleDueOn(c.id, 4, "2026-07-31"); // 61: 484.00
    await saleDueOn(c.id, 5, "2026-07-02"); // 90: 605.00
    const oldest = await saleDueOn(c.id, 6, "2026-07-01"); // 91: 726.00
    await saleDueOn(c.id, 7, "2026-10-01"); // not due: 847.00
    await saleDueOn(c.id, 8, "2026-09-30"); // 0 days: 968.00
    expectStatus(
      await call("POST", `/api/treasury/customer-receipts/${oldest}/pay`, {
        date: "2026-03-15",
        amount: "100.00",
        bank_account_id: fx.bank.id,
      }),
      201,
    );
    await purchaseDueOn(s.id, "100", "2026-06-01"); // 121 days: 121.00

    const aging = expectStatus<{
      as_of: string;
      receivables: { contacts: Array<Record<string, string>>; totals: Record<string, string> };
      payables: { contacts: Array<Record<string, string>>; totals: Record<string, string> };
    }>(await call("GET", `/api/treasury/aging?company_id=${fx.companyId}&as_of=2026-09-30`), 200);
    expect(aging.as_of).toBe("2026-09-30");
    const customer = aging.receivables.contacts.find((r) => r.contact_id === c.id);
    expect(customer).toEqual({
      contact_id: c.id,
      contact_name: "Aging Cliente",
      contact_tax_id: c.tax_id,
      not_due: "847.00",
      days_0_30: "1089.00",
      days_31_60: "605.00",
      days_61_90: "1089.00",
      over_90: "626.00",
      total: "4256.00",
    });
    const supplier = aging.payables.contacts.find((r) => r.contact_id === s.id);
    expect(supplier).toMatchObject({ over_90: "121.00", days_0_30: "0.00", total: "121.00" });
    expect(aging.receivables.contacts.some((r) => r.contact_id === s.id)).toBe(false);
    const sum = (key: string) =>
      aging.receivables.contacts.reduce((acc, r) => acc + Math.round(Number(r[key]) * 100), 0) / 100;
    expect(Number(aging.receivables.totals.total)).toBeCloseTo(sum("total"), 2);

    // A day later each edge moves one bucket on.
    const later = expectStatus<{ receivables: { contacts: Array<Record<string, string>> } }>(
      await call("GET", `/api/treasury/aging?company_id=${fx.companyId}&as_of=2026-10-01`),
      200,
    );
    expect(later.receivables.contacts.find((r) => r.contact_id === c.id)).toMatchObject({
      not_due: "0.00",
      days_0_30: "1815.00",
      days_31_60: "363.00",
      days_61_90: "847.00",
      over_90: "1231.00",
    });
    expect(
      (await call("GET", `/api/treasury/aging?as_of=2026-13-01&company_id=${fx.companyId}`)).statusCode,
    ).toBe(400);
  });
});
