import { z } from "zod";
import { iso, isoOrNull } from "../../../platform/dates.js";
import {
  afterCursorQuery,
  apiBoundedPage,
  apiListQuery,
  queryDate,
} from "../../../platform/http/pagination.js";
import { moneyInput, moneyOutput, nonNegative } from "../../../platform/money.js";
import type { DueView } from "../../documents/index.js";
import type { PaymentRow } from "../payments/service.js";
import { type DueDetail, type DueStatus, dueStatus, type PaymentWithBank } from "./service.js";

export const DUE_STATUSES = ["pendiente", "parcial", "pagado", "vencido"] as const;

const statusOut = z
  .enum(DUE_STATUSES)
  .describe("pagado; vencido when not fully paid and past its due date; else pendiente or parcial");

export const dueOut = z.object({
  id: z.uuid(),
  company_id: z.uuid(),
  code: z.string().describe("The invoice's code and the instalment's number, e.g. FV2026-000123/1"),
  invoice_id: z.uuid(),
  invoice_code: z.string(),
  invoice_date: z.string(),
  sequence: z.number().int(),
  contact_id: z.uuid(),
  contact_name: z.string(),
  contact_tax_id: z.string().nullable(),
  supplier_number: z.string().nullable().describe("Purchases: the supplier's own invoice number"),
  due_date: z.string(),
  amount: moneyOutput,
  paid_amount: moneyOutput,
  open_amount: moneyOutput,
  status: statusOut,
  created_at: z.string(),
  updated_at: z.string(),
});

export const paymentOut = z.object({
  id: z.uuid(),
  company_id: z.uuid(),
  due_id: z.uuid(),
  direction: z.enum(["sale", "purchase"]),
  date: z.string(),
  amount: moneyOutput,
  fees: moneyOutput,
  bank_account_id: z.uuid(),
  entry_id: z.uuid().describe("The payment's entry in the BAN journal"),
  bank_movement_id: z.uuid().nullable().describe("The bank movement it reconciles, if any"),
  undone: z.boolean(),
  undone_at: z.string().nullable(),
  reversal_entry_id: z.uuid().nullable(),
  created_at: z.string(),
});

export const dueDetailOut = dueOut.extend({
  payments: z.array(paymentOut.extend({ bank_account_name: z.string() })).describe("Undone ones included"),
  instalments: z.array(dueOut).describe("Every instalment of the same invoice, this one included"),
});

export const duePage = apiBoundedPage(dueOut);

export const dueListQuery = apiListQuery.extend({
  company_id: z.uuid().optional(),
  status: z.enum(DUE_STATUSES).optional(),
  date_from: queryDate.optional().describe("Due on or after this date"),
  date_to: queryDate.optional().describe("Due on or before this date"),
  contact_id: z.uuid().optional(),
  invoice_id: z.uuid().optional(),
  after: afterCursorQuery,
});

const positiveOrNegative = moneyInput.refine((v) => Number(v) !== 0, { message: "must not be zero" });

export const dueCreateBody = z.object({
  invoice_id: z
    .uuid()
    .describe("An issued sales invoice (receipts) or an approved purchase invoice (payments)"),
  due_date: z.iso.date(),
  amount: positiveOrNegative.describe(
    "Taken from what the invoice's instalments do not cover yet, else out of its last larger unpaid instalment",
  ),
});

export const dueUpdateBody = z
  .object({
    due_date: z.iso.date().optional().describe("A new due date (not on a fully paid instalment)"),
    instalments: z
      .array(z.object({ due_date: z.iso.date(), amount: positiveOrNegative }))
      .min(2)
      .max(60)
      .optional()
      .describe("Split an unpaid instalment: parts adding up to its amount; the first keeps its id"),
  })
  .refine((b) => (b.due_date === undefined) !== (b.instalments === undefined), {
    message: "give either due_date or instalments",
  });

export const payBody = z.object({
  date: z.iso.date(),
  amount: moneyInput.describe("What is paid now: up to the open amount (more is a 409)"),
  bank_account_id: z.uuid(),
  fees: nonNegative(moneyInput).optional().describe("Bank fees charged on it (Dr 626)"),
});

export const undoBody = z
  .object({
    date: z.iso.date().optional().describe("Date of the reversal entry; default the payment's date"),
  })
  .optional();

function status(d: DueView): DueStatus {
  return dueStatus(d);
}

export function toDueOut(d: DueView): z.infer<typeof dueOut> {
  return {
    id: d.id,
    company_id: d.companyId,
    code: d.code,
    invoice_id: d.documentId,
    invoice_code: d.documentCode,
    invoice_date: d.documentIssueDate,
    sequence: d.sequence,
    contact_id: d.contactId,
    contact_name: d.contactName,
    contact_tax_id: d.contactTaxId,
    supplier_number: d.supplierNumber,
    due_date: d.dueDate,
    amount: d.amount,
    paid_amount: d.paidAmount,
    open_amount: d.openAmount,
    status: status(d),
    created_at: iso(d.createdAt),
    updated_at: iso(d.updatedAt),
  };
}

export function toPaymentOut(p: PaymentRow): z.infer<typeof paymentOut> {
  return {
    id: p.id,
    company_id: p.companyId,
    due_id: p.dueId,
    direction: p.direction,
    date: p.date,
    amount: p.amount,
    fees: p.fees,
    bank_account_id: p.bankAccountId,
    entry_id: p.entryId,
    bank_movement_id: p.bankMovementId,
    undone: p.undoneAt !== null,
    undone_at: isoOrNull(p.undoneAt),
    reversal_entry_id: p.reversalEntryId,
    created_at: iso(p.createdAt),
  };
}

export function toDueDetailOut(d: DueDetail): z.infer<typeof dueDetailOut> {
  return {
    ...toDueOut(d),
    payments: d.payments.map((p: PaymentWithBank) => ({
      ...toPaymentOut(p),
      bank_account_name: p.bankAccountName,
    })),
    instalments: d.instalments.map(toDueOut),
  };
}

export const payResultOut = paymentOut.extend({ due: dueOut.describe("The instalment after the payment") });
