import Fastify from "fastify";
import type pg from "pg";
import { cifControlDigit } from "../src/platform/tax-id.js";
import { freshDatabase, login, measureInterleaved, report, startApp } from "./lib.js";

const ISSUES = Number(process.env.BENCH_DOCUMENT_ISSUES ?? 2000);
const CLIENTS = Number(process.env.BENCH_DOCUMENT_CLIENTS ?? 20);
const LIST_INVOICES = Number(process.env.BENCH_DOCUMENT_INVOICES ?? 100_000);

const cif = (org: string, digits: string) => `${org}${digits}${cifControlDigit(digits)}`;

type Api = (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>;

/** `count` calls of `work` from `clients` concurrent workers; returns the seconds it took. */
async function concurrently(count: number, clients: number, work: (i: number) => Promise<void>) {
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < count) await work(next++);
    }),
  );
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/** Numbers 1..n without gap or repeat, and dates that never go backwards along them. */
async function gaplessCheck(pool: pg.Pool, where: string, params: unknown[]) {
  const { rows } = await pool.query(
    `select count(*)::int as n, count(distinct number)::int as distinct_numbers, min(number) as min,
            max(number) as max,
            count(*) filter (where issue_date < prev_date)::int as backwards
       from (select number, issue_date, lag(issue_date) over (order by number) as prev_date
               from documents where ${where}) d`,
    params,
  );
  const r = rows[0];
  const gaps = r.max - r.min + 1 - r.distinct_numbers + (r.n - r.distinct_numbers);
  return {
    numbered: r.n as number,
    min: r.min as number,
    max: r.max as number,
    gaps,
    backwards: r.backwards,
  };
}

/**
 * Issues 9 and 10 targets, on PostgreSQL: (a) sales invoices issued concurrently in ONE series
 * through the HTTP API (number, ledger entry and receipt each) >= 200/s with no gap; (b)
 * GET /api/sales/invoices?limit=50 over 100,000 invoices >= 0.6 of a bare Fastify + pg route
 * running the same SQL on the same pool; (c) supplier invoices approved concurrently (registration
 * number, entry, payment due) per second, gapless.
 */
export async function benchDocuments() {
  let capture: { query: string; params: unknown[] }[] | null = null;
  const { handle } = await freshDatabase("cuadra_bench_documents", (query, params) => {
    if (capture && !/revoked_access_tokens|authz_epoch|api_tokens/.test(query))
      capture.push({ query, params });
  });
  const { app, base } = await startApp(handle);
  const bare = Fastify({ logger: false });
  // The same pool the app uses: the bare route differs from the API only by the framework around it.
  const pool = (handle.db as unknown as { $client: pg.Pool }).$client;
  try {
    const token = await login(base);
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const api: Api = async (method, path, body) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
      return text ? JSON.parse(text) : {};
    };
    const year = new Date().getUTCFullYear();
    const company = await api("POST", "/api/companies", {
      name: "Bench documentos, S.L.",
      tax_id: "B12345674",
    });
    const companyId = company.id as string;
    await api("POST", "/api/accounting/fiscal-years", {
      company_id: companyId,
      code: String(year),
      start_date: `${year}-01-01`,
      end_date: `${year}-12-31`,
    });
    const customer = await api("POST", "/api/clients", {
      company_id: companyId,
      contact_type: "both",
      name: "Cliente Bench, S.L.",
      tax_id: cif("B", "8765432"),
      postal_code: "28001",
    });
    const invoiceLines = [
      { description: "Hormigón HA-25, m³", quantity: "12", unit_price: "78.50", tax_code: "IVA21" },
      { description: "Mano de obra, hora", quantity: "6", unit_price: "31.20", tax_code: "IVA10" },
    ];

    // (a) issuing in one series
    const drafts: string[] = [];
    const createSeconds = await concurrently(ISSUES, CLIENTS, async () => {
      const draft = await api("POST", "/api/sales/invoices", {
        company_id: companyId,
        client_id: customer.id,
        lines: invoiceLines,
      });
      drafts.push(draft.id as string);
    });
    const issueSeconds = await concurrently(ISSUES, CLIENTS, async (i) => {
      await api("POST", `/api/sales/invoices/${drafts[i]}/issue`, {});
    });
    const issued = await gaplessCheck(
      pool,
      "company_id = $1 and direction = 'sale' and kind = 'invoice' and estado = 'emitida'",
      [companyId],
    );
    const { rows: posted } = await pool.query(
      "select count(*)::int as n from documents where company_id = $1 and direction = 'sale' and entry_id is not null",
      [companyId],
    );

    // (c) approving supplier invoices
    const pending: string[] = [];
    await concurrently(ISSUES, CLIENTS, async (i) => {
      const invoice = await api("POST", "/api/purchases/invoices", {
        company_id: companyId,
        supplier_id: customer.id,
        supplier_number: `P-${i + 1}`,
        lines: invoiceLines,
      });
      pending.push(invoice.id as string);
    });
    const approveSeconds = await concurrently(ISSUES, CLIENTS, async (i) => {
      await api("POST", `/api/purchases/invoices/${pending[i]}/approve`, {});
    });
    const approved = await gaplessCheck(
      pool,
      "company_id = $1 and direction = 'purchase' and kind = 'invoice' and estado = 'aprobada'",
      [companyId],
    );

    // (b) the invoice list over 100,000 invoices, seeded set-based in a company of its own
    const listCompany = await api("POST", "/api/companies", {
      name: "Bench listado, S.L.",
      tax_id: cif("A", "5881850"),
    });
    const listCustomer = await api("POST", "/api/clients", {
      company_id: listCompany.id,
      contact_type: "customer",
      name: "Cliente Listado, S.A.",
      tax_id: cif("A", "0800185"),
      postal_code: "08001",
    });
    const seeded = process.hrtime.bigint();
    await seedInvoices(pool, listCompany.id as string, listCustomer.id as string, year, LIST_INVOICES);
    await pool.query("vacuum analyze");
    const seedSeconds = Number(process.hrtime.bigint() - seeded) / 1e9;

    const path = `/api/sales/invoices?company_id=${listCompany.id}&limit=50`;
    capture = [];
    const first = await api("GET", path);
    const sqls = capture;
    capture = null;
    if (first.total !== LIST_INVOICES)
      throw new Error(`list total ${first.total}, expected ${LIST_INVOICES}`);
    bare.get("/bare/invoices", async () => {
      const results = [];
      for (const q of sqls) results.push((await pool.query(q.query, q.params)).rows);
      return results;
    });
    const bareBase = await bare.listen({ port: 0, host: "127.0.0.1" });
    const [list, bareList] = await measureInterleaved([
      {
        name: `GET /api/sales/invoices?limit=50 (${LIST_INVOICES} invoices)`,
        url: `${base}${path}`,
        opts: { headers },
      },
      { name: "bare Fastify + pg, same SQL, same pool", url: `${bareBase}/bare/invoices` },
    ]);

    console.log(`\n## documents (PostgreSQL, ${CLIENTS} concurrent clients, one series)`);
    console.log(
      `sales invoices: ${ISSUES} drafts created in ${createSeconds.toFixed(1)} s (${(ISSUES / createSeconds).toFixed(0)}/s, no lock), ` +
        `issued in ${issueSeconds.toFixed(1)} s: ` +
        `${(ISSUES / issueSeconds).toFixed(0)} issues/s (target >= 200); numbers ${issued.min}..${issued.max}, ` +
        `${issued.gaps} gaps, ${issued.backwards} dates backwards, ${posted[0].n} entries`,
    );
    console.log(
      `supplier invoices: ${ISSUES} approved in ${approveSeconds.toFixed(1)} s: ${(ISSUES / approveSeconds).toFixed(0)} approvals/s; ` +
        `registration numbers ${approved.min}..${approved.max}, ${approved.gaps} gaps`,
    );
    console.log(
      `seeded ${LIST_INVOICES} invoices (lines, taxes, receipts) in ${seedSeconds.toFixed(1)} s; route SQL: ${sqls.length} statements`,
    );
    report("sales invoice list", [list, bareList], [["list full / bare", list, bareList]]);
    if (issued.gaps || approved.gaps || issued.numbered !== ISSUES || approved.numbered !== ISSUES)
      throw new Error("numbering is not gapless");
  } finally {
    await bare.close();
    await app.close();
    await handle.close();
  }
}

/**
 * `n` issued invoices of one customer in series A over the year, as issuing leaves them (with auto
 * posting off, so without entries): header, one line, its VAT row, one receipt, and the counter.
 */
export async function seedInvoices(
  pool: pg.Pool,
  companyId: string,
  contactId: string,
  year: number,
  n: number,
) {
  await pool.query("update document_settings set auto_posting = false where company_id = $1", [companyId]);
  const { rows } = await pool.query(
    `select s.id as series_id, t.id as tax_id from document_series s, tax_codes t
      where s.company_id = $1 and s.code = 'A' and t.company_id = $1 and t.code = 'IVA21'`,
    [companyId],
  );
  const { series_id: seriesId, tax_id: taxId } = rows[0];
  await pool.query(
    `with src as (
       select g as number, gen_random_uuid() as id,
              make_date($3, 1, 1) + ((g - 1) * 364 / $5)::int as issue_date,
              (100 + (g * 7919) % 4900 + (g % 100) / 100.0)::numeric(18, 2) as net
         from generate_series(1, $5) g),
     docs as (
       insert into documents (id, company_id, direction, kind, series_id, year, number, code, estado, contact_id,
                              contact_name, contact_tax_id, contact_postal_code, issue_date, gross_net, net, vat,
                              total, importe_total, finalized_at)
       select id, $1, 'sale', 'invoice', $2, $3, number, 'FV' || $3 || '-' || lpad(number::text, 6, '0'), 'emitida',
              $4, 'Cliente Listado, S.A.', $7, '08001', issue_date, net, net, round(net * 0.21, 2),
              net + round(net * 0.21, 2), net + round(net * 0.21, 2), issue_date::timestamptz
         from src
       returning id, code, issue_date, net, vat, total),
     lines as (
       insert into document_lines (id, company_id, document_id, line_no, description, quantity, unit_price,
                                   tax_code_id, vat_rate, net)
       select gen_random_uuid(), $1, id, 1, 'Suministro de material', 1, net, $6, 21, net from docs),
     taxes as (
       insert into document_taxes (id, company_id, document_id, kind, tax_code_id, rate, base, amount)
       select gen_random_uuid(), $1, id, 'vat', $6, 21, net, vat from docs)
     insert into document_dues (id, company_id, document_id, direction, contact_id, sequence, code, due_date, amount)
     select gen_random_uuid(), $1, id, 'sale', $4, 1, code || '/1', issue_date + 30, total from docs`,
    [companyId, seriesId, year, contactId, n, taxId, cif("A", "0800185")],
  );
  await pool.query(
    `insert into document_counters (company_id, direction, kind, series_id, year, last_number, last_date)
     values ($1, 'sale', 'invoice', $2, $3, $4, make_date($3, 1, 1) + (($4 - 1) * 364 / $4)::int)`,
    [companyId, seriesId, year, n],
  );
}
