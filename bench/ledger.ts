import Fastify from "fastify";
import pg from "pg";
import { seedLedger } from "./ledger-seed.js";
import { freshDatabase, login, measureInterleaved, report, startApp } from "./lib.js";

const LINES = Number(process.env.BENCH_LEDGER_LINES ?? 1_000_000);
const YEAR = "2026";

/**
 * Issue 4 targets, on PostgreSQL with 1,000,000 journal lines: the full stack (tenant, auth,
 * permission, validation, serialization) reaches >= 0.6 of a bare Fastify + pg route running the
 * same data SQL, and GET /api/accounting/balances has p50 < 10 ms.
 */
export async function benchLedger() {
  let capture: { query: string; params: unknown[] }[] | null = null;
  const { url, handle } = await freshDatabase("cuadra_bench_ledger", (query, params) => {
    if (capture && !/revoked_access_tokens|authz_epoch|api_tokens/.test(query))
      capture.push({ query, params });
  });
  const { app, base } = await startApp(handle);
  const bare = Fastify({ logger: false });
  const pool = new pg.Pool({ connectionString: url, max: 20 });
  try {
    const token = await login(base);
    const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const company = await fetch(`${base}/api/companies`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ name: "Bench, S.L.", tax_id: "B12345674" }),
    }).then((r) => r.json() as Promise<{ id: string }>);
    const started = Date.now();
    await seedLedger(handle.db, { companyId: company.id, fiscalYearCode: YEAR, lines: LINES });
    await pool.query("vacuum analyze");
    console.log(`\nseeded ${LINES} journal lines in ${((Date.now() - started) / 1000).toFixed(1)} s`);

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
    // Latency of one client alone: what a user waits for, without queueing behind other clients.
    const [balancesAlone] = await measureInterleaved([
      {
        name: `GET ${routes.balances} (1 connection)`,
        url: `${base}${routes.balances}`,
        opts: { headers, connections: 1 },
      },
    ]);
    report(
      `ledger (${LINES} lines)`,
      [entries, bareEntries, balances, bareBalances, balancesAlone],
      [
        ["entries full / bare", entries, bareEntries],
        ["balances full / bare", balances, bareBalances],
      ],
    );
    console.log(`balances p50, one client: ${balancesAlone.p50} ms (target < 10 ms)`);
  } finally {
    await bare.close();
    await pool.end();
    await app.close();
    await handle.close();
  }
}
