import { z } from "zod";
import { iso } from "../../../platform/dates.js";
import { apiListQuery, apiPage } from "../../../platform/http/pagination.js";
import type { PaymentTermLine } from "../tables.js";
import type { PaymentTermRow } from "./repository.js";

const LINE_KINDS = ["percent", "fixed", "balance"] as const;

export const paymentTermLineOut = z.object({
  kind: z.enum(LINE_KINDS),
  value: z.string().nullable().describe("Percent of the total, or fixed amount; null on the balance line"),
  days: z.number().int(),
  end_of_month: z.boolean(),
});

export const paymentTermOut = z.object({
  id: z.uuid(),
  company_id: z.uuid(),
  code: z.string(),
  name: z.string(),
  lines: z.array(paymentTermLineOut),
  is_active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const paymentTermLineBody = z.object({
  kind: z
    .enum(LINE_KINDS)
    .describe("percent of the total, fixed amount, or balance (what the other lines leave; last line only)"),
  value: z
    .string()
    .trim()
    .regex(/^\d{1,15}(\.\d{1,4})?$/, { message: 'must be a positive decimal string, e.g. "50" or "100.00"' })
    .optional()
    .describe(
      "percent: greater than 0, at most 100; fixed: an amount with 2 decimals at most; balance: none",
    ),
  days: z.number().int().min(0).max(3660).describe("Days after the issue date"),
  end_of_month: z.boolean().optional().describe("Due at the end of the month those days fall in"),
});

export const paymentTermCreateBody = z.object({
  company_id: z.uuid().optional().describe("Defaults to the caller's company, or the tenant's only one"),
  code: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9][A-Z0-9_-]{0,19}$/, { message: "must be up to 20 letters, digits, - or _, e.g. 30D" })
    .describe("Unique in the company; lower case is turned to upper case"),
  name: z.string().trim().min(1).max(200),
  lines: z
    .array(paymentTermLineBody)
    .min(1, { message: "a payment term needs at least one line" })
    .max(24)
    .describe("The instalments, in order; they must cover the whole total (end with a balance line)"),
  is_active: z.boolean().optional(),
});
export const paymentTermUpdateBody = paymentTermCreateBody
  .omit({ company_id: true })
  .partial()
  .refine((b) => Object.keys(b).length > 0, { message: "at least one field is required" });
export const paymentTermListQuery = apiListQuery.extend({
  company_id: z.uuid().optional().describe("Only this company's payment terms"),
});
export const paymentTermPage = apiPage(paymentTermOut);

export type PaymentTermUpdateBody = z.infer<typeof paymentTermUpdateBody>;
type PaymentTermLineBody = z.infer<typeof paymentTermLineBody>;

export function toPaymentTermOut(p: PaymentTermRow): z.infer<typeof paymentTermOut> {
  return {
    id: p.id,
    company_id: p.companyId,
    code: p.code,
    name: p.name,
    lines: p.lines.map((l) => ({
      kind: l.kind,
      value: l.value ?? null,
      days: l.days,
      end_of_month: l.endOfMonth ?? false,
    })),
    is_active: p.isActive,
    created_at: iso(p.createdAt),
    updated_at: iso(p.updatedAt),
  };
}

const fromLineBody = (l: PaymentTermLineBody): PaymentTermLine => ({
  kind: l.kind,
  value: l.value,
  days: l.days,
  endOfMonth: l.end_of_month,
});

export function fromPaymentTermBody(b: PaymentTermUpdateBody) {
  return { code: b.code, name: b.name, lines: b.lines?.map(fromLineBody), isActive: b.is_active };
}
