import type { Db } from "../../../platform/db/client.js";
import type { AuthedCtx } from "../../../platform/http/context.js";
import { getCompany } from "../../companies/index.js";
import * as repo from "./repository.js";

export type { TaxSettingsChanges, TaxSettingsRow } from "./repository.js";

/** A company's tax settings (404 for a company the caller may not see); unset fields are null. */
export async function getTaxSettings(ctx: AuthedCtx, companyId: string): Promise<repo.TaxSettingsRow> {
  const company = await getCompany(ctx, companyId);
  return (await taxSettingsOf(ctx.db, company.id)) ?? empty(company.id, company.createdAt);
}

export async function updateTaxSettings(
  ctx: AuthedCtx,
  companyId: string,
  changes: repo.TaxSettingsChanges,
): Promise<repo.TaxSettingsRow> {
  const company = await getCompany(ctx, companyId);
  return repo.upsertTaxSettings(ctx.db, company.id, changes);
}

/** The stored settings of a company already resolved (the 390 file reads them). */
export const taxSettingsOf = (db: Db, companyId: string) => repo.findTaxSettings(db, companyId);

const empty = (companyId: string, updatedAt: Date): repo.TaxSettingsRow => ({
  companyId,
  activityDescription: null,
  activityKey: null,
  iaeEpigraph: null,
  updatedAt,
});
