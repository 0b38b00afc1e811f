import { sql } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { allQueries, queryRows } from "../../../platform/db/sql.js";
import type { AuthedCtx } from "../../../platform/http/context.js";
import { ConflictError } from "../../../platform/http/errors.js";
import { modelo347Report } from "../../documents/index.js";
import { taxSettingsOf } from "../settings/service.js";
import type { Declarant } from "./aeat-files.js";
import { boxSumsByRate } from "./books-query.js";
import type { Boxes } from "./compute.js";
import { compute390, type Issue390, type Year303 } from "./compute-390.js";
import { dr390File } from "./dr390.js";
import type { Period } from "./periods.js";
import type { ReturnRow } from "./repository.js";

/**
 * Modelo 390 from the books and the year's 303s (compute-390.ts) and its file (dr390.ts): what the
 * file needs beyond the boxes comes from the company's tax settings (the activity) and its 347.
 */

export async function compute390FromBooks(
  db: Db,
  companyId: string,
  p: Period,
  manual: Boxes,
  returns303: Year303[],
): Promise<{ boxes: Boxes; records: Issue390[] }> {
  const [byRate, [regime]] = await allQueries(db, [
    () => boxSumsByRate(db, companyId, p.dateFrom, p.dateTo),
    () =>
      queryRows<{ recargo: boolean }>(
        db,
        sql`select tax_regime = 'recargo_equivalencia' as recargo from document_settings where company_id = ${companyId}`,
      ),
  ]);
  const { boxes, issues } = compute390(returns303, byRate, manual, {
    recargoRegime: regime?.recargo ?? false,
  });
  return { boxes, records: issues };
}

/**
 * The 390 file of a confirmed return: 409 when the year's 303s hold something the 390 cannot place
 * (its issues) or the company has not said what its activity is (PUT /api/tax/settings).
 */
export async function file390(ctx: AuthedCtx, row: ReturnRow, declarant: Declarant): Promise<Buffer> {
  const issues = row.records as Issue390[];
  if (issues.length)
    throw new ConflictError(`The 390 cannot be filed as computed: ${issues[0].message}`, {
      issues: issues.map((i) => i.message),
    });
  if (row.declarationKind === "complementaria")
    throw new ConflictError("The 390 has no complementaria: correct it with a sustitutiva", {
      declaration_kind: row.declarationKind,
    });
  const settings = await taxSettingsOf(ctx.db, row.companyId);
  const activity = {
    activity_description: settings?.activityDescription ?? "",
    activity_key: settings?.activityKey ?? "",
    iae_epigraph: settings?.iaeEpigraph ?? "",
  };
  const missing = Object.keys(activity).filter((k) => !activity[k as keyof typeof activity]);
  if (missing.length)
    throw new ConflictError(
      `The 390's page 01 needs the company's main activity: set ${missing.join(", ")} with PUT /api/tax/settings/${row.companyId}`,
      { missing },
    );
  const m347 = await modelo347Report(ctx, { companyId: row.companyId, year: row.year });
  return dr390File(
    declarant,
    {
      year: row.year,
      substitutive: row.declarationKind === "sustitutiva",
      previousReceipt: row.previousReceipt,
      activity: {
        description: activity.activity_description,
        key: activity.activity_key,
        iae: activity.iae_epigraph,
      },
      files347: m347.parties.length + m347.missingTaxId.length > 0,
    },
    row.boxes,
  );
}
