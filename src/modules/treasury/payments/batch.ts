import { type AuthedCtx, inCtxTransaction } from "../../../platform/http/context.js";
import { AppError, NotFoundError } from "../../../platform/http/errors.js";
import { uuidv7 } from "../../../platform/ids.js";
import { type Dec, dec, toMoney } from "../../../platform/money.js";
import { contactSubaccountCodes, postSourceEntries, subaccountLengthOf } from "../../accounting/index.js";
import { getContactsByIds } from "../../clients/index.js";
import { addDuePayments, type DueView, getDues } from "../../documents/index.js";
import type { BankAccountRow } from "../bank-accounts/repository.js";
import { getBankAccounts } from "../bank-accounts/service.js";
import * as repo from "./repository.js";
import { assertFeesValid, assertPayable, type PayDueInput, paymentEntry } from "./service.js";

/** Ids per IN list (a statement takes at most 65,535 parameters). */
const ID_CHUNK = 10_000;

/** What became of one payment of a batch: recorded, or refused for a business reason (4xx). */
export type PayDueOutcome = { paymentId: string; entryId: string } | { error: AppError };

function refusal(err: unknown): AppError {
  if (err instanceof AppError && err.status < 500) return err;
  throw err;
}

interface Accepted {
  i: number;
  input: PayDueInput;
  due: DueView;
  bank: BankAccountRow;
  amount: Dec;
  fees: Dec;
}

/**
 * payDue for many payments in one transaction (the caller's when ctx is one), with payDue's rules
 * and refusals per payment, set-based: the dues locked in one query (id order), bank accounts,
 * contacts and their subaccounts read once, the entries posted by the ledger's batch path (one
 * entry per payment, numbered in input order), payments inserted and the dues' and invoices' paid
 * amounts updated in multi-row statements. A payment refused (amount over what is open, a closed
 * year...) is its outcome and leaves no trace; the others are recorded. Payments of the same due
 * in one batch are checked against what the earlier ones left open.
 */
export async function payDues(ctx: AuthedCtx, inputs: PayDueInput[]): Promise<PayDueOutcome[]> {
  return inCtxTransaction(ctx, async (tx) => {
    const outcomes: Array<PayDueOutcome | undefined> = inputs.map(() => undefined);
    const dues = new Map(
      (
        await getDues(
          tx,
          inputs.map((p) => p.dueId),
          { lock: true },
        )
      ).map((d) => [d.id, d]),
    );
    const banks = new Map(
      (
        await getBankAccounts(
          tx,
          inputs.map((p) => p.bankAccountId),
        )
      ).map((b) => [b.id, b]),
    );
    const open = new Map<string, Dec>();
    const accepted: Accepted[] = [];
    for (const [i, input] of inputs.entries()) {
      try {
        const amount = dec(input.amount);
        const fees = dec(input.fees ?? "0");
        assertFeesValid(fees);
        const due = dues.get(input.dueId);
        if (!due) throw new NotFoundError("Due");
        const bank = banks.get(input.bankAccountId);
        if (!bank) throw new NotFoundError("Bank account");
        const left = open.get(due.id) ?? dec(due.openAmount);
        assertPayable(due, bank, amount, fees, left);
        open.set(due.id, left.minus(amount));
        accepted.push({ i, input, due, bank, amount, fees });
      } catch (err) {
        outcomes[i] = { error: refusal(err) };
      }
    }

    const contacts = new Map<string, Awaited<ReturnType<typeof getContactsByIds>>[number]>();
    const contactIds = [...new Set(accepted.map((a) => a.due.contactId))];
    for (let n = 0; n < contactIds.length; n += ID_CHUNK)
      for (const c of await getContactsByIds(tx, contactIds.slice(n, n + ID_CHUNK))) contacts.set(c.id, c);
    const withContact = accepted.filter((a) => {
      if (contacts.has(a.due.contactId)) return true;
      outcomes[a.i] = { error: new NotFoundError("Contact") };
      return false;
    });
    const codes = await contactSubaccountCodes(
      tx,
      withContact.map((a) => ({
        contact: contacts.get(a.due.contactId)!,
        account: a.due.direction === "sale" ? "430" : "400",
        date: a.input.date,
      })),
    );
    const lengths = new Map<string, number>();
    for (const companyId of new Set(withContact.map((a) => a.due.companyId)))
      lengths.set(companyId, await subaccountLengthOf(tx, companyId));

    const toPost: Array<Accepted & { paymentId: string; contactCode: string }> = [];
    withContact.forEach((a, n) => {
      const code = codes[n]!;
      if (code instanceof AppError) outcomes[a.i] = { error: code };
      else toPost.push({ ...a, paymentId: uuidv7(), contactCode: code });
    });
    const posted = await postSourceEntries(
      tx,
      toPost.map((a) =>
        paymentEntry({
          due: a.due,
          bank: a.bank,
          paymentId: a.paymentId,
          date: a.input.date,
          amount: a.amount,
          fees: a.fees,
          contact: { code: a.contactCode, name: contacts.get(a.due.contactId)!.name },
          subaccountLength: lengths.get(a.due.companyId)!,
        }),
      ),
    );

    const payments: repo.PaymentInsert[] = [];
    const paid: Array<{ due: DueView; delta: string }> = [];
    toPost.forEach((a, n) => {
      const result = posted[n]!;
      if ("error" in result) {
        outcomes[a.i] = { error: result.error };
        return;
      }
      payments.push({
        id: a.paymentId,
        companyId: a.due.companyId,
        dueId: a.due.id,
        direction: a.due.direction,
        date: a.input.date,
        amount: toMoney(a.amount),
        fees: toMoney(a.fees),
        bankAccountId: a.bank.id,
        entryId: result.entryId,
        bankMovementId: a.input.bankMovementId ?? null,
        createdBy: ctx.actor.userId,
      });
      paid.push({ due: a.due, delta: toMoney(a.amount) });
      outcomes[a.i] = { paymentId: a.paymentId, entryId: result.entryId };
    });
    await repo.insertPayments(tx.db, payments);
    await addDuePayments(tx, paid);
    return outcomes.map((o) => {
      if (!o) throw new Error("payDues left a payment without an outcome");
      return o;
    });
  });
}
