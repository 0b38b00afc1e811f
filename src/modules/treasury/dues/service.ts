import { today } from "../../../platform/dates.js";
import { allQueries } from "../../../platform/db/sql.js";
import type { AuthedCtx } from "../../../platform/http/context.js";
import { BadRequestError } from "../../../platform/http/errors.js";
import {
  addDue,
  changeDueDate,
  type DueStatusFilter,
  type DueView,
  getDue,
  listDues,
  splitDue,
} from "../../documents/index.js";
import { type PaymentRow, payDue, paymentsOfDues } from "../payments/service.js";
import type { PaymentDirection } from "../tables.js";

/**
 * Customer receipts (sale) and supplier payments due (purchase): the instalments of invoices,
 * listed with a status that says vencido once past due, changed while unpaid, and paid.
 */

export type DueStatus = "pendiente" | "parcial" | "pagado" | "vencido";

/** pagado, else vencido when its due date is before `asOf`, else pendiente or parcial. */
export function dueStatus(due: Pick<DueView, "estado" | "dueDate">, asOf = today()): DueStatus {
  if (due.estado === "pagado") return "pagado";
  return due.dueDate < asOf ? "vencido" : due.estado;
}

export interface DueListFilters {
  companyId?: string;
  status?: DueStatus;
  dateFrom?: string;
  dateTo?: string;
  contactId?: string;
  documentId?: string;
  search?: string;
  limit: number;
  offset: number;
  /** Keyset cursor: the id of the last due of the previous page. */
  after?: string;
}

export function listTreasuryDues(ctx: AuthedCtx, direction: PaymentDirection, f: DueListFilters) {
  if (f.dateFrom && f.dateTo && f.dateFrom > f.dateTo)
    throw new BadRequestError("date_from is after date_to", [
      { path: "date_from", message: "must not be after date_to" },
    ]);
  return listDues(ctx, { ...f, direction, status: f.status as DueStatusFilter | undefined });
}

export type PaymentWithBank = PaymentRow & { bankAccountName: string };

export interface DueDetail extends DueView {
  payments: PaymentWithBank[];
  /** Every instalment of the same invoice (this one included), by sequence. */
  instalments: DueView[];
}

export async function getTreasuryDue(
  ctx: AuthedCtx,
  direction: PaymentDirection,
  id: string,
): Promise<DueDetail> {
  const due = await getDue(ctx, id, { direction });
  const [payments, siblings] = await allQueries(ctx.db, [
    () => paymentsOfDues(ctx, [id]),
    () =>
      listDues(ctx, {
        companyId: due.companyId,
        direction,
        documentId: due.documentId,
        limit: 10000,
        offset: 0,
      }),
  ]);
  return {
    ...due,
    payments: payments.get(id) ?? [],
    instalments: siblings.rows.sort((a, b) => a.sequence - b.sequence),
  };
}

export async function createTreasuryDue(
  ctx: AuthedCtx,
  direction: PaymentDirection,
  input: { invoiceId: string; dueDate: string; amount: string },
) {
  const id = await addDue(ctx, {
    documentId: input.invoiceId,
    direction,
    dueDate: input.dueDate,
    amount: input.amount,
  });
  return getTreasuryDue(ctx, direction, id);
}

/** A new due date, or the instalment split into several (only while nothing of it is paid). */
export async function updateTreasuryDue(
  ctx: AuthedCtx,
  direction: PaymentDirection,
  id: string,
  changes: { dueDate?: string; instalments?: Array<{ dueDate: string; amount: string }> },
) {
  if (changes.instalments) await splitDue(ctx, id, direction, changes.instalments);
  else if (changes.dueDate) await changeDueDate(ctx, id, direction, changes.dueDate);
  return getTreasuryDue(ctx, direction, id);
}

/** Pays a receipt (or a supplier's due) from a bank account: see payDue. */
export async function payTreasuryDue(
  ctx: AuthedCtx,
  direction: PaymentDirection,
  id: string,
  input: { date: string; amount: string; bankAccountId: string; fees?: string },
) {
  await getDue(ctx, id, { direction });
  return payDue(ctx, { dueId: id, ...input });
}
