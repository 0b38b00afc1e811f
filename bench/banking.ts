import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { writeNorma43 } from "../src/modules/banking/index.js";
import type { Db } from "../src/platform/db/client.js";
import { queryOne, queryRows } from "../src/platform/db/sql.js";
import { cpuSeconds, freshDatabase, login, startApp } from "./lib.js";

const MOVEMENTS = Number(process.env.BENCH_BANK_MOVEMENTS ?? 100_000);
const RECEIPTS = Number(process.env.BENCH_BANK_RECEIPTS ?? 100_000);
const IBAN = "ES9121000418450200051332";

async function call(
  app: FastifyInstance,
  token: string,
  method: "GET" | "POST",
  url: string,
  payload?: unknown,
) {
  const res = await app.inject({
    method,
    url,
    payload: payload as Record<string, unknown>,
    headers: { authorization: `Bearer ${token}` },
  });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

/**
 * CPU seconds so far of this process and of each PostgreSQL backend of the bench database (a local
 * server: /proc), so a phase's cost can be told apart from the load of other processes.
 */
async function cpuNow(db: Db) {
  const backends = new Map<number, number>();
  const pids = await queryRows<{ pid: number }>(
    db,
    sql`select pid from pg_stat_activity where datname = current_database()`,
  );
  for (const { pid } of pids) {
    try {
      backends.set(pid, cpuSeconds(pid));
    } catch {
      // not a local server, or the backend ended: its CPU is not counted
    }
  }
  const { user, system } = process.cpuUsage();
  return { node: (user + system) / 1e6, backends };
}

/** "node X s + postgres Y s CPU" since `before`; backends that started meanwhile count whole. */
async function cpuSince(db: Db, before: Awaited<ReturnType<typeof cpuNow>>) {
  const after = await cpuNow(db);
  let postgres = 0;
  for (const [pid, now] of after.backends) postgres += now - (before.backends.get(pid) ?? 0);
  return `CPU node ${(after.node - before.node).toFixed(1)} s + postgres ${postgres.toFixed(1)} s`;
}

/**
 * `count` issued sales invoices with one open receipt each, set-based (generate_series): codes
 * FV2026-000001..., amounts 10.01... spread, due 2026-03-01 plus up to 27 days. Through SQL, not
 * the API, so the bench measures banking and not invoicing.
 */
async function seedReceipts(db: Db, companyId: string, contactId: string, count: number) {
  const series = await queryOne<{ id: string }>(
    db,
    sql`select id from document_series where company_id = ${companyId} and kind = 'general' order by code limit 1`,
  );
  await db.execute(sql`
    insert into documents (id, company_id, direction, kind, series_id, year, number, code, estado, contact_id,
      contact_name, contact_tax_id, issue_date, net, gross_net, vat, total, importe_total)
    select gen_random_uuid(), ${companyId}, 'sale', 'invoice', ${series!.id}, 2026, g,
      'FV2026-' || lpad(g::text, 6, '0'), 'emitida', ${contactId}, 'Cliente Bench ' || g, null,
      date '2026-03-01' + (g % 28), 0, 0, 0, (1000 + g * 7 % 500000) / 100.0, (1000 + g * 7 % 500000) / 100.0
    from generate_series(1, ${count}) g`);
  await db.execute(sql`
    insert into document_dues (id, company_id, document_id, direction, contact_id, sequence, code, due_date, amount)
    select gen_random_uuid(), company_id, id, 'sale', contact_id, 1, code || '/1', issue_date, total
    from documents where company_id = ${companyId} and direction = 'sale' and kind = 'invoice'`);
  await db.execute(sql`analyze documents, document_dues`);
}

/**
 * A Norma 43 file paying the first `count` receipts by transfer, invoice code and name in the
 * concept: two statements of the account (1-14 and 15-31 March), as record 33 counts at most 99,999.
 */
function statement(count: number): Buffer {
  const movements = [];
  for (let g = 1; g <= count; g++) {
    const cents = 1000 + ((g * 7) % 500000);
    movements.push({
      operationDate: `2026-03-${String((g % 28) + 1).padStart(2, "0")}`,
      amount: `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`,
      commonConcept: "04",
      ownConcept: "001",
      concepts: [`TRANSFERENCIA FV2026-${String(g).padStart(6, "0")}`, `CLIENTE BENCH ${g}`],
    });
  }
  const account = {
    bank: IBAN.slice(4, 8),
    office: IBAN.slice(8, 12),
    account: IBAN.slice(14, 24),
    name: "BENCH",
  };
  const first = movements.filter((m) => m.operationDate < "2026-03-15");
  const second = movements.filter((m) => m.operationDate >= "2026-03-15");
  const closing = first.reduce((acc, m) => acc + Math.round(Number(m.amount) * 100), 0);
  return writeNorma43([
    { ...account, dateFrom: "2026-03-01", dateTo: "2026-03-14", openingBalance: "0.00", movements: first },
    {
      ...account,
      dateFrom: "2026-03-15",
      dateTo: "2026-03-31",
      openingBalance: `${Math.floor(closing / 100)}.${String(closing % 100).padStart(2, "0")}`,
      movements: second,
    },
  ]);
}

function multipart(fields: Record<string, string>, file: Buffer) {
  const boundary = `----cuadra-bench-${Date.now().toString(36)}`;
  const parts = Object.entries(fields).map(
    ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
  );
  return {
    payload: Buffer.concat([
      Buffer.from(parts.join("")),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.n43"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}

/**
 * Bench section `banking` (PostgreSQL): a Norma 43 import of 100,000 movements through the route
 * (parse, checks, dedupe, insert, matching against 100,000 open receipts) and the auto-match that
 * follows (rescoring everything and reconciling each unique 85+ match: one treasury payment and its
 * entry per movement). BENCH_BANK_MOVEMENTS / BENCH_BANK_RECEIPTS change the sizes.
 */
export async function benchBanking() {
  const { handle } = await freshDatabase("cuadra_bench_banking");
  // 100,000 movements with one concept record each are ~16 MB: over the 10 MB default upload limit.
  const { app, base } = await startApp(handle, { MAX_UPLOAD_MB: "64" });
  try {
    const token = await login(base);
    const company = await call(app, token, "POST", "/api/companies", {
      name: "Bench banking",
      tax_id: "B12345674",
    });
    await call(app, token, "POST", "/api/accounting/fiscal-years", {
      company_id: company.id,
      code: "2026",
      start_date: "2026-01-01",
      end_date: "2026-12-31",
    });
    const customer = await call(app, token, "POST", "/api/clients", {
      company_id: company.id,
      contact_type: "customer",
      name: "Cliente Bench",
      tax_id: "00000000T",
      postal_code: "28001",
    });
    const bank = await call(app, token, "POST", "/api/treasury/bank-accounts", {
      company_id: company.id,
      name: "Banco bench",
      iban: IBAN,
    });
    let started = performance.now();
    await seedReceipts(handle.db, company.id, customer.id, RECEIPTS);
    console.log(`\n## Banking (targets: import of 100,000 movements < 10 s, auto-match < 30 s)`);
    console.log(`seed: ${RECEIPTS} open receipts in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const file = statement(MOVEMENTS);
    const { payload, headers } = multipart({ bank_account_id: bank.id }, file);
    let cpu = await cpuNow(handle.db);
    started = performance.now();
    const res = await app.inject({
      method: "POST",
      url: "/api/bank-reconciliation/import",
      payload,
      headers: { ...headers, authorization: `Bearer ${token}` },
    });
    const importMs = performance.now() - started;
    if (res.statusCode !== 201) throw new Error(`import failed: ${res.statusCode} ${res.body.slice(0, 500)}`);
    const imported = res.json();
    console.log(
      `import: ${imported.imported} movements (${(file.length / 1024 / 1024).toFixed(1)} MB), ${imported.suggested} suggested, in ${(importMs / 1000).toFixed(1)} s (${await cpuSince(handle.db, cpu)})`,
    );

    started = performance.now();
    const again = await app.inject({
      method: "POST",
      url: "/api/bank-reconciliation/import",
      payload,
      headers: { ...headers, authorization: `Bearer ${token}` },
    });
    console.log(
      `re-import (recognised, nothing saved): ${again.statusCode} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    cpu = await cpuNow(handle.db);
    started = performance.now();
    const result = await call(app, token, "POST", "/api/bank-reconciliation/auto-match", {
      bank_account_id: bank.id,
    });
    const autoMs = performance.now() - started;
    console.log(
      `auto-match: ${result.examined} movements examined, ${result.applied.length} reconciled (payment + entry each), ` +
        `${result.ambiguous} ambiguous, ${result.failed.length} failed, in ${(autoMs / 1000).toFixed(1)} s (${await cpuSince(handle.db, cpu)})`,
    );
  } finally {
    await app.close();
    await handle.close();
  }
}
