import { sql } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { paginate } from "../../../platform/db/paginate.js";
import { queryRows } from "../../../platform/db/sql.js";
import type { Direction } from "../../documents/index.js";

/** One row of a VAT book: an invoice and one of its VAT rates (tax code). */
export interface BookRow {
  documentId: string;
  accrualDate: string;
  issueDate: string;
  operationDate: string | null;
  series: string;
  seriesKind: string;
  code: string;
  supplierNumber: string | null;
  receivedAt: string | null;
  rectifying: boolean;
  contactTaxId: string | null;
  contactCountry: string;
  contactName: string;
  taxCode: string | null;
  operation: string | null;
  exemptionReason: string | null;
  capitalGoods: boolean;
  selfAssessed: boolean;
  total: string;
  base: string;
  rate: string;
  amount: string;
  reRate: string;
  reAmount: string;
  /** The invoice's IRPF, on its first row only (so sums stay right). */
  irpfRate: string | null;
  irpfAmount: string | null;
}

export interface BookFilters {
  companyId: string;
  direction: Direction;
  dateFrom?: string;
  dateTo?: string;
  search?: string;
  limit: number;
  offset: number;
}

function where(f: BookFilters) {
  return sql`d.company_id = ${f.companyId} and d.direction = ${f.direction} and d.kind = 'invoice'
    and d.estado = ${f.direction === "sale" ? "emitida" : "aprobada"}
    ${f.dateFrom ? sql`and coalesce(d.operation_date, d.issue_date) >= ${f.dateFrom}` : sql``}
    ${f.dateTo ? sql`and coalesce(d.operation_date, d.issue_date) <= ${f.dateTo}` : sql``}
    ${f.search ? sql`and (d.code ilike ${`%${f.search}%`} or d.contact_name ilike ${`%${f.search}%`} or d.contact_tax_id ilike ${`%${f.search}%`})` : sql``}`;
}

/** The page of book rows and their count: two statements, whatever the page size. */
export function listBookRows(db: Db, f: BookFilters) {
  return paginate(
    db,
    () =>
      queryRows<BookRow>(
        db,
        sql`select d.id as "documentId", coalesce(d.operation_date, d.issue_date)::text as "accrualDate",
                 d.issue_date::text as "issueDate", d.operation_date::text as "operationDate",
                 s.code as series, s.kind as "seriesKind", d.code, d.supplier_number as "supplierNumber",
                 to_char(d.finalized_at, 'YYYY-MM-DD') as "receivedAt",
                 d.corrects_document_id is not null as rectifying,
                 d.contact_tax_id as "contactTaxId", d.contact_country as "contactCountry", d.contact_name as "contactName",
                 c.code as "taxCode", c.operation, c.exemption_reason as "exemptionReason",
                 coalesce(c.capital_goods, false) as "capitalGoods", t.self_assessed as "selfAssessed",
                 d.total::text as total, t.base::text as base, t.rate::text as rate, t.amount::text as amount,
                 t.re_rate::text as "reRate", t.re_amount::text as "reAmount",
                 case when row_number() over (partition by d.id order by t.rate, t.id) = 1 then i.rate::text end as "irpfRate",
                 case when row_number() over (partition by d.id order by t.rate, t.id) = 1 then i.amount::text end as "irpfAmount"
            from documents d
            join document_series s on s.id = d.series_id
            join document_taxes t on t.document_id = d.id and t.kind = 'vat'
            left join tax_codes c on c.id = t.tax_code_id
            left join lateral (
              select max(x.rate) as rate, sum(x.amount) as amount
                from document_taxes x where x.document_id = d.id and x.kind = 'irpf'
              having count(*) > 0
            ) i on true
           where ${where(f)}
           order by coalesce(d.operation_date, d.issue_date), d.code, t.rate, t.id
           limit ${f.limit} offset ${f.offset}`,
      ),
    () =>
      queryRows<{ total: number }>(
        db,
        sql`select count(*)::int as total
            from documents d join document_taxes t on t.document_id = d.id and t.kind = 'vat'
           where ${where(f)}`,
      ),
  );
}
