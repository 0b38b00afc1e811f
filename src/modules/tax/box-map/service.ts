import { and, eq, sql } from "drizzle-orm";
import { assertCompanyVisible } from "../../../platform/auth/company-scope.js";
import type { AuthedCtx } from "../../../platform/http/context.js";
import { BadRequestError, type FieldError } from "../../../platform/http/errors.js";
import { resolveCompanyForWrite } from "../../companies/index.js";
import { type MappedModel, taxBoxMap } from "../tables.js";
import { BOXES_111, BOXES_115, BOXES_303, type BoxRow, KEYS_349 } from "./defaults.js";
import * as repo from "./repository.js";

export { ensureBoxMap } from "./repository.js";

export interface BoxMapFilters {
  companyId?: string;
  model?: MappedModel;
  taxCode?: string;
  limit: number;
  offset: number;
}

/** The company's box map (seeded with the defaults for every code that has no rows yet). */
export async function listBoxMap(ctx: AuthedCtx, f: BoxMapFilters) {
  const companyId = await resolveCompanyForWrite(ctx, f.companyId);
  await repo.ensureBoxMap(ctx.db, companyId);
  return repo.listBoxMap(
    ctx.db,
    and(
      eq(taxBoxMap.companyId, companyId),
      f.model ? eq(taxBoxMap.model, f.model) : undefined,
      f.taxCode
        ? sql`${taxBoxMap.taxCodeId} in (select c.id from tax_codes c where c.company_id = ${companyId} and c.code = ${f.taxCode.toUpperCase()})`
        : undefined,
    ),
    f,
  );
}

export async function getBoxRow(ctx: AuthedCtx, id: string) {
  return assertCompanyVisible(ctx.actor, await repo.findBoxRow(ctx.db, id), "Box map row");
}

export type BoxChanges = Partial<Pick<BoxRow, "baseBox" | "quotaBox" | "reBaseBox" | "reQuotaBox">>;

const ALLOWED: Record<MappedModel, { set: Set<string>; what: string }> = {
  "303": { set: BOXES_303, what: "a box of the 303 (01-46, 59, 60, 120, 122, 150-170...)" },
  "111": { set: BOXES_111, what: "a base or withholding box of the 111 (02/03, 05/06 ... 26/27)" },
  "115": { set: BOXES_115, what: "02 or 03" },
  "349": { set: KEYS_349, what: "a 349 key (E, M, H, A, T, S, I, R, D, C)" },
};

const FIELDS = [
  ["baseBox", "base_box"],
  ["quotaBox", "quota_box"],
  ["reBaseBox", "re_base_box"],
  ["reQuotaBox", "re_quota_box"],
] as const;

/** Points a row at other boxes; each box must exist in the row's model (400 naming the field). */
export async function updateBoxRow(ctx: AuthedCtx, id: string, changes: BoxChanges) {
  const row = await getBoxRow(ctx, id);
  const allowed = ALLOWED[row.model];
  const errors: FieldError[] = [];
  for (const [field, wire] of FIELDS) {
    const value = changes[field];
    if (value === undefined || value === null) continue;
    if (!allowed.set.has(value)) errors.push({ path: wire, message: `must be ${allowed.what}` });
    if (row.model === "349" && field !== "baseBox")
      errors.push({ path: wire, message: "a 349 row only has its key, in base_box" });
  }
  if (errors.length) throw new BadRequestError("Some boxes are not valid", errors);
  await repo.updateBoxRow(ctx.db, id, changes);
  return getBoxRow(ctx, id);
}
