import { sql } from "drizzle-orm";
import { queryRows } from "../../../platform/db/sql.js";
import type { AuthedCtx } from "../../../platform/http/context.js";
import { getContactsByIds } from "../../clients/index.js";
import { getCompany, resolveCompanyForWrite } from "../../companies/index.js";
import { aggregate347, modelo347File, type PartyRecord, type Totals347 } from "../modelo347/aeat-file.js";
import { documents } from "../tables.js";

export interface Modelo347Party extends Totals347 {
  taxId: string | null;
  name: string;
  province: string;
  country: string;
}

export interface Modelo347Report {
  companyId: string;
  year: number;
  parties: Modelo347Party[];
  /** Contacts over the threshold without a tax id: they cannot go into the AEAT file until fixed. */
  missingTaxId: Modelo347Party[];
}

interface QuarterRow {
  contact_id: string;
  key: "A" | "B";
  quarter: number;
  amount: string;
}

/** Spanish province code: the first two digits of the postal code; 99 for non-residents. */
function provinceOf(country: string, postalCode: string): string {
  if (country !== "ES") return "99";
  const code = postalCode.trim().slice(0, 2);
  return /^(0[1-9]|[1-4]\d|5[0-2])$/.test(code) ? code : "99";
}

/**
 * Modelo 347 of a year (documents.md): per contact, issued sales invoices (key B) and approved
 * purchase invoices (key A) at base + VAT + RE, rectifying invoices subtracting, quarters by
 * invoice date; declared when the annual total exceeds 3,005.06. Purchases on which the company
 * withheld IRPF are left out (they go to modelos 190/180), and so are operations with contacts
 * outside Spain (349, imports and exports). One grouped query over the year's invoices.
 */
export async function modelo347Report(
  ctx: AuthedCtx,
  f: { companyId?: string; year: number },
): Promise<Modelo347Report> {
  const companyId = await resolveCompanyForWrite(ctx, f.companyId);
  const rows = await queryRows<QuarterRow>(
    ctx.db,
    sql`select d.contact_id, case d.direction when 'sale' then 'B' else 'A' end as key,
               extract(quarter from d.issue_date)::int as quarter, sum(d.importe_total)::text as amount
          from ${documents} d
         where d.company_id = ${companyId} and d.kind = 'invoice'
           and d.issue_date between ${`${f.year}-01-01`} and ${`${f.year}-12-31`}
           and ((d.direction = 'sale' and d.estado = 'emitida')
             or (d.direction = 'purchase' and d.estado = 'aprobada' and d.irpf = 0))
           and d.contact_country = 'ES'
         group by 1, 2, 3`,
  );
  const totals = aggregate347(
    rows.map((r) => ({
      contactId: r.contact_id,
      key: r.key,
      date: `${f.year}-${String((r.quarter - 1) * 3 + 1).padStart(2, "0")}-01`,
      amount: r.amount,
    })),
  );
  const people = await getContactsByIds(ctx, [...new Set(totals.map((t) => t.contactId))]);
  const byId = new Map(people.map((p) => [p.id, p]));
  const parties = totals
    .map((t): Modelo347Party => {
      const p = byId.get(t.contactId);
      return {
        ...t,
        taxId: p?.taxId ?? null,
        name: p?.legalName || p?.name || "",
        province: provinceOf(p?.country ?? "ES", p?.postalCode ?? ""),
        country: p?.country ?? "ES",
      };
    })
    .sort((a, b) => a.key.localeCompare(b.key) || a.name.localeCompare(b.name));
  return { companyId, year: f.year, parties, missingTaxId: parties.filter((p) => !p.taxId) };
}

/** The 347 file ready for the AEAT form (ISO-8859-1, 500-character records). */
export async function modelo347AeatFile(ctx: AuthedCtx, report: Modelo347Report): Promise<Buffer> {
  const company = await getCompany(ctx, report.companyId);
  const parties: PartyRecord[] = report.parties
    .filter((p) => p.taxId)
    .map((p) => ({
      taxId: p.taxId as string,
      name: p.name,
      province: p.province,
      country: p.country,
      key: p.key,
      annual: p.annual,
      q1: p.q1,
      q2: p.q2,
      q3: p.q3,
      q4: p.q4,
      cash: p.cash,
    }));
  return modelo347File(
    { year: report.year, taxId: company.taxId, name: company.legalName || company.name },
    parties,
  );
}
