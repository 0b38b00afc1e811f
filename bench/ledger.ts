import Fastify from "fastify";
import pg from "pg";
import { openDatabase } from "../src/platform/db/client.js";
import { seedLedger } from "./ledger-seed.js";
import { freshDatabase, login, type Measured, measureInterleaved, report, startApp } from "./lib.js";

const LINES = Number(process.env.BENCH_LEDGER_LINES ?? 1_000_000);
/** bulk (default): one transaction, triggers off, balances built after; triggers: through the API's triggers. */
const SEED = process.env.BENCH_LEDGER_SEED ?? "bulk";
/** 1: measure the database a previous run seeded with the same BENCH_LEDGER_LINES (no drop, no seed). */
const REUSE = process.env.BENCH_LEDGER_REUSE === "1";
const YEAR = "2026";
const DB_NAME = `cuadra_bench_ledger_${LINES}`;
const COMPANY = { name: "Bench, S.L.", tax_id: "B12345674" };
/** Issue 21 targets, p50 with one client, at 10,000,000 journal lines. */
const TARGETS = { balances: 10, trial: 10, entries: 5, ledger: 10 };

/**
 * Issue 4 and issue 21 on PostgreSQL with BENCH_LEDGER_LINES journal lines (default 1,000,000;
 * 10,000,000 for issue 21): the full stack against a bare Fastify + pg route running the same data
 * SQL (10 clients), then the latency one user waits for (one client) on the balances, the trial
 * balance, the entries list (first page and a deep page by `after=`) and a subaccount's ledger
 * (the entries with a line on it, as the web app's ledger view asks), against the targets.
 */
export async function benchLedger() {
  let capture: { query: string; params: unknown[] }[] | null = null;
  const logQuery = (query: string, params: unknown[]) => {
    if (capture && !/revoked_access_tokens|authz_epoch|api_tokens/.test(query))
      capture.push({ query, params });
  };
  const { url, handle } = REUSE ? await existingDatabase(logQuery) : await freshDatabase(DB_NAME, logQuery);
  const { app, base } = await startApp(handle);
  const bare = Fastify({ logger: false });
  const pool = new pg.Pool({ connectionString: url, max: 20 });
  try {
    const token = await login(base);
    const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    if (!REUSE) {
      const company = await fetch(`${base}/api/companies`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify(COMPANY),
      }).then((r) => r.json() as Promise<{ id: string }>);
      const started = Date.now();
      await seedLedger(handle.db, {
        companyId: company.id,
        fiscalYearCode: YEAR,
        lines: LINES,
        bulk: SEED !== "triggers",
      });
      console.log(
        `\nseeded ${LINES} journal lines (${SEED}) in ${((Date.now() - started) / 1000).toFixed(1)} s, vacuum analyze included`,
      );
    }
    await printSizes(pool);

    const routes = {
      entries: `/api/accounting/entries?fiscal_year_code=${YEAR}&limit=50`,
      balances: `/api/accounting/balances?fiscal_year_code=${YEAR}`,
    };
    const sqlOf: Record<string, { query: string; params: unknown[] }[]> = {};
    for (const [name, path] of Object.entries(routes)) {
      capture = [];
      const res = await fetch(`${base}${path}`, { headers: auth });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      sqlOf[name] = capture;
      capture = null;
    }
    for (const name of Object.keys(routes)) {
      bare.get(`/bare/${name}`, async () => {
        const results = [];
        for (const q of sqlOf[name]) results.push((await pool.query(q.query, q.params)).rows);
        return results;
      });
    }
    const bareBase = await bare.listen({ port: 0, host: "127.0.0.1" });
    const headers = { authorization: `Bearer ${token}` };
    const [entries, bareEntries, balances, bareBalances] = await measureInterleaved([
      { name: `GET ${routes.entries}`, url: `${base}${routes.entries}`, opts: { headers } },
      { name: "bare Fastify + pg, same SQL (entries)", url: `${bareBase}/bare/entries` },
      { name: `GET ${routes.balances}`, url: `${base}${routes.balances}`, opts: { headers } },
      { name: "bare Fastify + pg, same SQL (balances)", url: `${bareBase}/bare/balances` },
    ]);
    report(
      `ledger (${LINES} lines, ${process.env.BENCH_CONNECTIONS ?? 10} clients)`,
      [entries, bareEntries, balances, bareBalances],
      [
        ["entries full / bare", entries, bareEntries],
        ["balances full / bare", balances, bareBalances],
      ],
    );
    await latencyAlone(base, headers, pool);
  } finally {
    await bare.close();
    await pool.end();
    await app.close();
    await handle.close();
  }
}

/** One client, interleaved: what a user waits for, without queueing behind other clients. */
async function latencyAlone(base: string, headers: Record<string, string>, pool: pg.Pool) {
  const cursors = await deepCursors(pool);
  const e = `/api/accounting/entries?fiscal_year_code=${YEAR}&limit=50`;
  const targets: { name: string; path: string; target: number }[] = [
    { name: "balances", path: `/api/accounting/balances?fiscal_year_code=${YEAR}`, target: TARGETS.balances },
    {
      name: "trial balance (Q2)",
      path: `/api/accounting/trial-balance?fiscal_year_code=${YEAR}&date_from=${YEAR}-04-01&date_to=${YEAR}-06-30`,
      target: TARGETS.trial,
    },
    { name: "entries, first page", path: e, target: TARGETS.entries },
    { name: "entries, skip=5000", path: `${e}&skip=5000`, target: TARGETS.entries },
    {
      name: "entries, after= (middle of the year)",
      path: `${e}&after=${cursors.entries}`,
      target: TARGETS.entries,
    },
    {
      name: `ledger of ${cursors.customer} (a customer), first page`,
      path: `${e}&subaccount_code=${cursors.customer}`,
      target: TARGETS.ledger,
    },
    {
      name: `ledger of ${cursors.customer}, after= (middle)`,
      path: `${e}&subaccount_code=${cursors.customer}&after=${cursors.customerAfter}`,
      target: TARGETS.ledger,
    },
    {
      name: `ledger of ${cursors.sales} (sales), first page`,
      path: `${e}&subaccount_code=${cursors.sales}`,
      target: TARGETS.ledger,
    },
    {
      name: `ledger of ${cursors.sales}, after= (middle)`,
      path: `${e}&subaccount_code=${cursors.sales}&after=${cursors.salesAfter}`,
      target: TARGETS.ledger,
    },
  ];
  for (const t of targets) {
    const res = await fetch(`${base}${t.path}`, { headers });
    if (!res.ok) throw new Error(`${t.path}: ${res.status} ${await res.text()}`);
  }
  const measured: Measured[] = await measureInterleaved(
    targets.map((t) => ({ name: t.name, url: `${base}${t.path}`, opts: { headers, connections: 1 } })),
  );
  console.log(`\n## ledger (${LINES} lines), one client: p50 against the issue 21 targets`);
  console.log("| read | p50 ms | p99 ms | req/s | target p50 | met |");
  console.log("|---|---:|---:|---:|---:|---|");
  targets.forEach((t, i) => {
    const m = measured[i]!;
    const met = m.p50 < t.target && m.errors === 0 ? "yes" : "no";
    console.log(`| ${t.name} | ${m.p50} | ${m.p99} | ${m.rps.toFixed(0)} | < ${t.target} ms | ${met} |`);
  });
}

/** `after=` cursors in the middle of the lists: the entry half-way down each one's order. */
async function deepCursors(pool: pg.Pool) {
  const middle = async (subaccountCode?: string) => {
    const where = subaccountCode
      ? `where e.id in (select l.entry_id from entry_lines l join subaccounts s on s.id = l.subaccount_id where s.code = $1)`
      : "";
    const params = subaccountCode ? [subaccountCode] : [];
    const { rows } = await pool.query(
      `select id from entries e ${where} order by date desc, number desc, id desc
        offset (select count(*) / 2 from entries e ${where}) limit 1`,
      params,
    );
    return rows[0].id as string;
  };
  const code = async (prefix: string) =>
    (
      await pool.query(
        `select code from subaccounts where code like $1 || '%' and name like 'Bench %' order by code limit 1`,
        [prefix],
      )
    ).rows[0].code as string;
  const customer = await code("430");
  const sales = await code("700");
  return {
    entries: await middle(),
    customer,
    customerAfter: await middle(customer),
    sales,
    salesAfter: await middle(sales),
  };
}

async function printSizes(pool: pg.Pool) {
  const { rows } = await pool.query(
    `select relname, n_live_tup::bigint as rows, pg_size_pretty(pg_total_relation_size(relid)) as size
       from pg_stat_user_tables
      where relname in ('entries', 'entry_lines', 'ledger_daily_balances', 'ledger_monthly_balances')
      order by relname`,
  );
  const db = await pool.query("select pg_size_pretty(pg_database_size(current_database())) as size");
  console.log(
    `database ${db.rows[0].size}: ${rows.map((r) => `${r.relname} ${r.rows} rows ${r.size}`).join(", ")}`,
  );
}

/** The database a previous run seeded (BENCH_LEDGER_REUSE=1), opened as the bench opens a fresh one. */
async function existingDatabase(logQuery: (query: string, params: unknown[]) => void) {
  const url = new URL(process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
  url.pathname = `/${DB_NAME}`;
  const handle = await openDatabase({ url: url.toString(), poolSize: 20, logQuery });
  return { url: url.toString(), handle };
}
