import { z } from "zod";
import { iso } from "../../../platform/dates.js";
import { moneyOutput } from "../../../platform/money.js";
import { STATEMENT_FORMATS } from "../tables.js";
import type { ImportResult, ImportRow } from "./service.js";

export const importOut = z.object({
  id: z.uuid(),
  company_id: z.uuid(),
  bank_account_id: z.uuid(),
  format: z.enum(STATEMENT_FORMATS),
  file_name: z.string(),
  sha256: z.string().describe("SHA-256 of the file: the same file again is recognised"),
  statement_count: z.number().int().describe("Statements of this bank account in the file"),
  date_from: z.string(),
  date_to: z.string(),
  opening_balance: moneyOutput,
  closing_balance: moneyOutput,
  movement_count: z.number().int(),
  imported_count: z.number().int(),
  skipped_count: z.number().int(),
  created_at: z.string(),
});

export const importResultOut = z.object({
  already_imported: z
    .boolean()
    .describe("true when nothing was new: the same file (import is the earlier one) or only known movements"),
  imported: z.number().int().describe("Movements saved now"),
  skipped: z.number().int().describe("Movements already imported before, not saved again"),
  suggested: z.number().int().describe("New movements with at least one suggestion (score >= 50)"),
  message: z.string(),
  import: importOut.nullable(),
});

export const toImportOut = (r: ImportRow): z.infer<typeof importOut> => ({
  id: r.id,
  company_id: r.companyId,
  bank_account_id: r.bankAccountId,
  format: r.format,
  file_name: r.fileName,
  sha256: r.sha256,
  statement_count: r.statementCount,
  date_from: r.dateFrom,
  date_to: r.dateTo,
  opening_balance: r.openingBalance,
  closing_balance: r.closingBalance,
  movement_count: r.movementCount,
  imported_count: r.importedCount,
  skipped_count: r.skippedCount,
  created_at: iso(r.createdAt),
});

export function toImportResultOut(r: ImportResult): z.infer<typeof importResultOut> {
  const message = r.alreadyImported
    ? r.import
      ? `This file was already imported on ${iso(r.import.createdAt)}: its ${r.skipped} movements were skipped, nothing was added`
      : `All ${r.skipped} movements of this file were already imported: nothing was added`
    : `${r.imported} movements imported, ${r.skipped} already known skipped, ${r.suggested} with suggestions`;
  return {
    already_imported: r.alreadyImported,
    imported: r.imported,
    skipped: r.skipped,
    suggested: r.suggested,
    message,
    import: r.import ? toImportOut(r.import) : null,
  };
}
