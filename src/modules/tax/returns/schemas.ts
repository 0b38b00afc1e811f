import { z } from "zod";
import { iso, isoOrNull } from "../../../platform/dates.js";
import { apiListQuery, apiPage } from "../../../platform/http/pagination.js";
import { moneyInput, toMoney } from "../../../platform/money.js";
import { DECLARATION_KINDS, DECLARATION_TYPES, RETURN_STATES, TAX_MODELS } from "../tables.js";
import type { Record349 } from "./aeat-files.js";
import type { BoxInvoice } from "./books-query.js";
import type { Issue390 } from "./compute-390.js";
import { layOutBoxes } from "./layout.js";
import type { CheckRow } from "./repository.js";
import { declarationTypeOf, type ReturnRow, resultOf } from "./service.js";

const model = z.enum(TAX_MODELS, { message: "must be 303, 390, 111, 115 or 349" });
const period = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^([1-4]T|0[1-9]|1[0-2]|0A)$/, { message: "must be 1T-4T, 01-12 (or 0A for the 390)" });

export const returnCreateBody = z.object({
  company_id: z.uuid().optional().describe("Defaults to the caller's company, or the tenant's only one"),
  model,
  year: z.number().int().min(2000).max(2999),
  period: period.describe("1T-4T (quarter) or 01-12 (month); 0A for the 390"),
  declaration_kind: z
    .enum(DECLARATION_KINDS)
    .optional()
    .describe("ordinaria (default), or complementaria / sustitutiva of a presented return"),
  previous_return_id: z
    .uuid()
    .optional()
    .describe("The presented return a complementaria or sustitutiva corrects"),
  previous_receipt: z
    .string()
    .regex(/^\d{13}$/, { message: "must be the 13-digit AEAT receipt" })
    .optional()
    .describe("The AEAT receipt of the corrected return, when it was presented outside Cuadra"),
});

export const returnPatchBody = z
  .object({
    manual_boxes: z
      .record(z.string().regex(/^\d{2,3}$/, { message: "must be a box number" }), moneyInput.nullable())
      .optional()
      .describe(
        "Boxes the accountant fills: 303 65, 77, 68, 108, 110, 78, 70, 109, 112; 111 29; 115 04; 390 85. null clears",
      ),
    declaration_type: z
      .enum(DECLARATION_TYPES)
      .nullable()
      .optional()
      .describe(
        "I/U/G to pay, C to compensate, D/X/V refund (last period only), N zero; null: implied by the result",
      ),
    iban: z.string().trim().max(34).nullable().optional().describe("Account to charge (U) or refund (D, X)"),
    previous_receipt: z
      .string()
      .regex(/^\d{13}$/)
      .nullable()
      .optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: "at least one field is required",
  });

export const reopenBody = z.object({
  reason: z.string().trim().min(3).max(500).describe("Why the confirmed return is reopened (audited)"),
});
export const presentBody = z.object({
  receipt: z
    .string()
    .regex(/^\d{13}$/, { message: "must be the 13-digit AEAT receipt" })
    .optional(),
});

export const returnListQuery = apiListQuery.extend({
  company_id: z.uuid().optional(),
  model: model.optional(),
  year: z.coerce.number().int().min(2000).max(2999).optional(),
});

export const returnBoxOut = z.object({
  box: z.string(),
  label: z.string(),
  value: z.string(),
  section: z
    .string()
    .describe("The form's section the box sits in (accrued, deductible, result...; other when unknown)"),
  unit: z.enum(["euros", "count"]).describe("count: recipients or operators, not euros"),
  manual: z.boolean().describe("The accountant fills it (PATCH manual_boxes accepts only these)"),
  formula: z.boolean().describe("A total or formula: its invoices are those of the boxes it adds"),
});

const record349Out = z.object({
  kind: z.enum(["operator", "rectification"]),
  key: z.string(),
  country: z.string(),
  vat_number: z.string(),
  name: z.string(),
  base: z.string().nullable(),
  year: z.number().int().nullable(),
  period: z.string().nullable(),
  new_base: z.string().nullable(),
  previous_base: z.string().nullable(),
});

export const returnOut = z.object({
  id: z.uuid(),
  company_id: z.uuid(),
  model: z.enum(TAX_MODELS),
  year: z.number().int(),
  period: z.string(),
  date_from: z.string(),
  date_to: z.string(),
  estado: z.enum(RETURN_STATES),
  declaration_kind: z.enum(DECLARATION_KINDS),
  previous_return_id: z.uuid().nullable(),
  previous_receipt: z.string().nullable(),
  declaration_type: z.enum(DECLARATION_TYPES).nullable().describe("Chosen, or implied by the result"),
  result: z
    .string()
    .nullable()
    .describe("303 box 71, 111 box 30, 115 box 05: positive to pay, negative to compensate"),
  boxes: z.record(z.string(), z.string()).describe("Box number -> amount (counts for recipient boxes)"),
  box_list: z.array(returnBoxOut).describe("The boxes with their AEAT labels and roles, in form order"),
  manual_boxes: z.record(z.string(), z.string()),
  records: z.array(record349Out).describe("349: operator and rectification records"),
  issues: z
    .array(
      z.object({
        box_303: z.string().describe("The 303 box"),
        rate: z.string().nullable().describe("The VAT rate, when the problem is one rate"),
        amount: z.string(),
        message: z.string(),
      }),
    )
    .describe("390: what of the year's 303s it cannot place; its file is a 409 until there is none"),
  iban: z.string().nullable(),
  entry_id: z.uuid().nullable().describe("The settlement entry (303)"),
  receipt: z.string().nullable(),
  computed_at: z.string(),
  confirmed_at: z.string().nullable(),
  presented_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export const returnPage = apiPage(returnOut);

export function toRecord349Out(r: Record349): z.infer<typeof record349Out> {
  return {
    kind: r.kind,
    key: r.key,
    country: r.country,
    vat_number: r.vatNumber,
    name: r.name,
    base: r.base ?? null,
    year: r.year ?? null,
    period: r.period ?? null,
    new_base: r.newBase ?? null,
    previous_base: r.previousBase ?? null,
  };
}

export function toReturnOut(r: ReturnRow): z.infer<typeof returnOut> {
  return {
    id: r.id,
    company_id: r.companyId,
    model: r.model,
    year: r.year,
    period: r.period,
    date_from: r.dateFrom,
    date_to: r.dateTo,
    estado: r.estado,
    declaration_kind: r.declarationKind,
    previous_return_id: r.previousReturnId,
    previous_receipt: r.previousReceipt,
    declaration_type: declarationTypeOf(r) as z.infer<typeof returnOut>["declaration_type"],
    result: resultOf(r),
    boxes: r.boxes,
    box_list: layOutBoxes(r.model, r.boxes),
    manual_boxes: r.manualBoxes,
    records: r.model === "349" ? (r.records as Record349[]).map(toRecord349Out) : [],
    issues: r.model === "390" ? (r.records as Issue390[]) : [],
    iban: r.iban,
    entry_id: r.entryId,
    receipt: r.receipt,
    computed_at: iso(r.computedAt),
    confirmed_at: isoOrNull(r.confirmedAt),
    presented_at: isoOrNull(r.presentedAt),
    created_at: iso(r.createdAt),
    updated_at: iso(r.updatedAt),
  };
}

export const checkOut = z.object({
  balanced: z.boolean().describe("true when the ledger holds exactly what the boxes say"),
  totals: z.array(
    z.object({ account: z.string(), boxes: z.string(), ledger: z.string(), difference: z.string() }),
  ),
  differences: z.array(
    z.object({
      account: z.string(),
      entry_id: z.uuid().nullable(),
      entry_number: z.number().int().nullable(),
      entry_date: z.string().nullable(),
      concept: z.string().nullable(),
      document_id: z.uuid().nullable(),
      document_code: z.string().nullable(),
      expected: z.string().describe("What the invoice's taxes put on the account"),
      posted: z.string().describe("What the ledger entry holds on the account"),
    }),
  ),
});

export function toCheckRowOut(d: CheckRow) {
  return {
    account: d.account === "4751R" ? "4751" : d.account,
    entry_id: d.entryId,
    entry_number: d.entryNumber,
    entry_date: d.entryDate,
    concept: d.concept,
    document_id: d.documentId,
    document_code: d.documentCode,
    expected: toMoney(d.expected),
    posted: toMoney(d.posted),
  };
}

export const eventOut = z.object({
  action: z.string(),
  reason: z.string(),
  user_id: z.uuid(),
  created_at: z.string(),
});

export const boxInvoicesOut = z.object({
  box: z.string(),
  invoices: z.array(
    z.object({
      document_id: z.uuid(),
      code: z.string(),
      direction: z.string(),
      date: z.string(),
      contact_name: z.string(),
      tax_code: z.string(),
      amount: z.string(),
    }),
  ),
});

export function toBoxInvoiceOut(i: BoxInvoice) {
  return {
    document_id: i.documentId,
    code: i.code,
    direction: i.direction,
    date: i.date,
    contact_name: i.contactName,
    tax_code: i.taxCode,
    amount: toMoney(i.amount),
  };
}
