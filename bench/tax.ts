import pg from "pg";
import { freshDatabase, login, startApp } from "./lib.js";

const INVOICES = Number(process.env.BENCH_TAX_INVOICES ?? 100_000);
const RUNS = 5;

/**
 * Issue 20's target, on PostgreSQL: computing a modelo 303 over the 100,000 invoices of a quarter
 * (two thirds sales, one third purchases, 1-3 VAT rows each, plus half as many invoices in the next
 * quarter that the period must skip) takes < 2 s through POST /api/tax/returns, with one
 * set-based statement per box group, whatever the number of invoices.
 */
export async function benchTax() {
  let capture: string[] | null = null;
  const { url, handle } = await freshDatabase("cuadra_bench_tax", (query) => {
    if (capture && /document_taxes/.test(query)) capture.push(query);
  });
  const { app, base } = await startApp(handle);
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  try {
    const token = await login(base);
    const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<Record<string, unknown> & { id: string }>;
    };
    const company = await post("/api/companies", { name: "Bench Impuestos, S.L.", tax_id: "B12345674" });
    await post("/api/accounting/fiscal-years", {
      company_id: company.id,
      code: "2026",
      start_date: "2026-01-01",
      end_date: "2026-12-31",
    });
    const customer = await post("/api/clients", {
      company_id: company.id,
      contact_type: "customer",
      name: "Cliente",
      tax_id: "12345678Z",
    });
    const supplier = await post("/api/clients", {
      company_id: company.id,
      contact_type: "supplier",
      name: "Proveedor",
      tax_id: "87654321X",
    });

    const started = Date.now();
    const total = Math.round(INVOICES * 1.5);
    await pool.query(
      `insert into documents (id, company_id, direction, kind, series_id, year, number, code, estado, contact_id,
                              contact_name, contact_tax_id, issue_date, net, vat, total, corrects_document_id)
       select gen_random_uuid(), $1, case when i % 3 = 0 then 'purchase' else 'sale' end, 'invoice',
              (select id from document_series where company_id = $1 and code = 'A'), 2026, i, 'B' || i,
              case when i % 3 = 0 then 'aprobada' else 'emitida' end,
              case when i % 3 = 0 then $3::uuid else $2::uuid end, 'Bench', '12345678Z',
              case when i <= $4 then date '2026-01-01' + (i % 90) else date '2026-04-01' + (i % 91) end,
              100, 21, 121, null
         from generate_series(1, $5) i`,
      [company.id, customer.id, supplier.id, INVOICES, total],
    );
    await pool.query(
      `insert into document_taxes (id, company_id, document_id, kind, tax_code_id, rate, re_rate, base, amount, re_amount, self_assessed)
       select gen_random_uuid(), d.company_id, d.id, 'vat', c.id, c.rate, 0, 100 + (d.number % 50), round((100 + (d.number % 50)) * c.rate / 100, 2), 0,
              c.operation = 'intra_eu_goods'
         from documents d
         join tax_codes c on c.company_id = d.company_id
          and (c.code = 'IVA21' or (c.code = 'IVA10' and d.number % 4 = 0)
               or (c.code = 'IC21' and d.direction = 'purchase' and d.number % 7 = 0))
        where d.company_id = $1`,
      [company.id],
    );
    const { rows } = await pool.query("select count(*)::int as n from document_taxes where company_id = $1", [
      company.id,
    ]);
    await pool.query("vacuum analyze");
    console.log(
      `\nseeded ${total} invoices (${INVOICES} in 1T) and ${rows[0].n} VAT rows in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );

    const timings: number[] = [];
    capture = [];
    let t0 = performance.now();
    const created = await post("/api/tax/returns", {
      company_id: company.id,
      model: "303",
      year: 2026,
      period: "1T",
    });
    timings.push(performance.now() - t0);
    const statements = capture.length;
    capture = null;
    for (let i = 1; i < RUNS; i++) {
      t0 = performance.now();
      await post(`/api/tax/returns/${created.id}/recompute`, {});
      timings.push(performance.now() - t0);
    }
    const boxes = created.boxes as Record<string, string>;
    const sorted = [...timings].sort((a, b) => a - b);
    console.log(`\n## tax (303 over ${INVOICES} invoices of a quarter)`);
    console.log(`| run | ms |\n|---|---|`);
    for (const [i, ms] of timings.entries())
      console.log(`| ${i === 0 ? "POST /api/tax/returns" : "POST .../recompute"} | ${ms.toFixed(0)} |`);
    console.log(
      `median ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms, max ${sorted[sorted.length - 1].toFixed(0)} ms (target < 2000 ms)`,
    );
    console.log(`statements reading document_taxes per computation: ${statements}`);
    console.log(
      `boxes: 07=${boxes["07"]} 09=${boxes["09"]} 28=${boxes["28"]} 10=${boxes["10"]} 46=${boxes["46"]}`,
    );

    // The 390 of the year: the four quarters' 303s (none confirmed: each computed) and the year's
    // boxes by rate, one statement each, over all the seeded invoices.
    capture = [];
    t0 = performance.now();
    const m390 = await post("/api/tax/returns", {
      company_id: company.id,
      model: "390",
      year: 2026,
      period: "0A",
    });
    const ms390 = performance.now() - t0;
    console.log(
      `\n390 over the year's ${total} invoices: ${ms390.toFixed(0)} ms, ${capture.length} statements reading document_taxes; ` +
        `47=${(m390.boxes as Record<string, string>)["47"]} 605=${(m390.boxes as Record<string, string>)["605"]} issues=${(m390.issues as unknown[]).length}`,
    );
    capture = null;
  } finally {
    await pool.end();
    await app.close();
    await handle.close();
  }
}
