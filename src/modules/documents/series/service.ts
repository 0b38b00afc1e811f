import { assertCompanyVisible, companyFilter } from "../../../platform/auth/company-scope.js";
import { type AuthedCtx, inCtxTransaction } from "../../../platform/http/context.js";
import { ConflictError } from "../../../platform/http/errors.js";
import { resolveCompanyForWrite } from "../../companies/index.js";
import { documentSeries, type SeriesKind } from "../tables.js";
import type { SeriesRow } from "./repository.js";
import * as repo from "./repository.js";

export type { SeriesRow } from "./repository.js";

export interface SeriesListFilters {
  companyId?: string;
  kind?: SeriesKind;
  search?: string;
  includeInactive?: boolean;
  limit: number;
  offset: number;
}

export interface SeriesChanges {
  code?: string;
  name?: string;
  kind?: SeriesKind;
  isActive?: boolean;
}

export type NewSeries = SeriesChanges & { code: string; name: string; kind: SeriesKind; companyId?: string };

export async function getSeries(ctx: AuthedCtx, id: string): Promise<SeriesRow> {
  return assertCompanyVisible(ctx.actor, await repo.findSeries(ctx.db, id), "Series");
}

export function listSeries(ctx: AuthedCtx, f: SeriesListFilters) {
  return repo.listSeries(ctx.db, {
    scope: companyFilter(ctx.actor, documentSeries.companyId, f.companyId),
    kind: f.kind,
    search: f.search,
    includeInactive: f.includeInactive ?? false,
    limit: f.limit,
    offset: f.offset,
  });
}

/** A company's series by its code (A, R, S...), active or not; undefined when it has none. */
export function findSeriesOfCompany(ctx: AuthedCtx, companyId: string, code: string) {
  return repo.findSeriesByCode(ctx.db, companyId, code);
}

async function assertCodeFree(ctx: AuthedCtx, companyId: string, code: string, exceptId?: string) {
  if (await repo.seriesCodeTaken(ctx.db, companyId, code, exceptId))
    throw new ConflictError(`A series with code ${code} already exists in this company`);
}

export async function createSeries(ctx: AuthedCtx, input: NewSeries): Promise<SeriesRow> {
  const { companyId: requested, ...values } = input;
  const companyId = await resolveCompanyForWrite(ctx, requested);
  await assertCodeFree(ctx, companyId, values.code);
  return repo.insertSeries(ctx.db, { ...values, companyId });
}

/**
 * Renames, (de)activates, or — while no document uses it — recodes or rekinds a series. Documents
 * print their series' code, and numbering follows its kind: once used, both are fixed (409).
 */
export async function updateSeries(ctx: AuthedCtx, id: string, changes: SeriesChanges): Promise<SeriesRow> {
  return inCtxTransaction(ctx, async (tx) => {
    const current = await getSeries(tx, id);
    const recode = changes.code !== undefined && changes.code !== current.code;
    const rekind = changes.kind !== undefined && changes.kind !== current.kind;
    if ((recode || rekind) && (await repo.seriesInUse(tx.db, id))) {
      throw new ConflictError(
        `Series ${current.code} is used by documents: its ${recode ? "code" : "kind"} cannot change ` +
          "(create another series, or deactivate this one)",
      );
    }
    if (recode) await assertCodeFree(tx, current.companyId, changes.code!, id);
    return repo.updateSeries(tx.db, id, changes);
  });
}
