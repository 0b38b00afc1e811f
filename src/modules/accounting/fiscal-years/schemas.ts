import { z } from "zod";
import { addOneYear, iso } from "../../../platform/dates.js";
import { apiListQuery, apiPage, queryDate } from "../../../platform/http/pagination.js";
import { companyIdParam, fiscalYearCode } from "../params.js";
import { FISCAL_YEAR_STATES } from "../tables.js";
import type { FiscalYearRow } from "./repository.js";

export const fiscalYearOut = z.object({
  id: z.uuid(),
  company_id: z.uuid(),
  code: z.string(),
  start_date: z.string(),
  end_date: z.string(),
  estado: z.enum(FISCAL_YEAR_STATES),
  last_entry_number: z.number().int().describe("Number of the last entry posted in the year"),
  created_at: z.string(),
  updated_at: z.string(),
});
export const fiscalYearCreateBody = z
  .object({
    company_id: companyIdParam,
    code: fiscalYearCode,
    start_date: queryDate,
    end_date: queryDate,
  })
  .superRefine((b, ctx) => {
    if (b.end_date < b.start_date)
      ctx.addIssue({ code: "custom", path: ["end_date"], message: "must not be before start_date" });
    else if (b.end_date >= addOneYear(b.start_date))
      ctx.addIssue({ code: "custom", path: ["end_date"], message: "a fiscal year lasts 12 months at most" });
  });
export const fiscalYearStateBody = z.object({ estado: z.enum(FISCAL_YEAR_STATES) });
export const fiscalYearListQuery = apiListQuery.extend({
  company_id: companyIdParam,
  estado: z.enum(FISCAL_YEAR_STATES).optional(),
});
export const fiscalYearPage = apiPage(fiscalYearOut);

export function fromFiscalYearCreateBody(b: z.infer<typeof fiscalYearCreateBody>) {
  return { companyId: b.company_id, code: b.code, startDate: b.start_date, endDate: b.end_date };
}

export function toFiscalYearOut(y: FiscalYearRow): z.infer<typeof fiscalYearOut> {
  return {
    id: y.id,
    company_id: y.companyId,
    code: y.code,
    start_date: y.startDate,
    end_date: y.endDate,
    estado: y.estado,
    last_entry_number: y.lastEntryNumber,
    created_at: iso(y.createdAt),
    updated_at: iso(y.updatedAt),
  };
}
