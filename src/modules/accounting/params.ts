import { z } from "zod";

/** Request fields every ledger aggregate shares (fiscal years, chart, entries, balances). */

export const companyIdParam = z
  .uuid({ message: "must be a UUID" })
  .optional()
  .describe("Company; optional for callers restricted to one company or tenants with a single company");
export const fiscalYearCode = z.string().trim().min(1).max(20).describe('Fiscal year code, e.g. "2026"');
export const accountCodeParam = z
  .string()
  .trim()
  .regex(/^\d{1,15}$/, { message: "must be 1 to 15 digits" })
  .describe("Account code or code prefix: group (1 digit), subgroup (2), account (3+), subaccount");
