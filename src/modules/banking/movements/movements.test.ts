import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { expectAfterWalksLikeSkip, expectUnknownCursorRefused } from "../../../../test/helpers/pagination.js";
import { addDays } from "../../../platform/dates.js";
import { queryRows, sqlState } from "../../../platform/db/sql.js";
import { createSubaccount, postEntry, serviceCtx } from "../../accounting/test-support.js";
import { entryLines, line } from "../../documents/test-support.js";
import { approvedPurchaseInvoice, issuedSalesInvoice } from "../../treasury/test-support.js";
import {
  bankingFixture,
  createBankAccount,
  expectStatus,
  importFile,
  listMovements,
  type MovementOut,
  norma43For,
  spanishIban,
} from "../test-support.js";
import { autoMatch } from "./service.js";

let t: TestApp;
let fx: Awaited<ReturnType<typeof bankingFixture>>;
let account = 100;
beforeAll(async () => {
  t = await createTestApp();
  fx = await bankingFixture(t);
});
afterAll(async () => {
  await t?.close();
});

type Mv = Parameters<typeof norma43For>[1][number];

/** A new bank account of the fixture's company with these movements imported; returns both. */
async function imported(movements: Mv[]) {
  account += 1;
  const bank = await createBankAccount(t, fx.companyId, {
    name: `Banco ${account}`,
    iban: spanishIban("2100", "0001", `02000${String(account).padStart(5, "0")}`),
  });
  expectStatus(await importFile(t, bank.id, norma43For(bank.iban, movements)), 201, "import");
  const { data } = await listMovements(t, `&bank_account_id=${bank.id}`);
  return { bank, movements: data };
}

const post = (url: string, payload?: unknown) =>
  t.as(t.adminToken, {
    method: "POST",
    url: `/api/bank-reconciliation${url}`,
    ...(payload ? { payload } : {}),
  });

const dueOf = (invoice: Record<string, unknown>) => (invoice.dues as Array<{ id: string }>)[0]!.id;

describe("the movement list", () => {
  it("after= walks the same pages as skip by operation date, ties by id; totals are exact (total_is_estimate)", async () => {
    const { bank, movements } = await imported([
      { operationDate: "2026-03-05", amount: "10.00", commonConcept: "99", concepts: ["KEYSET UNO"] },
      { operationDate: "2026-03-06", amount: "11.00", commonConcept: "99", concepts: ["KEYSET DOS"] },
      { operationDate: "2026-03-06", amount: "12.00", commonConcept: "99", concepts: ["KEYSET TRES"] },
      { operationDate: "2026-03-06", amount: "-13.00", commonConcept: "99", concepts: ["KEYSET CUATRO"] },
      { operationDate: "2026-03-07", amount: "14.00", commonConcept: "99", concepts: ["KEYSET CINCO"] },
    ]);
    const url = `/api/bank-reconciliation/movements?bank_account_id=${bank.id}`;
    const ids = await expectAfterWalksLikeSkip(t, url);
    expect(ids).toEqual(movements.map((m) => m.id));
    expect(await expectAfterWalksLikeSkip(t, `${url}&search=keyset`)).toEqual(ids);
    // A movement of another bank account is no row of this list, nor one the amount filter leaves out.
    const other = await imported([{ operationDate: "2026-03-05", amount: "1.00", concepts: ["OTRA"] }]);
    await expectUnknownCursorRefused(t, url, other.movements[0]!.id);
    await expectUnknownCursorRefused(t, `${url}&min_amount=0`, movements[3]!.id);
  });
});

describe("reconcile and unreconcile", () => {
  it("records the receipt's payment (Dr 572 net, Dr 626 fees, Cr 430) and undoes it", async () => {
    const invoice = await issuedSalesInvoice(
      t,
      fx.companyId,
      fx.customer.id,
      [line("10", "100")],
      "2026-03-10",
    );
    const { bank, movements } = await imported([
      {
        operationDate: "2026-03-11",
        amount: "1208.50",
        commonConcept: "04",
        concepts: [`FRA ${invoice.code}`],
      },
    ]);
    const [m] = movements;
    const res = await post(`/movements/${m!.id}/reconcile`, {
      target: "receipt",
      id: dueOf(invoice),
      fees: "1.50",
    });
    const done = expectStatus<MovementOut>(res, 200, "reconcile");
    expect(done.status).toBe("conciliado");
    expect(done.suggestions).toEqual([]);
    expect(done.reconciliation).toMatchObject({
      target: "receipt",
      amount: "1210.00",
      fees: "1.50",
      origin: "manual",
    });
    const lines = await entryLines(t, done.reconciliation!.entry_id);
    expect(lines.find((l) => l.code === bank.subaccount_code)).toMatchObject({ debit: "1208.50" });
    expect(lines.find((l) => l.code.startsWith("626"))).toMatchObject({ debit: "1.50" });
    expect(lines.find((l) => l.code.startsWith("430"))).toMatchObject({ credit: "1210.00" });

    const again = await post(`/movements/${m!.id}/reconcile`, { target: "receipt", id: dueOf(invoice) });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toMatch(/conciliado/);

    const undone = expectStatus<MovementOut>(
      await post(`/movements/${m!.id}/unreconcile`),
      200,
      "unreconcile",
    );
    expect(undone.reconciliation).toBeNull();
    expect(undone.status).toBe("sugerido");
    expect(undone.suggestions[0]).toMatchObject({ id: dueOf(invoice), document_code: invoice.code });
    // The receipt is open again: the movement reconciles with it once more, now without fees (partial).
    const partial = expectStatus<MovementOut>(
      await post(`/movements/${m!.id}/reconcile`, { target: "receipt", id: dueOf(invoice) }),
      200,
      "reconcile again",
    );
    expect(partial.reconciliation).toMatchObject({ amount: "1208.50", fees: "0.00" });
    expect(await post(`/movements/${m!.id}/unreconcile`)).toHaveProperty("statusCode", 200);
  });

  it("pays a supplier's due from a debit (Dr 400 / Cr 572) and refuses paying more than is open", async () => {
    const invoice = await approvedPurchaseInvoice(
      t,
      fx.companyId,
      fx.supplier.id,
      [line("1", "100")],
      "2026-03-10",
      {
        supplier_number: "PROV-2026-0042",
      },
    );
    const { bank, movements } = await imported([
      {
        operationDate: "2026-03-15",
        amount: "-121.00",
        commonConcept: "04",
        concepts: ["PAGO PROV-2026-0042"],
      },
      { operationDate: "2026-03-16", amount: "-500.00", commonConcept: "04", concepts: ["PAGO"] },
    ]);
    const [pay, big] = movements;
    expect(pay!.suggestions[0]).toMatchObject({ target: "payment", id: dueOf(invoice) });
    const tooMuch = await post(`/movements/${big!.id}/reconcile`, { target: "payment", id: dueOf(invoice) });
    expect(tooMuch.statusCode).toBe(409);
    const done = expectStatus<MovementOut>(
      await post(`/movements/${pay!.id}/reconcile`, { target: "payment", id: dueOf(invoice) }),
      200,
      "reconcile payment",
    );
    const lines = await entryLines(t, done.reconciliation!.entry_id);
    expect(lines.find((l) => l.code === bank.subaccount_code)).toMatchObject({ credit: "121.00" });
    expect(lines.find((l) => l.code.startsWith("400"))).toMatchObject({ debit: "121.00" });
    // A receipt target for a supplier's due is not found (receipts are customers').
    expect(
      (await post(`/movements/${big!.id}/reconcile`, { target: "receipt", id: dueOf(invoice) })).statusCode,
    ).toBe(404);
  });

  it("links an existing entry that moves the bank's subaccount by the movement's amount", async () => {
    const { bank, movements } = await imported([
      { operationDate: "2026-03-20", amount: "50.00", commonConcept: "99", concepts: ["INTERESES"] },
      { operationDate: "2026-03-21", amount: "50.00", commonConcept: "99", concepts: ["INTERESES"] },
      { operationDate: "2026-03-22", amount: "49.99", commonConcept: "99", concepts: ["OTRO"] },
    ]);
    await createSubaccount(t, fx.companyId, "7690000001");
    const entry = expectStatus<{ id: string }>(
      await postEntry(t, {
        company_id: fx.companyId,
        date: "2026-03-20",
        lines: [
          { subaccount_code: bank.subaccount_code, debit: "50.00" },
          { subaccount_code: "7690000001", credit: "50.00" },
        ],
      }),
      201,
      "entry",
    );
    const [first, second, third] = movements;
    const done = expectStatus<MovementOut>(
      await post(`/movements/${first!.id}/reconcile`, { target: "entry", id: entry.id }),
      200,
      "link entry",
    );
    expect(done.reconciliation).toMatchObject({
      target: "entry",
      entry_id: entry.id,
      payment_id: null,
      amount: "50.00",
    });
    const taken = await post(`/movements/${second!.id}/reconcile`, { target: "entry", id: entry.id });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().detail).toMatch(/already reconciles/);
    const mismatch = await post(`/movements/${third!.id}/reconcile`, { target: "entry", id: entry.id });
    expect(mismatch.statusCode).toBe(409);
    expect(mismatch.json().detail).toMatch(/moves 50.00 on .*, the movement 49.99/);
    expect(
      expectStatus<MovementOut>(await post(`/movements/${first!.id}/unreconcile`), 200, "unlink").status,
    ).toBe("pendiente");
    expect(
      (await post(`/movements/${second!.id}/reconcile`, { target: "entry", id: entry.id })).statusCode,
    ).toBe(200);
  });

  it("ignores a movement and takes it back; refuses moves its state does not allow", async () => {
    const { movements } = await imported([
      { operationDate: "2026-03-20", amount: "-3.00", concepts: ["COMISION"] },
    ]);
    const [m] = movements;
    expect(expectStatus<MovementOut>(await post(`/movements/${m!.id}/ignore`), 200, "ignore").status).toBe(
      "ignorado",
    );
    const twice = await post(`/movements/${m!.id}/ignore`);
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ state: "ignorado", allowed_from: ["pendiente", "sugerido"] });
    expect((await listMovements(t, `&status=ignorado`)).data.map((x) => x.id)).toContain(m!.id);
    expect(expectStatus<MovementOut>(await post(`/movements/${m!.id}/unreconcile`), 200, "back").status).toBe(
      "pendiente",
    );
    expect((await post(`/movements/${m!.id}/unreconcile`)).statusCode).toBe(409);
  });
});

describe("auto-match", () => {
  it("reconciles the unique 85+ matches only and reports the rest", async () => {
    const company = fx.companyId;
    const a = await issuedSalesInvoice(t, company, fx.customer.id, [line("1", "1000")], "2026-04-10");
    const b = await issuedSalesInvoice(t, company, fx.customer.id, [line("1", "500")], "2026-04-10");
    const c = await issuedSalesInvoice(t, company, fx.customer.id, [line("1", "300")], "2026-04-10");
    const d = await issuedSalesInvoice(t, company, fx.customer.id, [line("1", "300")], "2026-04-10");
    const taxId = fx.customer.tax_id!;
    // Paid the day after the receipts fall due (all four have the same due date).
    const paidOn = addDays((a.dues as Array<{ due_date: string }>)[0]!.due_date, 1);
    const { bank } = await imported([
      {
        operationDate: paidOn,
        amount: "1210.00",
        commonConcept: "04",
        concepts: [`FRA ${a.code}`, taxId],
      },
      {
        operationDate: paidOn,
        amount: "605.00",
        commonConcept: "04",
        concepts: ["TRANSF CLIENTE UNO SL"],
      },
      {
        operationDate: paidOn,
        amount: "363.00",
        commonConcept: "04",
        concepts: [`${c.code} ${d.code}`, taxId],
      },
      { operationDate: paidOn, amount: "999.99", commonConcept: "04", concepts: ["NADA"] },
    ]);
    const result = expectStatus<{
      examined: number;
      suggested: number;
      applied: Array<{
        movement_id: string;
        id: string;
        document_code: string;
        score: number;
        entry_id: string;
      }>;
      ambiguous: number;
      failed: unknown[];
    }>(await post("/auto-match", { bank_account_id: bank.id }), 200, "auto-match");
    expect(result).toMatchObject({ examined: 4, suggested: 3, ambiguous: 1, failed: [] });
    expect(result.applied).toHaveLength(1);
    expect(result.applied[0]).toMatchObject({ id: dueOf(a), document_code: a.code, score: 100 });

    const { data } = await listMovements(t, `&bank_account_id=${bank.id}`);
    const byAmount = new Map(data.map((m) => [m.amount, m]));
    expect(byAmount.get("1210.00")).toMatchObject({
      status: "conciliado",
      reconciliation: { origin: "auto", target: "receipt" },
    });
    expect(byAmount.get("605.00")!.status).toBe("sugerido");
    expect(byAmount.get("605.00")!.suggestions.map((s) => [s.document_code, s.score])).toEqual([
      [b.code, 60],
    ]);
    expect(byAmount.get("363.00")!.status).toBe("sugerido");
    expect(byAmount.get("363.00")!.suggestions.map((s) => s.score)).toEqual([100, 100]);
    expect(byAmount.get("999.99")).toMatchObject({ status: "pendiente", suggestions: [] });
    const lines = await entryLines(t, result.applied[0]!.entry_id);
    expect(lines.find((l) => l.code === bank.subaccount_code)).toMatchObject({ debit: "1210.00" });

    const rerun = expectStatus<{ examined: number; applied: unknown[] }>(
      await post("/auto-match", { bank_account_id: bank.id }),
      200,
      "again",
    );
    expect(rerun).toMatchObject({ examined: 3, applied: [] });
  });

  it("rescoring keeps unchanged suggestions, drops those of a due paid meanwhile and sets the state back", async () => {
    const company = fx.companyId;
    const paid = await issuedSalesInvoice(t, company, fx.customer.id, [line("1", "700")], "2026-04-10");
    const open = await issuedSalesInvoice(t, company, fx.customer.id, [line("1", "800")], "2026-04-10");
    const paidOn = addDays((paid.dues as Array<{ due_date: string }>)[0]!.due_date, 1);
    const { bank, movements } = await imported([
      { operationDate: paidOn, amount: "847.00", commonConcept: "04", concepts: ["TRANSF CLIENTE UNO SL"] },
      { operationDate: paidOn, amount: "968.00", commonConcept: "04", concepts: ["TRANSF CLIENTE UNO SL"] },
    ]);
    const [gone, kept] = ["847.00", "968.00"].map((a) => movements.find((m) => m.amount === a)!);
    expect([gone!.status, kept!.status]).toEqual(["sugerido", "sugerido"]);
    const stored = async (movementId: string) =>
      queryRows<{ due_id: string; score: number }>(
        t.db,
        sql`select due_id, score from bank_movement_suggestions where movement_id = ${movementId}`,
      );
    const keptBefore = await stored(kept!.id);
    expect(keptBefore).toEqual([{ due_id: dueOf(open), score: 60 }]);

    // The first invoice is paid by hand before auto-match runs: its suggestion no longer holds.
    expectStatus(
      await t.as(t.adminToken, {
        method: "POST",
        url: `/api/treasury/customer-receipts/${dueOf(paid)}/pay`,
        payload: { date: paidOn, amount: "847.00", bank_account_id: bank.id },
      }),
      201,
      "pay by hand",
    );
    const result = expectStatus<{ examined: number; suggested: number; applied: unknown[] }>(
      await post("/auto-match", { bank_account_id: bank.id }),
      200,
      "auto-match",
    );
    expect(result).toMatchObject({ examined: 2, suggested: 1, applied: [] });
    expect(await stored(gone!.id)).toEqual([]);
    expect(await stored(kept!.id)).toEqual(keptBefore);
    const { data } = await listMovements(t, `&bank_account_id=${bank.id}`);
    const byAmount = new Map(data.map((m) => [m.amount, m]));
    expect(byAmount.get("847.00")).toMatchObject({ status: "pendiente", suggestions: [] });
    expect(byAmount.get("968.00")!.status).toBe("sugerido");
  });

  it("pays in steps within one transaction: every step applied, a refusal in a step reported, entries numbered on", async () => {
    const company = fx.companyId;
    // Net prices and their totals with 21 % VAT.
    const priced = [
      ["110", "133.10"],
      ["120", "145.20"],
      ["130", "157.30"],
      ["140", "169.40"],
      ["150", "181.50"],
    ];
    const invoices: Array<Record<string, unknown>> = [];
    for (const [price] of priced)
      invoices.push(await issuedSalesInvoice(t, company, fx.customer.id, [line("1", price!)], "2026-04-10"));
    const paidOn = addDays((invoices[0]!.dues as Array<{ due_date: string }>)[0]!.due_date, 1);
    const { bank } = await imported(
      invoices.map((inv, i) => ({
        operationDate: paidOn,
        amount: priced[i]![1]!,
        commonConcept: "04",
        concepts: [`FRA ${inv.code}`, fx.customer.tax_id!],
      })),
    );
    // 1.00 of the third receipt is paid by hand: its movement still scores 85 (a close amount, the
    // code, the tax id, the date), so it is picked, and treasury refuses paying more than is open.
    expectStatus(
      await t.as(t.adminToken, {
        method: "POST",
        url: `/api/treasury/customer-receipts/${dueOf(invoices[2]!)}/pay`,
        payload: { date: paidOn, amount: "1.00", bank_account_id: bank.id },
      }),
      201,
      "partial payment by hand",
    );
    const result = await autoMatch(serviceCtx(t.ctx), { bankAccountId: bank.id }, { step: 2 });
    expect(result.examined).toBe(5);
    expect(result.failed.map((f) => f.dueId)).toEqual([dueOf(invoices[2]!)]);
    expect(result.applied.map((a) => a.documentCode).sort()).toEqual(
      [0, 1, 3, 4].map((i) => invoices[i]!.code as string).sort(),
    );
    const ids = (list: string[]) => `{${list.join(",")}}`;
    const numbers = await queryRows<{ number: number }>(
      t.db,
      sql`select number from entries where id = any(${ids(result.applied.map((a) => a.entryId))}::uuid[]) order by number`,
    );
    expect(numbers.map((n) => n.number - numbers[0]!.number)).toEqual([0, 1, 2, 3]);
    const { data } = await listMovements(t, `&bank_account_id=${bank.id}`);
    expect(data.filter((m) => m.status === "conciliado")).toHaveLength(4);
    const states = await queryRows<{ estado: string; n: number }>(
      t.db,
      sql`select estado, count(*)::int as n from document_dues where id = any(${ids(result.applied.map((a) => a.dueId))}::uuid[]) group by estado`,
    );
    expect(states).toEqual([{ estado: "pagado", n: 4 }]);
  });

  it("a step the database refuses undoes the steps before it: nothing is left half applied", async () => {
    const company = fx.companyId;
    const priced = [
      ["210", "254.10"],
      ["220", "266.20"],
      ["230", "278.30"],
    ];
    const invoices: Array<Record<string, unknown>> = [];
    for (const [price] of priced)
      invoices.push(await issuedSalesInvoice(t, company, fx.customer.id, [line("1", price!)], "2026-04-10"));
    const paidOn = addDays((invoices[0]!.dues as Array<{ due_date: string }>)[0]!.due_date, 1);
    const { bank, movements } = await imported(
      invoices.map((inv, i) => ({
        operationDate: paidOn,
        amount: priced[i]![1]!,
        commonConcept: "04",
        concepts: [`FRA ${inv.code}`, fx.customer.tax_id!],
      })),
    );
    // Picks go in movement order (operation date, id): the last movement's payment is the second
    // step's. A constraint the database checks (not a treasury rule) refuses that payment.
    const lastDue = movements[2]!.suggestions[0]!.id;
    await t.db.execute(
      sql.raw(
        `alter table treasury_payments add constraint test_step_refused check (due_id <> '${lastDue}')`,
      ),
    );
    try {
      await expect(autoMatch(serviceCtx(t.ctx), { bankAccountId: bank.id }, { step: 2 })).rejects.toThrow();
    } finally {
      await t.db.execute(sql.raw("alter table treasury_payments drop constraint test_step_refused"));
    }
    const dueIds = `{${invoices.map((inv) => dueOf(inv)).join(",")}}`;
    const [written] = await queryRows<{ payments: number; reconciliations: number; paid: number }>(
      t.db,
      sql`select (select count(*)::int from treasury_payments where due_id = any(${dueIds}::uuid[])) as payments,
                 (select count(*)::int from bank_reconciliations where due_id = any(${dueIds}::uuid[])) as reconciliations,
                 (select count(*)::int from document_dues where id = any(${dueIds}::uuid[]) and paid_amount <> 0) as paid`,
    );
    expect(written).toEqual({ payments: 0, reconciliations: 0, paid: 0 });
    const { data } = await listMovements(t, `&bank_account_id=${bank.id}`);
    expect(data.map((m) => m.status)).toEqual(["sugerido", "sugerido", "sugerido"]);
    // Without the constraint the same run applies all three.
    const again = await autoMatch(serviceCtx(t.ctx), { bankAccountId: bank.id }, { step: 2 });
    expect(again.applied).toHaveLength(3);
  });
});

describe("the database's keys (ADR 035)", () => {
  /** The SQLSTATE the statement fails with (23503: a foreign key refused it), or "ok". */
  const outcome = (statement: ReturnType<typeof sql>) =>
    t.db.execute(statement).then(
      () => "ok",
      (err: unknown) => sqlState(err),
    );

  it("refuse a payment on another company's bank account and a reconciliation not matching its payment", async () => {
    const invoice = await issuedSalesInvoice(
      t,
      fx.companyId,
      fx.customer.id,
      [line("1", "50")],
      "2026-05-04",
    );
    const { movements } = await imported([
      {
        operationDate: "2026-05-05",
        amount: "60.50",
        commonConcept: "04",
        concepts: [`FRA ${invoice.code}`],
      },
    ]);
    const done = expectStatus<MovementOut>(
      await post(`/movements/${movements[0]!.id}/reconcile`, { target: "receipt", id: dueOf(invoice) }),
      200,
      "reconcile",
    );
    const reconciliation = done.reconciliation!;
    const paymentId = reconciliation.payment_id!;

    const other = await bankingFixture(t);
    const theirs = await issuedSalesInvoice(
      t,
      other.companyId,
      other.customer.id,
      [line("1", "20")],
      "2026-05-04",
    );
    const theirPayment = expectStatus<{ id: string; entry_id: string }>(
      await t.as(t.adminToken, {
        method: "POST",
        url: `/api/treasury/customer-receipts/${dueOf(theirs)}/pay`,
        payload: { date: "2026-05-06", amount: "24.20", bank_account_id: other.bank.id },
      }),
      201,
      "their payment",
    );
    const sameCompanyInvoice = await issuedSalesInvoice(
      t,
      fx.companyId,
      fx.customer.id,
      [line("1", "30")],
      "2026-05-04",
    );

    // A payment: on another company's bank account, or moved to another company.
    expect(
      await outcome(
        sql`update treasury_payments set bank_account_id = ${other.bank.id} where id = ${paymentId}`,
      ),
    ).toBe("23503");
    expect(
      await outcome(
        sql`update treasury_payments set company_id = ${other.companyId} where id = ${paymentId}`,
      ),
    ).toBe("23503");
    // A reconciliation: another company's payment, its payment with another due, entry or company.
    const r = sql`update bank_reconciliations set`;
    const where = sql`where movement_id = ${movements[0]!.id} and undone_at is null`;
    expect(await outcome(sql`${r} payment_id = ${theirPayment.id} ${where}`)).toBe("23503");
    expect(
      await outcome(
        sql`${r} payment_id = ${theirPayment.id}, due_id = ${dueOf(theirs)}, entry_id = ${theirPayment.entry_id} ${where}`,
      ),
    ).toBe("23503");
    expect(await outcome(sql`${r} due_id = ${dueOf(sameCompanyInvoice)} ${where}`)).toBe("23503");
    expect(await outcome(sql`${r} entry_id = ${theirPayment.entry_id} ${where}`)).toBe("23503");
    expect(await outcome(sql`${r} company_id = ${other.companyId} ${where}`)).toBe("23503");
    // What the keys point at is left as it was: the same row still passes them.
    expect(await outcome(sql`${r} amount = amount ${where}`)).toBe("ok");
    expect(await outcome(sql`update treasury_payments set fees = fees where id = ${paymentId}`)).toBe("ok");
  });
});
