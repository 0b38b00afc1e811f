import { z } from "zod";
import { iso } from "../../../platform/dates.js";
import { apiListQuery, apiPage } from "../../../platform/http/pagination.js";
import { companyIdParam } from "../params.js";
import { JOURNAL_TYPES } from "../tables.js";
import type { JournalRow } from "./repository.js";

export const journalOut = z.object({
  id: z.uuid(),
  company_id: z.uuid(),
  code: z.string(),
  name: z.string(),
  type: z.enum(JOURNAL_TYPES),
  is_active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export const journalCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9_-]{1,20}$/, { message: "must be 1 to 20 letters, digits, - or _" });
export const journalCreateBody = z.object({
  company_id: companyIdParam,
  code: journalCode,
  name: z.string().trim().min(1).max(200),
  type: z.enum(JOURNAL_TYPES),
});
export const journalListQuery = apiListQuery.extend({
  company_id: companyIdParam,
  type: z.enum(JOURNAL_TYPES).optional(),
});
export const journalPage = apiPage(journalOut);

export function fromJournalCreateBody(b: z.infer<typeof journalCreateBody>) {
  return { companyId: b.company_id, code: b.code, name: b.name, type: b.type };
}

export function toJournalOut(j: JournalRow): z.infer<typeof journalOut> {
  return {
    id: j.id,
    company_id: j.companyId,
    code: j.code,
    name: j.name,
    type: j.type,
    is_active: j.isActive,
    created_at: iso(j.createdAt),
    updated_at: iso(j.updatedAt),
  };
}
