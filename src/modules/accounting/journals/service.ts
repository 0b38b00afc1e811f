import { assertCompanyVisible, companyFilter } from "../../../platform/auth/company-scope.js";
import type { Db } from "../../../platform/db/client.js";
import type { AuthedCtx } from "../../../platform/http/context.js";
import { BadRequestError, ConflictError } from "../../../platform/http/errors.js";
import { resolveCompanyForWrite } from "../../companies/index.js";
import { type JournalType, journals } from "../tables.js";
import * as repo from "./repository.js";

/** The journal an entry goes to when it names none; created on first use. */
export const DEFAULT_JOURNAL = { code: "GEN", name: "General", type: "general" } as const;

export interface JournalListFilters {
  companyId?: string;
  type?: JournalType;
  search?: string;
  includeInactive?: boolean;
  limit: number;
  offset: number;
}

export function listJournals(ctx: AuthedCtx, f: JournalListFilters) {
  return repo.listJournals(ctx.db, {
    scope: companyFilter(ctx.actor, journals.companyId, f.companyId),
    type: f.type,
    search: f.search,
    includeInactive: f.includeInactive ?? false,
    limit: f.limit,
    offset: f.offset,
  });
}

export async function getJournal(ctx: AuthedCtx, id: string) {
  return assertCompanyVisible(ctx.actor, await repo.findJournal(ctx.db, id), "Journal");
}

export async function createJournal(
  ctx: AuthedCtx,
  input: { companyId?: string; code: string; name: string; type: JournalType },
) {
  const companyId = await resolveCompanyForWrite(ctx, input.companyId);
  if (await repo.findJournalByCode(ctx.db, companyId, input.code))
    throw new ConflictError(`The company already has a journal ${input.code}`);
  return repo.insertJournal(ctx.db, { companyId, code: input.code, name: input.name, type: input.type });
}

/** The journal named by an entry (400 when unknown or inactive), or the default one. */
export async function journalForEntry(tx: Db, companyId: string, code?: string) {
  if (!code) {
    const journal =
      (await repo.findJournalByCode(tx, companyId, DEFAULT_JOURNAL.code)) ??
      (await repo.insertJournalIfMissing(tx, { companyId, ...DEFAULT_JOURNAL }));
    if (!journal) throw new Error("the default journal could not be created");
    return journal;
  }
  const journal = await repo.findJournalByCode(tx, companyId, code);
  if (!journal?.isActive) {
    throw new BadRequestError(`Unknown journal ${code}`, [
      { path: "journal", message: "no active journal of the company has this code" },
    ]);
  }
  return journal;
}
