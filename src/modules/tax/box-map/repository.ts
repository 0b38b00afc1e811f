import { count, eq, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { paginate } from "../../../platform/db/paginate.js";
import { queryRows } from "../../../platform/db/sql.js";
import { uuidv7 } from "../../../platform/ids.js";
import { taxBoxMap } from "../tables.js";
import { type BoxRow, defaultBoxRows, type MappableTaxCode } from "./defaults.js";

export type BoxMapRow = typeof taxBoxMap.$inferSelect & { taxCode: string };

/** The company's tax codes that have no box-map row yet (new companies, codes created later). */
async function unmappedCodes(db: Db, companyId: string): Promise<MappableTaxCode[]> {
  return queryRows<MappableTaxCode>(
    db,
    sql`select c.id, c.code, c.kind, c.rate::text as rate, c.re_rate::text as "reRate", c.operation,
               c.irpf_kind as "irpfKind", c.capital_goods as "capitalGoods"
          from tax_codes c
         where c.company_id = ${companyId}
           and not exists (select 1 from ${taxBoxMap} m where m.tax_code_id = c.id)
         order by c.created_at, c.id`,
  );
}

/** The default rows of the company's codes that have no box-map row yet (nothing written). */
export async function unmappedDefaultRows(db: Db, companyId: string) {
  const codes = await unmappedCodes(db, companyId);
  return codes.flatMap((code) => defaultBoxRows(code).map((r: BoxRow) => ({ taxCodeId: code.id, ...r })));
}

/**
 * Seeds the default rows of every tax code of the company that has none (two statements whatever
 * the number of codes); rows that exist, edited or not, are left alone.
 */
export async function ensureBoxMap(db: Db, companyId: string): Promise<void> {
  const rows = (await unmappedDefaultRows(db, companyId)).map((r) => ({ id: uuidv7(), companyId, ...r }));
  if (rows.length) await db.insert(taxBoxMap).values(rows).onConflictDoNothing();
}

const columns = {
  id: taxBoxMap.id,
  companyId: taxBoxMap.companyId,
  model: taxBoxMap.model,
  taxCodeId: taxBoxMap.taxCodeId,
  taxCode: sql<string>`(select c.code from tax_codes c where c.id = ${taxBoxMap.taxCodeId})`,
  direction: taxBoxMap.direction,
  rectifying: taxBoxMap.rectifying,
  side: taxBoxMap.side,
  baseBox: taxBoxMap.baseBox,
  quotaBox: taxBoxMap.quotaBox,
  reBaseBox: taxBoxMap.reBaseBox,
  reQuotaBox: taxBoxMap.reQuotaBox,
  createdAt: taxBoxMap.createdAt,
  updatedAt: taxBoxMap.updatedAt,
};

export function listBoxMap(db: Db, where: SQL | undefined, page: { limit: number; offset: number }) {
  return paginate(
    db,
    () =>
      db
        .select(columns)
        .from(taxBoxMap)
        .where(where)
        .orderBy(
          taxBoxMap.model,
          columns.taxCode,
          taxBoxMap.direction,
          taxBoxMap.rectifying,
          taxBoxMap.side,
          taxBoxMap.id,
        )
        .limit(page.limit)
        .offset(page.offset),
    () => db.select({ total: count() }).from(taxBoxMap).where(where),
  );
}

export async function findBoxRow(db: Db, id: string): Promise<BoxMapRow | undefined> {
  const [row] = await db.select(columns).from(taxBoxMap).where(eq(taxBoxMap.id, id));
  return row;
}

export async function updateBoxRow(
  db: Db,
  id: string,
  changes: Partial<Pick<BoxRow, "baseBox" | "quotaBox" | "reBaseBox" | "reQuotaBox">>,
) {
  await db
    .update(taxBoxMap)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(taxBoxMap.id, id));
}

/**
 * The company's box map as a row source for the box queries: the stored rows, plus the defaults of
 * codes not mapped yet, so computing a return never writes (MCP reads in a read-only transaction).
 */
export async function boxMapSource(db: Db, companyId: string): Promise<SQL> {
  const stored = sql`select model, tax_code_id, direction, rectifying, side, base_box, quota_box, re_base_box, re_quota_box
                       from tax_box_map where company_id = ${companyId}`;
  const missing = await unmappedDefaultRows(db, companyId);
  if (!missing.length) return stored;
  const values = sql.join(
    missing.map(
      (r) =>
        sql`(${r.model}::text, ${r.taxCodeId}::uuid, ${r.direction}::text, ${r.rectifying}::boolean, ${r.side}::text,
             ${r.baseBox}::text, ${r.quotaBox}::text, ${r.reBaseBox}::text, ${r.reQuotaBox}::text)`,
    ),
    sql`, `,
  );
  return sql`${stored} union all select * from (values ${values})
    as v(model, tax_code_id, direction, rectifying, side, base_box, quota_box, re_base_box, re_quota_box)`;
}
