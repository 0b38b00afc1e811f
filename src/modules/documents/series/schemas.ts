import { z } from "zod";
import { iso } from "../../../platform/dates.js";
import { apiListQuery, apiPage } from "../../../platform/http/pagination.js";
import { SERIES_KINDS } from "../tables.js";
import type { SeriesRow } from "./repository.js";

export const seriesCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]{1,4}$/, { message: "must be 1 to 4 letters or digits, e.g. A or FV" })
  .describe("1 to 4 letters (A-Z) or digits, unique in the company; lower case is turned to upper case");

export const seriesOut = z.object({
  id: z.uuid(),
  company_id: z.uuid(),
  code: z.string(),
  name: z.string(),
  kind: z.enum(SERIES_KINDS).describe("general, rectifying (rectifying invoices) or simplified (tickets)"),
  is_active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const seriesCreateBody = z.object({
  company_id: z.uuid().optional().describe("Defaults to the caller's company, or the tenant's only one"),
  code: seriesCode,
  name: z.string().trim().min(1).max(100),
  kind: z.enum(SERIES_KINDS),
  is_active: z.boolean().optional(),
});
export const seriesUpdateBody = seriesCreateBody
  .omit({ company_id: true })
  .partial()
  .refine((b) => Object.keys(b).length > 0, { message: "at least one field is required" });
export const seriesListQuery = apiListQuery.extend({
  company_id: z.uuid().optional().describe("Only this company's series"),
  kind: z.enum(SERIES_KINDS).optional(),
});
export const seriesPage = apiPage(seriesOut);

export type SeriesUpdateBody = z.infer<typeof seriesUpdateBody>;

export function toSeriesOut(s: SeriesRow): z.infer<typeof seriesOut> {
  return {
    id: s.id,
    company_id: s.companyId,
    code: s.code,
    name: s.name,
    kind: s.kind,
    is_active: s.isActive,
    created_at: iso(s.createdAt),
    updated_at: iso(s.updatedAt),
  };
}

export function fromSeriesBody(b: SeriesUpdateBody) {
  return { code: b.code, name: b.name, kind: b.kind, isActive: b.is_active };
}
