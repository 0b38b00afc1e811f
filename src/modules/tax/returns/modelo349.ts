import { sql } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { queryRows } from "../../../platform/db/sql.js";
import { Dec, dec, toMoney } from "../../../platform/money.js";
import { boxMapSource } from "../box-map/repository.js";
import type { Record349 } from "./aeat-files.js";
import { FINALIZED, inPeriod } from "./books-query.js";
import { periodOf } from "./periods.js";

/**
 * Modelo 349 from the books: intra-EU operations per counterparty and key (the 349 rows of the box
 * map). A rectifying invoice of an invoice in the same period nets into its operator record; one
 * correcting an earlier period becomes a rectification record of that period (previously declared
 * base and the new one). One statement for the period, one per earlier period corrected.
 */

interface Row349 {
  key: string;
  taxId: string;
  country: string;
  name: string;
  base: string;
  /** Accrual date of the corrected invoice when it is before the period. */
  correctedDate: string | null;
}

async function rows349(db: Db, companyId: string, dateFrom: string, dateTo: string) {
  const map = await boxMapSource(db, companyId);
  return queryRows<Row349>(
    db,
    sql`select m.base_box as key, coalesce(d.contact_tax_id, '') as "taxId", d.contact_country as country,
               max(d.contact_name) as name, sum(t.base)::text as base,
               case when o.id is not null and coalesce(o.operation_date, o.issue_date) < ${dateFrom}
                    then coalesce(o.operation_date, o.issue_date)::text end as "correctedDate"
          from documents d
          join document_taxes t on t.document_id = d.id and t.kind = 'vat'
          join (${map}) m on m.model = '349'
           and m.tax_code_id = t.tax_code_id and m.direction = d.direction
           and m.rectifying = (d.corrects_document_id is not null)
          left join documents o on o.id = d.corrects_document_id
         where d.company_id = ${companyId} and ${FINALIZED}
           and ${inPeriod(dateFrom, dateTo)} and m.base_box is not null
         group by 1, 2, 3, 6
         order by 2, 1, 6 nulls first`,
  );
}

/** Country prefix and number of an EU VAT id ("FR12345678901", or the contact's country). */
function splitVat(taxId: string, country: string) {
  const id = taxId.toUpperCase().replace(/[^A-Z0-9]/g, "");
  if (/^[A-Z]{2}/.test(id)) return { country: id.slice(0, 2), vatNumber: id.slice(2) };
  return { country: country === "GR" ? "EL" : country, vatNumber: id };
}

const periodLabel = (date: string, monthly: boolean) =>
  monthly ? date.slice(5, 7) : `${Math.floor((Number(date.slice(5, 7)) - 1) / 3) + 1}T`;

export async function compute349(
  db: Db,
  companyId: string,
  period: { period: string; dateFrom: string; dateTo: string },
): Promise<Record349[]> {
  const monthly = /^\d{2}$/.test(period.period);
  const rows = await rows349(db, companyId, period.dateFrom, period.dateTo);
  const operators = new Map<string, Record349>();
  const corrections = new Map<string, { rec: Record349; delta: Dec }>();
  for (const r of rows) {
    const who = splitVat(r.taxId, r.country);
    if (!r.correctedDate) {
      const k = `${r.key}|${who.country}|${who.vatNumber}`;
      const rec = operators.get(k) ?? { kind: "operator", key: r.key, ...who, name: r.name, base: "0.00" };
      rec.base = toMoney(dec(rec.base).plus(r.base));
      operators.set(k, rec);
      continue;
    }
    const year = Number(r.correctedDate.slice(0, 4));
    const label = periodLabel(r.correctedDate, monthly);
    const k = `${r.key}|${who.country}|${who.vatNumber}|${year}|${label}`;
    const entry = corrections.get(k) ?? {
      rec: { kind: "rectification" as const, key: r.key, ...who, name: r.name, year, period: label },
      delta: new Dec(0),
    };
    entry.delta = entry.delta.plus(r.base);
    corrections.set(k, entry);
  }
  // What was declared for each corrected period: the operator records that period's books give.
  const periods = new Map<string, { year: number; label: string }>();
  for (const { rec } of corrections.values())
    periods.set(`${rec.year}|${rec.period}`, { year: rec.year!, label: rec.period! });
  const declared = new Map<string, Dec>();
  for (const { year, label } of periods.values()) {
    const p = periodOf("349", year, label);
    for (const r of await rows349(db, companyId, p.dateFrom, p.dateTo)) {
      if (r.correctedDate) continue; // that period's own rectifications of earlier ones are not its operations
      const who = splitVat(r.taxId, r.country);
      const k = `${r.key}|${who.country}|${who.vatNumber}|${year}|${label}`;
      declared.set(k, (declared.get(k) ?? new Dec(0)).plus(r.base));
    }
  }
  const rectifications = [...corrections.entries()].map(([k, { rec, delta }]) => {
    const previous = declared.get(k) ?? new Dec(0);
    return { ...rec, previousBase: toMoney(previous), newBase: toMoney(Dec.max(previous.plus(delta), 0)) };
  });
  const ops = [...operators.values()].filter((r) => !dec(r.base).isZero());
  return [...ops, ...rectifications];
}
