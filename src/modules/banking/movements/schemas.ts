import { z } from "zod";
import { iso, isoOrNull } from "../../../platform/dates.js";
import {
  afterCursorQuery,
  apiBoundedPage,
  apiListQuery,
  queryDate,
} from "../../../platform/http/pagination.js";
import { moneyInput, moneyOutput, nonNegative } from "../../../platform/money.js";
import { POINTS } from "../matching.js";
import { MOVEMENT_STATES, RECONCILIATION_TARGETS } from "../tables.js";
import type { AutoMatchResult, MovementView } from "./service.js";

export const reasonOut = z.object({
  code: z
    .enum(Object.keys(POINTS) as [keyof typeof POINTS, ...(keyof typeof POINTS)[]])
    .describe(
      "amount_exact (40), amount_close (25, within max(1.00, 1 %)), reference (30: invoice code or supplier number in the texts), tax_id (20), name (10), due_date (10: within 7 days)",
    ),
  points: z.number().int(),
  detail: z.string(),
});

export const suggestionOut = z.object({
  target: z
    .enum(["receipt", "payment"])
    .describe("receipt: a customer receipt; payment: a supplier payment due"),
  id: z.uuid().describe("The receipt's or payment's id (POST .../reconcile with this target and id)"),
  document_id: z.uuid(),
  document_code: z.string(),
  due_code: z.string(),
  contact_name: z.string(),
  contact_tax_id: z.string().nullable(),
  due_date: z.string(),
  open_amount: moneyOutput,
  score: z.number().int().describe("0-100; 85+ alone may be reconciled by auto-match, 50-84 is a suggestion"),
  reasons: z.array(reasonOut),
});

export const reconciliationOut = z.object({
  id: z.uuid(),
  target: z.enum(RECONCILIATION_TARGETS),
  due_id: z.uuid().nullable(),
  payment_id: z
    .uuid()
    .nullable()
    .describe("The treasury payment recorded for it (receipt and payment targets)"),
  entry_id: z.uuid().describe("The payment's entry, or the ledger entry linked"),
  amount: moneyOutput,
  fees: moneyOutput,
  origin: z.enum(["manual", "auto"]),
  created_at: z.string(),
});

export const movementOut = z.object({
  id: z.uuid(),
  company_id: z.uuid(),
  bank_account_id: z.uuid(),
  import_id: z.uuid(),
  position: z.string().describe('Where it was in its file: "line 12" or "Stmt 1, Ntry 3"'),
  operation_date: z.string(),
  value_date: z.string(),
  amount: moneyOutput.describe("Signed: credits (money in) positive, debits negative"),
  common_concept: z.string().describe("Norma 43 common concept (04 transfers, 17 fees...) or CAMT bank code"),
  own_concept: z.string(),
  document: z.string(),
  reference_1: z.string(),
  reference_2: z.string(),
  concepts: z.array(z.string()),
  foreign_currency: z.string().nullable(),
  foreign_amount: moneyOutput.nullable(),
  status: z.enum(MOVEMENT_STATES),
  suggestions: z.array(suggestionOut).describe("Best first; only for pendiente and sugerido movements"),
  reconciliation: reconciliationOut.nullable(),
  created_at: z.string(),
});
export const movementPage = apiBoundedPage(movementOut);

export const movementListQuery = apiListQuery.omit({ include_inactive: true }).extend({
  company_id: z.uuid().optional(),
  status: z.enum(MOVEMENT_STATES).optional(),
  bank_account_id: z.uuid().optional(),
  date_from: queryDate.optional().describe("Operation date from (inclusive)"),
  date_to: queryDate.optional().describe("Operation date to (inclusive)"),
  min_amount: moneyInput.optional().describe("Signed amount at least this"),
  max_amount: moneyInput.optional().describe("Signed amount at most this"),
  search: z.string().trim().max(200).optional().describe("Text in the concepts, references or document"),
  after: afterCursorQuery,
});

export const reconcileBody = z.object({
  target: z.enum(RECONCILIATION_TARGETS),
  id: z.uuid().describe("The open receipt, the open supplier payment due or the ledger entry"),
  fees: nonNegative(moneyInput)
    .optional()
    .describe(
      "Bank fees (Dr 626), receipts and payments only: the receipt is paid the movement plus the fees, the supplier payment the movement minus them",
    ),
});

export const autoMatchBody = z
  .object({
    company_id: z.uuid().optional().describe("Defaults to the caller's company, or the tenant's only one"),
    bank_account_id: z.uuid().optional().describe("Only this bank account's movements"),
  })
  .nullish();

export const autoMatchOut = z.object({
  company_id: z.uuid(),
  examined: z.number().int().describe("Open movements (pendiente, sugerido) looked at"),
  suggested: z.number().int().describe("Of them, with at least one suggestion"),
  applied: z.array(
    z.object({
      movement_id: z.uuid(),
      target: z.enum(["receipt", "payment"]),
      id: z.uuid(),
      document_code: z.string(),
      score: z.number().int(),
      payment_id: z.uuid(),
      entry_id: z.uuid(),
    }),
  ),
  ambiguous: z
    .number()
    .int()
    .describe(
      "Movements with an 85+ candidate left for a person: two 85+ candidates, or a due two movements claim",
    ),
  failed: z.array(z.object({ movement_id: z.uuid(), id: z.uuid(), reason: z.string() })),
});

export function toMovementOut(v: MovementView): z.infer<typeof movementOut> {
  const r = v.row;
  const rec = v.reconciliation;
  return {
    id: r.id,
    company_id: r.companyId,
    bank_account_id: r.bankAccountId,
    import_id: r.importId,
    position: r.position,
    operation_date: r.operationDate,
    value_date: r.valueDate,
    amount: r.amount,
    common_concept: r.commonConcept,
    own_concept: r.ownConcept,
    document: r.document,
    reference_1: r.reference1,
    reference_2: r.reference2,
    concepts: r.concepts,
    foreign_currency: r.foreignCurrency,
    foreign_amount: r.foreignAmount,
    status: r.estado,
    suggestions: v.suggestions.map((s) => ({
      target: s.target,
      id: s.dueId,
      document_id: s.due.documentId,
      document_code: s.due.documentCode,
      due_code: s.due.code,
      contact_name: s.due.contactName,
      contact_tax_id: s.due.contactTaxId,
      due_date: s.due.dueDate,
      open_amount: s.due.openAmount,
      score: s.score,
      reasons: s.reasons,
    })),
    reconciliation: rec
      ? {
          id: rec.id,
          target: rec.target,
          due_id: rec.dueId,
          payment_id: rec.paymentId,
          entry_id: rec.entryId,
          amount: rec.amount,
          fees: rec.fees,
          origin: rec.origin,
          created_at: iso(rec.createdAt),
        }
      : null,
    created_at: isoOrNull(r.createdAt) ?? "",
  };
}

export const toAutoMatchOut = (r: AutoMatchResult): z.infer<typeof autoMatchOut> => ({
  company_id: r.companyId,
  examined: r.examined,
  suggested: r.suggested,
  applied: r.applied.map((a) => ({
    movement_id: a.movementId,
    target: a.target,
    id: a.dueId,
    document_code: a.documentCode,
    score: a.score,
    payment_id: a.paymentId,
    entry_id: a.entryId,
  })),
  ambiguous: r.ambiguous,
  failed: r.failed.map((f) => ({ movement_id: f.movementId, id: f.dueId, reason: f.reason })),
});
