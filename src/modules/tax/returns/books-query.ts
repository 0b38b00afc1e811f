import { sql } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { queryRows } from "../../../platform/db/sql.js";
import { boxMapSource } from "../box-map/repository.js";
import type { MappedModel } from "../tables.js";

/**
 * The set-based queries that turn the books into boxes: one statement per box group, whatever the
 * number of invoices (the 303 of 100,000 invoices is one GROUP BY; see bench/tax.ts).
 *
 * An invoice counts when it is issued (sales) or approved (purchases) and its operation date (or,
 * without one, its issue date) falls in the period. Each document_taxes row (one per invoice and
 * tax code/rate) is spread over the boxes its box-map row names: base, quota, and the recargo's
 * base and quota; rectifying invoices use the rectifying rows, with their own (negative) sign.
 */

export interface BoxSum {
  box: string;
  amount: string;
  /** Distinct counterparties behind the box (111/115 recipient counts). */
  recipients: number;
}

export const FINALIZED = sql`d.kind = 'invoice' and (
  (d.direction = 'sale' and d.estado = 'emitida') or (d.direction = 'purchase' and d.estado = 'aprobada'))`;
export const ACCRUAL_DATE = sql`coalesce(d.operation_date, d.issue_date)`;

/**
 * The accrual date in the period, written so the planner estimates it from the columns' statistics
 * (coalesce() has none, and its default estimate turns a quarter's join into 100,000 index probes).
 */
export const inPeriod = (dateFrom: string, dateTo: string) =>
  sql`(d.operation_date between ${dateFrom} and ${dateTo}
       or (d.operation_date is null and d.issue_date between ${dateFrom} and ${dateTo}))`;

export async function boxSums(
  db: Db,
  companyId: string,
  model: MappedModel,
  dateFrom: string,
  dateTo: string,
): Promise<BoxSum[]> {
  return groupedBoxSums(db, companyId, model, dateFrom, dateTo, false);
}

/** A 303 box's sum for one direction, VAT rate and kind of operation (the 390 splits by rate). */
export interface RateBoxSum {
  box: string;
  direction: string;
  operation: string | null;
  rate: string;
  amount: string;
}

/** The 303 boxes of a period by direction, rate and operation: what the 390's pages split. */
export async function boxSumsByRate(
  db: Db,
  companyId: string,
  dateFrom: string,
  dateTo: string,
): Promise<RateBoxSum[]> {
  return groupedBoxSums(db, companyId, "303", dateFrom, dateTo, true);
}

async function groupedBoxSums<T>(
  db: Db,
  companyId: string,
  model: MappedModel,
  dateFrom: string,
  dateTo: string,
  byRate: boolean,
): Promise<T[]> {
  const kind = model === "303" || model === "349" ? "vat" : "irpf";
  // 111/115 count recipients: keep the contact in the pre-aggregation; the 303 does not need it.
  const perContact = model === "111" || model === "115";
  const map = await boxMapSource(db, companyId);
  return queryRows<T>(
    db,
    sql`with g as (
          select t.tax_code_id, d.direction, d.corrects_document_id is not null as rectifying, t.self_assessed,
                 ${perContact ? sql`d.contact_id` : sql`null::uuid`} as contact_id,
                 ${byRate ? sql`t.rate` : sql`null::numeric`} as rate,
                 sum(t.base) as base, sum(t.amount) as amount,
                 sum(case when t.re_rate <> 0 then t.base end) as re_base,
                 sum(case when t.re_rate <> 0 then t.re_amount end) as re_amount
            from documents d
            join document_taxes t on t.document_id = d.id and t.kind = ${kind}
           where d.company_id = ${companyId} and ${FINALIZED} and ${inPeriod(dateFrom, dateTo)}
           group by 1, 2, 3, 4, 5, 6
        )
        select b.box, sum(b.amount)::text as amount,
               ${
                 byRate
                   ? sql`g.direction, c.operation, trim_scale(g.rate)::text as rate`
                   : sql`count(distinct g.contact_id)::int as recipients`
               }
          from g
          join (${map}) m on m.model = ${model} and m.tax_code_id = g.tax_code_id
           and m.direction = g.direction and m.rectifying = g.rectifying
          ${byRate ? sql`join tax_codes c on c.id = g.tax_code_id` : sql``}
         cross join lateral (values
           (m.base_box, g.base), (m.quota_box, g.amount), (m.re_base_box, g.re_base), (m.re_quota_box, g.re_amount)
         ) as b(box, amount)
         where b.box is not null and b.amount is not null
           -- A company under recargo de equivalencia deducts nothing but self-assessed VAT.
           and (m.side = 'accrued' or g.self_assessed or not exists (
             select 1 from document_settings s
              where s.company_id = ${companyId} and s.tax_regime = 'recargo_equivalencia'))
         group by b.box${byRate ? sql`, g.direction, c.operation, g.rate` : sql``}`,
  );
}

/** The invoices behind one box (traceability: GET /api/tax/returns/{id}/boxes/{box}). */
export interface BoxInvoice {
  documentId: string;
  code: string;
  direction: string;
  date: string;
  contactName: string;
  taxCode: string;
  amount: string;
}

export async function invoicesOfBox(
  db: Db,
  companyId: string,
  model: MappedModel,
  dateFrom: string,
  dateTo: string,
  box: string,
  /** A 390 box: only the lines at this VAT rate, of intra-EU services or of anything else. */
  only?: { rate?: string; services?: boolean },
): Promise<BoxInvoice[]> {
  const kind = model === "303" || model === "349" ? "vat" : "irpf";
  const map = await boxMapSource(db, companyId);
  return queryRows<BoxInvoice>(
    db,
    sql`select d.id as "documentId", d.code, d.direction, ${ACCRUAL_DATE}::text as date,
               d.contact_name as "contactName", c.code as "taxCode", sum(b.amount)::text as amount
          from documents d
          join document_taxes t on t.document_id = d.id and t.kind = ${kind}
          join tax_codes c on c.id = t.tax_code_id
          join (${map}) m on m.model = ${model}
           and m.tax_code_id = t.tax_code_id and m.direction = d.direction
           and m.rectifying = (d.corrects_document_id is not null)
         cross join lateral (values
           (m.base_box, t.base),
           (m.quota_box, t.amount),
           (m.re_base_box, case when t.re_rate <> 0 then t.base end),
           (m.re_quota_box, case when t.re_rate <> 0 then t.re_amount end)
         ) as b(box, amount)
         where d.company_id = ${companyId} and ${FINALIZED}
           and ${inPeriod(dateFrom, dateTo)}
           and b.box = ${box} and b.amount is not null
           ${only?.rate === undefined ? sql`` : sql`and t.rate = ${only.rate}::numeric`}
           ${
             only?.services === undefined
               ? sql``
               : sql`and (c.operation is not distinct from 'intra_eu_services') = ${only.services}`
           }
           and (m.side = 'accrued' or t.self_assessed or not exists (
             select 1 from document_settings s
              where s.company_id = ${companyId} and s.tax_regime = 'recargo_equivalencia'))
         group by d.id, d.code, d.direction, ${ACCRUAL_DATE}, d.contact_name, c.code
         order by 4, d.code, c.code`,
  );
}
