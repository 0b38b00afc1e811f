import type { AuthedCtx } from "../../../platform/http/context.js";
import { getCompany } from "../../companies/index.js";
import { DEFAULT_DOCUMENT_SETTINGS } from "../defaults.js";
import type { DocumentSettingsRow } from "./repository.js";
import * as repo from "./repository.js";

export type { DocumentSettingsRow } from "./repository.js";

export interface DocumentSettingsChanges {
  taxRegime?: DocumentSettingsRow["taxRegime"];
  autoPosting?: boolean;
  salesAccount?: string;
  purchasesAccount?: string;
  salesReturnsAccount?: string | null;
  suppliedAccount?: string;
}

/**
 * A company's document settings (404 for a company the caller may not see). A company always has
 * its row (created with it, or by migration); were it missing, the defaults it would hold are
 * returned without writing, so reads stay reads.
 */
export async function getDocumentSettings(ctx: AuthedCtx, companyId: string): Promise<DocumentSettingsRow> {
  const company = await getCompany(ctx, companyId);
  const row = await repo.findDocumentSettings(ctx.db, company.id);
  return row ?? { companyId: company.id, ...DEFAULT_DOCUMENT_SETTINGS, updatedAt: company.createdAt };
}

export async function updateDocumentSettings(
  ctx: AuthedCtx,
  companyId: string,
  changes: DocumentSettingsChanges,
): Promise<DocumentSettingsRow> {
  const company = await getCompany(ctx, companyId);
  return repo.upsertDocumentSettings(ctx.db, company.id, changes);
}
