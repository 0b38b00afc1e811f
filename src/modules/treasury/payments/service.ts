import { assertCompanyVisible } from "../../../platform/auth/company-scope.js";
import { type AuthedCtx, inCtxTransaction } from "../../../platform/http/context.js";
import { BadRequestError, ConflictError } from "../../../platform/http/errors.js";
import { uuidv7 } from "../../../platform/ids.js";
import { type Dec, dec, toMoney } from "../../../platform/money.js";
import {
  BANK_JOURNAL,
  contactSubaccountCode,
  postSourceEntry,
  reverseEntry,
  type SourceEntryInput,
  type SourceEntryLine,
  subaccountCode,
  subaccountLengthOf,
} from "../../accounting/index.js";
import { getContact } from "../../clients/index.js";
import { addDuePayment, type DueView, getDue, listDues, openDuesForMatching } from "../../documents/index.js";
import type { BankAccountRow } from "../bank-accounts/repository.js";
import { getBankAccount } from "../bank-accounts/service.js";
import type { PaymentDirection } from "../tables.js";
import type { PaymentRow } from "./repository.js";
import * as repo from "./repository.js";

export type { PaymentRow } from "./repository.js";

/** PGC 2007: 626 Servicios bancarios y similares (the fees a bank charges on a payment). */
const FEES_ACCOUNT = "626";

/** An open customer receipt or supplier payment due, as banking matches movements against it. */
export interface OpenDue {
  id: string;
  companyId: string;
  documentId: string;
  documentCode: string;
  code: string;
  dueDate: string;
  amount: string;
  openAmount: string;
  contactId: string;
  contactName: string;
  contactTaxId: string | null;
  supplierNumber: string | null;
}

/**
 * The open (not fully paid) dues of a company in one direction, by due date then code: all of
 * them, or a page with limit/offset, or the ones listed in dueIds.
 */
export async function listOpenDues(
  ctx: AuthedCtx,
  f: { companyId: string; direction: PaymentDirection; dueIds?: string[]; limit?: number; offset?: number },
): Promise<OpenDue[]> {
  const { rows } = await listDues(ctx, {
    companyId: f.companyId,
    direction: f.direction,
    status: "abierto",
    ids: f.dueIds,
    limit: f.limit ?? 1_000_000_000,
    offset: f.offset ?? 0,
  });
  return rows.map((d) => ({
    id: d.id,
    companyId: d.companyId,
    documentId: d.documentId,
    documentCode: d.documentCode,
    code: d.code,
    dueDate: d.dueDate,
    amount: d.amount,
    openAmount: d.openAmount,
    contactId: d.contactId,
    contactName: d.contactName,
    contactTaxId: d.contactTaxId,
    supplierNumber: d.supplierNumber,
  }));
}

/** Every open receipt and supplier payment due of a company, lean, for bank matching. */
export function listOpenDuesForMatching(ctx: AuthedCtx, companyId: string) {
  return openDuesForMatching(ctx, companyId);
}

export interface PayDueInput {
  dueId: string;
  date: string;
  amount: string;
  bankAccountId: string;
  fees?: string;
  /** The bank statement movement this payment reconciles (banking). */
  bankMovementId?: string | null;
}

const isZero = (v: Dec) => v.isZero();

/**
 * The entry of a payment, every amount signed (debit positive): the contact's subaccount takes the
 * amount on its side (receipts credit 430, payments debit 400), fees are debited to 626 and the
 * bank's 572 subaccount takes the rest. A receipt of 100 with 2 of fees: Dr 572 98, Dr 626 2,
 * Cr 430 100; a supplier payment of 100 with 2: Dr 400 100, Dr 626 2, Cr 572 102. A refund (a
 * negative amount, on a credit note) turns the contact and bank sides round.
 */
export function paymentLines(input: {
  direction: PaymentDirection;
  amount: string;
  fees: string;
  contactSubaccount: { code: string; name: string };
  bankSubaccount: { code: string; name: string };
  feesSubaccount: string;
  description: string;
}): SourceEntryLine[] {
  const amount = dec(input.amount);
  const contact = input.direction === "sale" ? amount.negated() : amount;
  const fees = dec(input.fees);
  const bank = contact.plus(fees).negated();
  const feesLine: [{ code: string; name: string }, Dec] = [
    { code: input.feesSubaccount, name: "Servicios bancarios y similares" },
    fees,
  ];
  // Written as an accountant reads them: the debits (bank or contact, then fees), then the credits.
  const signed: Array<[{ code: string; name: string }, Dec]> =
    input.direction === "sale"
      ? [[input.bankSubaccount, bank], feesLine, [input.contactSubaccount, contact]]
      : [[input.contactSubaccount, contact], feesLine, [input.bankSubaccount, bank]];
  return signed
    .filter(([, value]) => !isZero(value))
    .sort(([, a], [, b]) => (a.isPositive() === b.isPositive() ? 0 : a.isPositive() ? -1 : 1))
    .map(([sub, value]) => ({
      subaccountCode: sub.code,
      subaccountName: sub.name,
      ...(value.isPositive() ? { debit: toMoney(value) } : { credit: toMoney(value.negated()) }),
      description: input.description,
    }));
}

function assertAmountFits(due: DueView, amount: Dec, open: Dec) {
  const sign = dec(due.amount).isNegative() ? -1 : 1;
  if (amount.isZero() || amount.times(sign).isNegative())
    throw new BadRequestError(`amount must be ${sign > 0 ? "positive" : "negative"} for ${due.code}`, [
      { path: "amount", message: `must be ${sign > 0 ? "greater than 0" : "negative (a refund)"}` },
    ]);
  if (amount.times(sign).gt(open.times(sign)))
    throw new ConflictError(
      `${due.code} has ${toMoney(open)} open: a payment of ${toMoney(amount)} is more than that`,
    );
}

export function assertFeesValid(fees: Dec) {
  if (fees.isNegative())
    throw new BadRequestError("fees must not be negative", [
      { path: "fees", message: "must not be negative" },
    ]);
}

/**
 * The rules a payment of a due obeys (payDue and payDues): a bank account of the due's company,
 * active; an amount on the due's side of zero and no more than `open` (what is open of it now);
 * fees no larger than what a receipt brought in.
 */
export function assertPayable(due: DueView, bank: BankAccountRow, amount: Dec, fees: Dec, open: Dec) {
  if (bank.companyId !== due.companyId)
    throw new BadRequestError("The bank account belongs to another company than the due", [
      { path: "bank_account_id", message: "must be a bank account of the due's company" },
    ]);
  if (!bank.isActive) throw new ConflictError(`Bank account ${bank.name} is inactive`);
  assertAmountFits(due, amount, open);
  if (due.direction === "sale" && amount.isPositive() && fees.gt(amount))
    throw new BadRequestError("fees must not exceed the amount received", [
      { path: "fees", message: `must be at most ${toMoney(amount)}` },
    ]);
}

/** The entry of a payment as the ledger posts it (BAN journal, source linked to the payment). */
export function paymentEntry(input: {
  due: DueView;
  bank: BankAccountRow;
  paymentId: string;
  date: string;
  amount: Dec;
  fees: Dec;
  contact: { code: string; name: string };
  subaccountLength: number;
}): SourceEntryInput {
  const { due } = input;
  const sale = due.direction === "sale";
  const what = sale ? "Cobro" : "Pago";
  return {
    companyId: due.companyId,
    date: input.date,
    journal: BANK_JOURNAL,
    concept: `${what} ${due.code} ${due.contactName}`.slice(0, 500),
    source: { type: sale ? "customer_receipt_payment" : "supplier_payment", id: input.paymentId },
    lines: paymentLines({
      direction: due.direction,
      amount: toMoney(input.amount),
      fees: toMoney(input.fees),
      contactSubaccount: input.contact,
      bankSubaccount: { code: input.bank.subaccountCode, name: input.bank.name },
      feesSubaccount: subaccountCode(FEES_ACCOUNT, "", input.subaccountLength),
      description: `${what} ${due.code}`,
    }),
  };
}

/**
 * Records a payment of a due: posts its entry in the BAN journal (see paymentLines), saves it and
 * adds it to what was paid of the due and of the invoice — in the caller's transaction when ctx is
 * one. The due is locked first, so two payments cannot both take the same open amount. Paying
 * more than is open is a 409.
 */
export async function payDue(
  ctx: AuthedCtx,
  input: PayDueInput,
): Promise<{ paymentId: string; entryId: string }> {
  const amount = dec(input.amount);
  const fees = dec(input.fees ?? "0");
  assertFeesValid(fees);
  return inCtxTransaction(ctx, async (tx) => {
    const due = await getDue(tx, input.dueId, { lock: true });
    const bank = await getBankAccount(tx, input.bankAccountId);
    assertPayable(due, bank, amount, fees, dec(due.openAmount));
    const contact = await getContact(tx, due.contactId);
    const sale = due.direction === "sale";
    const contactCode = await contactSubaccountCode(tx, contact, sale ? "430" : "400", input.date);
    const paymentId = uuidv7();
    const entry = await postSourceEntry(
      tx,
      paymentEntry({
        due,
        bank,
        paymentId,
        date: input.date,
        amount,
        fees,
        contact: { code: contactCode, name: contact.name },
        subaccountLength: await subaccountLengthOf(tx, due.companyId),
      }),
    );
    await repo.insertPayment(tx.db, {
      id: paymentId,
      companyId: due.companyId,
      dueId: due.id,
      direction: due.direction,
      date: input.date,
      amount: toMoney(amount),
      fees: toMoney(fees),
      bankAccountId: bank.id,
      entryId: entry.id,
      bankMovementId: input.bankMovementId ?? null,
      createdBy: ctx.actor.userId,
    });
    await addDuePayment(tx, due, toMoney(amount));
    return { paymentId, entryId: entry.id };
  });
}

/** A payment the caller may see (404 otherwise). */
export async function getPayment(ctx: AuthedCtx, id: string, lock = false): Promise<PaymentRow> {
  return assertCompanyVisible(ctx.actor, await repo.findPayment(ctx.db, id, lock), "Payment");
}

/**
 * Undoes a payment: posts the reversal of its entry (dated `date`, by default the payment's own
 * date), marks it undone and gives the amount back to the due and the invoice, in one transaction.
 * A payment that reconciles a bank movement is undone only by unreconciling that movement (banking
 * passes its id as `bankMovementId`); otherwise 409. Undoing twice is a 409.
 */
export async function undoPayment(
  ctx: AuthedCtx,
  paymentId: string,
  opts: { date?: string; bankMovementId?: string } = {},
): Promise<PaymentRow> {
  return inCtxTransaction(ctx, async (tx) => {
    const payment = await getPayment(tx, paymentId, true);
    if (payment.undoneAt) throw new ConflictError("This payment is already undone");
    if (payment.bankMovementId && payment.bankMovementId !== opts.bankMovementId)
      throw new ConflictError(
        `This payment reconciles bank movement ${payment.bankMovementId}: unreconcile the movement (POST /api/bank-reconciliation/movements/${payment.bankMovementId}/unreconcile) to undo it`,
      );
    const due = await getDue(tx, payment.dueId, { lock: true });
    const reversal = await reverseEntry(tx, payment.entryId, { date: opts.date ?? payment.date });
    const row = await repo.markUndone(tx.db, payment.id, {
      undoneAt: new Date(),
      undoneBy: ctx.actor.userId,
      reversalEntryId: reversal.id,
    });
    await addDuePayment(tx, due, toMoney(dec(payment.amount).negated()));
    return row;
  });
}

/** The payments of some dues (undone ones included), by due. */
export async function paymentsOfDues(ctx: AuthedCtx, dueIds: string[]) {
  const rows = await repo.paymentsOfDues(ctx.db, dueIds);
  const byDue = new Map<string, Array<PaymentRow & { bankAccountName: string }>>();
  for (const { payment, bankAccountName } of rows) {
    const list = byDue.get(payment.dueId) ?? [];
    list.push({ ...payment, bankAccountName });
    byDue.set(payment.dueId, list);
  }
  return byDue;
}
