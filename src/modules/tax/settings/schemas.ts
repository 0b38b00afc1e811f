import { z } from "zod";
import { iso } from "../../../platform/dates.js";
import { ACTIVITY_KEYS } from "../returns/dr390.js";
import type { TaxSettingsChanges, TaxSettingsRow } from "./repository.js";

export const companyIdParams = z.object({ company_id: z.uuid() });

export const taxSettingsOut = z.object({
  company_id: z.uuid(),
  activity_description: z.string().nullable().describe("390 page 01: the main activity"),
  activity_key: z.enum(ACTIVITY_KEYS).nullable().describe("390 page 01: the AEAT activity key"),
  iae_epigraph: z.string().nullable().describe("390 page 01: the IAE epígrafe of the main activity"),
  updated_at: z.string(),
});

export const taxSettingsBody = z
  .object({
    activity_description: z
      .string()
      .trim()
      .min(1, { message: "must not be empty" })
      .max(40, { message: "must be at most 40 characters (390 page 01)" })
      .nullable()
      .optional()
      .describe("The main activity as the 390 describes it, e.g. Construcción de edificios"),
    activity_key: z
      .enum(ACTIVITY_KEYS, { message: `must be one of ${ACTIVITY_KEYS.join(", ")}` })
      .nullable()
      .optional()
      .describe("A01-A05 business and professional activities, B01-B05 farming and fishing, C not begun"),
    iae_epigraph: z
      .string()
      .trim()
      .transform((v) => v.replace(".", ""))
      .pipe(
        z.string().regex(/^\d{3,4}$/, { message: "must be an IAE epígrafe of 3 or 4 digits, e.g. 501.1" }),
      )
      .nullable()
      .optional()
      .describe("The IAE epígrafe, e.g. 501.1 (written 5011)"),
  })
  .refine((b) => Object.keys(b).length > 0, { message: "at least one field is required" });

export function toTaxSettingsOut(s: TaxSettingsRow): z.infer<typeof taxSettingsOut> {
  return {
    company_id: s.companyId,
    activity_description: s.activityDescription,
    activity_key: s.activityKey as z.infer<typeof taxSettingsOut>["activity_key"],
    iae_epigraph: s.iaeEpigraph,
    updated_at: iso(s.updatedAt),
  };
}

export function fromTaxSettingsBody(b: z.infer<typeof taxSettingsBody>): TaxSettingsChanges {
  return {
    activityDescription: b.activity_description,
    activityKey: b.activity_key,
    iaeEpigraph: b.iae_epigraph,
  };
}
