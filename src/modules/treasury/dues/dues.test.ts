import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { expectAfterWalksLikeSkip, expectUnknownCursorRefused } from "../../../../test/helpers/pagination.js";
import { createCompany, createFiscalYear } from "../../accounting/test-support.js";
import { createContact, entryLines, expectStatus, line } from "../../documents/test-support.js";
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

interface Due {
  id: string;
  code: string;
  invoice_id: string;
  due_date: string;
  amount: string;
  paid_amount: string;
  open_amount: string;
  status: string;
  contact_id: string;
  payments: Array<{
    id: string;
    amount: string;
    undone: boolean;
    entry_id: string;
    bank_account_name: string;
  }>;
  instalments: Array<{ id: string; code: string; due_date: string; amount: string; status: string }>;
}
interface PayResult {
  id: string;
  entry_id: string;
  amount: string;
  fees: string;
  due: Due;
}

const R = "/api/treasury/customer-receipts";
const P = "/api/treasury/supplier-payments";
const call = (method: "GET" | "POST" | "PATCH", url: string, payload?: object, token = t.adminToken) =>
  t.as(token, { method, url, payload });

async function receiptOf(invoiceId: string, base = R): Promise<Due> {
  const page = expectStatus<{ data: Due[] }>(await call("GET", `${base}?invoice_id=${invoiceId}`), 200);
  return page.data[0];
}

describe("customer receipts", () => {
  it("pays partly and fully through the route, refuses over-payment, undoes", async () => {
    const inv = await issuedSalesInvoice(t, fx.companyId, fx.customer.id, [line("2", "100")]);
    const receipt = await receiptOf(inv.id);
    expect(receipt).toMatchObject({
      amount: "242.00",
      open_amount: "242.00",
      status: "vencido",
      code: `${inv.code}/1`,
    });

    const first = expectStatus<PayResult>(
      await call("POST", `${R}/${receipt.id}/pay`, {
        date: "2026-03-15",
        amount: "100.00",
        bank_account_id: fx.bank.id,
        fees: "2.00",
      }),
      201,
    );
    expect(first.due).toMatchObject({ paid_amount: "100.00", open_amount: "142.00" });
    const lines = await entryLines(t, first.entry_id);
    expect(lines.map((l) => [l.code.slice(0, 3), l.debit, l.credit])).toEqual([
      ["572", "98.00", "0.00"],
      ["626", "2.00", "0.00"],
      ["430", "0.00", "100.00"],
    ]);
    const over = await call("POST", `${R}/${receipt.id}/pay`, {
      date: "2026-03-16",
      amount: "142.01",
      bank_account_id: fx.bank.id,
    });
    expect(over.statusCode).toBe(409);
    expect(over.json().detail).toContain("142.00 open");
    const feesOver = await call("POST", `${R}/${receipt.id}/pay`, {
      date: "2026-03-16",
      amount: "1.00",
      bank_account_id: fx.bank.id,
      fees: "1.01",
    });
    expect(feesOver.statusCode).toBe(400);
    const full = expectStatus<PayResult>(
      await call("POST", `${R}/${receipt.id}/pay`, {
        date: "2026-03-20",
        amount: "142.00",
        bank_account_id: fx.bank.id,
      }),
      201,
    );
    expect(full.due).toMatchObject({ open_amount: "0.00", status: "pagado" });
    const invoice = expectStatus<{ payment_status: string; paid_amount: string }>(
      await call("GET", `/api/sales/invoices/${inv.id}`),
      200,
    );
    expect(invoice).toMatchObject({ payment_status: "pagada", paid_amount: "242.00" });

    const undone = expectStatus<{ undone: boolean; reversal_entry_id: string }>(
      await call("POST", `/api/treasury/payments/${first.id}/undo`, { date: "2026-03-31" }),
      200,
    );
    expect(undone.undone).toBe(true);
    expect(
      (await entryLines(t, undone.reversal_entry_id)).map((l) => [l.code.slice(0, 3), l.debit, l.credit]),
    ).toEqual([
      ["572", "0.00", "98.00"],
      ["626", "0.00", "2.00"],
      ["430", "100.00", "0.00"],
    ]);
    expect((await call("POST", `/api/treasury/payments/${first.id}/undo`, {})).statusCode).toBe(409);
    const detail = expectStatus<Due>(await call("GET", `${R}/${receipt.id}`), 200);
    expect(detail).toMatchObject({ paid_amount: "142.00", open_amount: "100.00", status: "vencido" });
    expect(detail.payments.map((p) => [p.amount, p.undone, p.bank_account_name])).toEqual([
      ["100.00", true, "Banco Uno"],
      ["142.00", false, "Banco Uno"],
    ]);
    expect(
      expectStatus<{ paid_amount: string }>(await call("GET", `/api/sales/invoices/${inv.id}`), 200)
        .paid_amount,
    ).toBe("142.00");
  });

  it("moves the due date and splits an unpaid receipt into instalments; a paid one cannot be split", async () => {
    const inv = await issuedSalesInvoice(t, fx.companyId, fx.customer.id, [line("1", "300")]);
    const receipt = await receiptOf(inv.id);
    const moved = expectStatus<Due>(
      await call("PATCH", `${R}/${receipt.id}`, { due_date: "2099-01-15" }),
      200,
    );
    expect(moved).toMatchObject({ due_date: "2099-01-15", status: "pendiente" });

    const wrongSum = await call("PATCH", `${R}/${receipt.id}`, {
      instalments: [
        { due_date: "2099-01-15", amount: "100.00" },
        { due_date: "2099-02-15", amount: "200.00" },
      ],
    });
    expect(wrongSum.statusCode).toBe(400);
    expect(wrongSum.json().detail).toContain("not the 363.00");
    const both = await call("PATCH", `${R}/${receipt.id}`, { due_date: "2099-01-01", instalments: [] });
    expect(both.statusCode).toBe(400);

    const split = expectStatus<Due>(
      await call("PATCH", `${R}/${receipt.id}`, {
        instalments: [
          { due_date: "2099-01-15", amount: "121.00" },
          { due_date: "2099-02-15", amount: "121.00" },
          { due_date: "2099-03-15", amount: "121.00" },
        ],
      }),
      200,
    );
    expect(split).toMatchObject({ id: receipt.id, amount: "121.00" });
    expect(split.instalments.map((i) => [i.code, i.due_date, i.amount, i.status])).toEqual([
      [`${inv.code}/1`, "2099-01-15", "121.00", "pendiente"],
      [`${inv.code}/2`, "2099-02-15", "121.00", "pendiente"],
      [`${inv.code}/3`, "2099-03-15", "121.00", "pendiente"],
    ]);
    const second = split.instalments[1];
    await call("POST", `${R}/${second.id}/pay`, {
      date: "2026-04-01",
      amount: "21.00",
      bank_account_id: fx.bank.id,
    });
    const paidSplit = await call("PATCH", `${R}/${second.id}`, {
      instalments: [
        { due_date: "2099-02-15", amount: "60.00" },
        { due_date: "2099-02-20", amount: "61.00" },
      ],
    });
    expect(paidSplit.statusCode).toBe(409);
    const afterPay = expectStatus<Due>(await call("GET", `${R}/${second.id}`), 200);
    expect(afterPay.status).toBe("parcial");

    // A receipt by hand: taken out of the last larger unpaid instalment (/3 keeps 21.00).
    const manual = expectStatus<Due>(
      await call("POST", R, { invoice_id: inv.id, due_date: "2099-04-15", amount: "100.00" }),
      201,
    );
    expect(manual).toMatchObject({ code: `${inv.code}/4`, amount: "100.00" });
    expect(manual.instalments.map((i) => i.amount)).toEqual(["121.00", "121.00", "21.00", "100.00"]);
    const tooMuch = await call("POST", R, { invoice_id: inv.id, due_date: "2099-04-15", amount: "500.00" });
    expect(tooMuch.statusCode).toBe(409);
    const draft = expectStatus<{ id: string }>(
      await call("POST", "/api/sales/invoices", {
        company_id: fx.companyId,
        client_id: fx.customer.id,
        date: "2026-03-10",
        lines: [line("1", "1")],
      }),
      201,
    );
    expect(
      (await call("POST", R, { invoice_id: draft.id, due_date: "2099-04-15", amount: "1.00" })).statusCode,
    ).toBe(409);
  });

  it("filters by status, due date, contact, invoice and search", async () => {
    const other = await createContact(t, fx.companyId, { name: "Zeta Filtros, S.A." });
    const a = await issuedSalesInvoice(t, fx.companyId, other.id, [line("1", "10")]);
    const b = await issuedSalesInvoice(t, fx.companyId, other.id, [line("1", "20")]);
    const rb = await receiptOf(b.id);
    await call("PATCH", `${R}/${rb.id}`, { due_date: "2099-06-30" });
    const list = async (q: string) =>
      expectStatus<{ data: Due[]; total: number }>(
        await call("GET", `${R}?contact_id=${other.id}&${q}`),
        200,
      );
    expect((await list("")).total).toBe(2);
    expect((await list("status=vencido")).data.map((d) => d.invoice_id)).toEqual([a.id]);
    expect((await list("status=pendiente")).data.map((d) => d.invoice_id)).toEqual([b.id]);
    expect((await list("status=pagado")).total).toBe(0);
    expect((await list("date_from=2099-01-01&date_to=2099-12-31")).data.map((d) => d.invoice_id)).toEqual([
      b.id,
    ]);
    expect((await list(`search=zeta`)).total).toBe(2);
    expect((await list(`search=${encodeURIComponent(a.code)}`)).data.map((d) => d.invoice_id)).toEqual([
      a.id,
    ]);
    expect((await call("GET", `${R}?date_from=2026-05-01&date_to=2026-04-01`)).statusCode).toBe(400);
    expect((await call("GET", `${R}?status=whatever`)).statusCode).toBe(400);
  });
});

describe("supplier payments", () => {
  it("pays an approved purchase invoice: Dr 400 / Cr 572, and is not a customer receipt", async () => {
    const inv = await approvedPurchaseInvoice(t, fx.companyId, fx.supplier.id, [line("1", "50")]);
    const due = await receiptOf(inv.id, P);
    expect(due).toMatchObject({ amount: "60.50", supplier_number: inv.supplier_number });
    expect((await call("GET", `${R}/${due.id}`)).statusCode).toBe(404);
    expect(
      (
        await call("POST", `${R}/${due.id}/pay`, {
          date: "2026-04-01",
          amount: "1",
          bank_account_id: fx.bank.id,
        })
      ).statusCode,
    ).toBe(404);
    const paid = expectStatus<PayResult>(
      await call("POST", `${P}/${due.id}/pay`, {
        date: "2026-04-01",
        amount: "60.50",
        bank_account_id: fx.bank.id,
      }),
      201,
    );
    expect((await entryLines(t, paid.entry_id)).map((l) => [l.code.slice(0, 3), l.debit, l.credit])).toEqual([
      ["400", "60.50", "0.00"],
      ["572", "0.00", "60.50"],
    ]);
    const page = expectStatus<{ data: Due[] }>(
      await call("GET", `${P}?status=pagado&invoice_id=${inv.id}`),
      200,
    );
    expect(page.data.map((d) => d.id)).toEqual([due.id]);
    const moved = await call("PATCH", `${P}/${due.id}`, { due_date: "2026-12-31" });
    expect(moved.statusCode).toBe(409);
  });
});

describe("paging", () => {
  it("after= walks the same pages as skip, by due date then code; totals are exact (total_is_estimate)", async () => {
    const contact = await createContact(t, fx.companyId, { name: "Keyset Cobros, S.L." });
    const invoices = [];
    for (const price of ["10", "20", "30"])
      invoices.push(await issuedSalesInvoice(t, fx.companyId, contact.id, [line("1", price)]));
    // Three instalments due the same day: the code orders them, and the cursor has to follow it.
    const split = await receiptOf(invoices[1].id);
    await call("PATCH", `${R}/${split.id}`, {
      instalments: [
        { due_date: "2099-01-15", amount: "8.00" },
        { due_date: "2099-01-15", amount: "8.00" },
        { due_date: "2099-01-15", amount: "8.20" },
      ],
    });
    const ids = await expectAfterWalksLikeSkip(t, `${R}?contact_id=${contact.id}`);
    expect(ids).toHaveLength(5);
    const outside = await receiptOf(
      (await issuedSalesInvoice(t, fx.companyId, fx.customer.id, [line("1", "5")])).id,
    );
    await expectUnknownCursorRefused(t, `${R}?contact_id=${contact.id}`, outside.id);

    for (let i = 0; i < 3; i++)
      await approvedPurchaseInvoice(t, fx.companyId, fx.supplier.id, [line("1", String(40 + i))]);
    await expectAfterWalksLikeSkip(t, P);
    // A customer receipt is no row of the supplier payments.
    await expectUnknownCursorRefused(t, P, outside.id);
  });
});

describe("company restriction and permissions", () => {
  it("answers 404 on every route for another company's receipts, payments and bank accounts", async () => {
    const inv = await issuedSalesInvoice(t, fx.companyId, fx.customer.id, [line("1", "40")]);
    const receipt = await receiptOf(inv.id);
    const paid = expectStatus<PayResult>(
      await call("POST", `${R}/${receipt.id}/pay`, {
        date: "2026-03-15",
        amount: "10.00",
        bank_account_id: fx.bank.id,
      }),
      201,
    );
    const otherCompany = await createCompany(t, { name: "Treasury other" });
    await createFiscalYear(t, otherCompany, "2026");
    const otherBank = await createBankAccount(t, otherCompany, { iban: IBANS[1] });
    const u = await t.userWith(["treasury:leer", "treasury:crear", "treasury:editar", "treasury:eliminar"], {
      companyId: otherCompany,
    });
    const as = (method: "GET" | "POST" | "PATCH", url: string, payload?: object) =>
      call(method, url, payload, u.token);
    expect((await as("GET", `${R}/${receipt.id}`)).statusCode).toBe(404);
    expect((await as("PATCH", `${R}/${receipt.id}`, { due_date: "2099-01-01" })).statusCode).toBe(404);
    expect(
      (
        await as("POST", `${R}/${receipt.id}/pay`, {
          date: "2026-03-15",
          amount: "1.00",
          bank_account_id: otherBank.id,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await as("POST", R, { invoice_id: inv.id, due_date: "2099-01-01", amount: "1.00" })).statusCode,
    ).toBe(404);
    expect((await as("GET", `/api/treasury/payments/${paid.id}`)).statusCode).toBe(404);
    expect((await as("POST", `/api/treasury/payments/${paid.id}/undo`, {})).statusCode).toBe(404);
    const mine = expectStatus<{ total: number }>(await as("GET", R), 200);
    expect(mine.total).toBe(0);
    expect(
      expectStatus<{ total: number }>(await as("GET", `${R}?company_id=${fx.companyId}`), 200).total,
    ).toBe(0);
    expect(expectStatus<{ total: number }>(await as("GET", P), 200).total).toBe(0);
    // The admin paying company A's receipt from company B's bank: 400 naming the bank account.
    const crossed = await call("POST", `${R}/${receipt.id}/pay`, {
      date: "2026-03-15",
      amount: "1.00",
      bank_account_id: otherBank.id,
    });
    expect(crossed.statusCode).toBe(400);
    expect(crossed.json().errors[0].path).toBe("bank_account_id");

    const reader = await t.userWith(["treasury:leer"]);
    expect((await call("GET", R, undefined, reader.token)).statusCode).toBe(200);
    expect(
      (
        await call(
          "POST",
          `${R}/${receipt.id}/pay`,
          { date: "2026-03-15", amount: "1.00", bank_account_id: fx.bank.id },
          reader.token,
        )
      ).statusCode,
    ).toBe(403);
    expect((await call("POST", `/api/treasury/payments/${paid.id}/undo`, {}, reader.token)).statusCode).toBe(
      403,
    );
    const nobody = await t.userWith([]);
    expect((await call("GET", P, undefined, nobody.token)).statusCode).toBe(403);
  });
});
