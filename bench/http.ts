import { mkdirSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { join, resolve } from "node:path";
import autocannon from "autocannon";
import Fastify from "fastify";
import type pg from "pg";
import { loadSessionState } from "../src/modules/identity/index.js";
import { cifControlDigit } from "../src/platform/tax-id.js";
import { seedInvoices } from "./documents.js";
import { seedLedger } from "./ledger-seed.js";
import { BENCH_SECONDS, freshDatabase, login, type Measured, measureInterleaved, startApp } from "./lib.js";

const CUSTOMERS = Number(process.env.BENCH_HTTP_CUSTOMERS ?? 10_000);
const PRODUCTS = Number(process.env.BENCH_HTTP_PRODUCTS ?? 2_000);
const LINES = Number(process.env.BENCH_HTTP_LINES ?? 100_000);
const INVOICES = Number(process.env.BENCH_HTTP_INVOICES ?? 10_000);
const CLIENT_COUNTS = [1, 10];
const TARGET = 0.8;
/** The bench's database (a fresh one each run); a baseline checkout's server shares it. */
const DATABASE = process.env.BENCH_HTTP_DATABASE ?? "cuadra_bench_http";
/** Comma-separated labels ("entries list,balances"): only those rows (and the auth row if named "auth"). */
const ROUTES = (process.env.BENCH_HTTP_ROUTES ?? "")
  .split(",")
  .map((r) => r.trim())
  .filter(Boolean);
/** A directory: before measuring, one CPU profile per route of the full server at 10 clients. */
const PROFILE_DIR = process.env.BENCH_HTTP_PROFILE;
/**
 * Another checkout (with its node_modules): its app runs in this process on its own pool of the
 * same database and size, measured in the same interleaved rounds as "baseline" (the before).
 */
const BASELINE = process.env.BENCH_HTTP_BASELINE;

const cif = (org: string, digits: string) => `${org}${digits}${cifControlDigit(digits)}`;

type Query = { query: string; params: unknown[] };

/**
 * Issue 21, "every read near the bare database": each hot read route beside a bare Fastify + pg
 * twin that runs the very SQL the route ran (captured from the app's query log, auth queries
 * left out) on the SAME pool, at 1 and at 10 clients; plus /api/v1/users/me against /api/ready
 * (the auth overhead). Target: full / bare >= 0.8 in req/s everywhere.
 */
export async function benchHttp() {
  let capture: Query[] | null = null;
  const { handle, url } = await freshDatabase(DATABASE, (query, params) => {
    if (capture && !/revoked_access_tokens|authz_epoch|api_tokens/.test(query))
      capture.push({ query, params });
  });
  const { app, base } = await startApp(handle);
  // The same server without the session-state cache (ADR 034): the guard queries on every request.
  const uncached = await startApp(handle, { AUTH_SESSION_CACHE: "off" });
  const baseline = BASELINE ? await startBaseline(BASELINE, url) : null;
  const bare = Fastify({ logger: false });
  const pool = (handle.db as unknown as { $client: pg.Pool }).$client;
  try {
    const token = await login(base);
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
      return (text ? JSON.parse(text) : {}) as Record<string, unknown> & { id: string };
    };

    const year = "2026";
    const company = await api("POST", "/api/companies", { name: "Bench HTTP, S.L.", tax_id: "B12345674" });
    const started = Date.now();
    await seedLedger(handle.db, { companyId: company.id, fiscalYearCode: year, lines: LINES });
    const client = await api("POST", "/api/clients", {
      company_id: company.id,
      contact_type: "customer",
      name: "Cliente Bench, S.A.",
      tax_id: cif("A", "0800185"),
      postal_code: "08001",
    });
    await seedContacts(pool, client.id, CUSTOMERS - 1);
    const product = await api("POST", "/api/products", {
      company_id: company.id,
      reference: "REF-000000",
      description: "Hormigón HA-25, m³",
      sale_price: "78.50",
    });
    await seedProducts(pool, product.id, PRODUCTS - 1);
    await seedInvoices(pool, company.id, client.id, Number(year), INVOICES);
    const budget = await api("POST", "/api/v1/budgets", {
      company_id: company.id,
      code: "OBRA-1",
      name: "Reforma de nave",
    });
    await pool.query("vacuum analyze");
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `\nseeded ${CUSTOMERS} customers, ${PRODUCTS} products, ${LINES} journal lines, ${INVOICES} invoices in ${seconds} s`,
    );

    const entries = await api("GET", `/api/accounting/entries?fiscal_year_code=${year}&limit=1`);
    const invoices = await api("GET", `/api/sales/invoices?company_id=${company.id}&limit=1`);
    const firstId = (page: Record<string, unknown>) => (page.data as { id: string }[])[0]!.id;
    const allRoutes: Record<string, string> = {
      "client list": "/api/clients?limit=50",
      "client detail": `/api/clients/${client.id}`,
      "product list": "/api/products?limit=50",
      "entries list": `/api/accounting/entries?fiscal_year_code=${year}&limit=50`,
      "entry detail": `/api/accounting/entries/${firstId(entries)}`,
      balances: `/api/accounting/balances?fiscal_year_code=${year}`,
      "budget detail": `/api/v1/budgets/${budget.id}`,
      "invoice list": `/api/sales/invoices?company_id=${company.id}&limit=50`,
      "invoice detail": `/api/sales/invoices/${firstId(invoices)}`,
    };
    const unknown = ROUTES.filter((r) => r !== "auth" && !(r in allRoutes));
    if (unknown.length)
      throw new Error(
        `BENCH_HTTP_ROUTES: unknown ${unknown.join(", ")}; known: ${Object.keys(allRoutes)}, auth`,
      );
    const routes = Object.fromEntries(
      Object.entries(allRoutes).filter(([label]) => !ROUTES.length || ROUTES.includes(label)),
    );
    const sqlOf: Record<string, Query[]> = {};
    for (const [name, path] of Object.entries(routes)) {
      capture = [];
      await api("GET", path);
      sqlOf[name] = capture;
      capture = null;
    }
    if (process.env.BENCH_HTTP_SQL === "1")
      for (const [name, qs] of Object.entries(sqlOf))
        console.log(
          `\n${name}:\n${qs.map((q) => `  ${q.query}  -- ${JSON.stringify(q.params)}`).join("\n")}`,
        );
    // The user's session check, as the guard runs it for a JWT (the same prepared statement).
    const claims = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString());
    const sessionCheck = () => loadSessionState(handle, claims.sub, claims.sid, claims.jti);
    Object.keys(routes).forEach((name, i) => {
      const replay = async () => {
        const results = [];
        for (const q of sqlOf[name]) results.push((await pool.query(q.query, q.params)).rows);
        return results;
      };
      bare.get(`/bare/${i}`, replay);
      bare.get(`/bare-auth/${i}`, async () => {
        if (!(await sessionCheck())) throw new Error("session check failed");
        return replay();
      });
    });
    const bareBase = await bare.listen({ port: 0, host: "127.0.0.1" });
    const auth = { authorization: `Bearer ${token}` };
    const baselineAuth = baseline ? { authorization: `Bearer ${await login(baseline.base)}` } : undefined;
    if (PROFILE_DIR) await profileRoutes(PROFILE_DIR, base, routes, auth);

    const pairs: {
      label: string;
      full: string;
      bare: string;
      bareAuth?: string;
      uncached: string;
      baseline?: string;
      fullHeaders?: Record<string, string>;
    }[] = [
      ...Object.entries(routes).map(([label, path], i) => ({
        label,
        full: `${base}${path}`,
        uncached: `${uncached.base}${path}`,
        baseline: baseline ? `${baseline.base}${path}` : undefined,
        bare: `${bareBase}/bare/${i}`,
        bareAuth: `${bareBase}/bare-auth/${i}`,
        fullHeaders: auth,
      })),
      ...(!ROUTES.length || ROUTES.includes("auth")
        ? [
            {
              label: "auth: /api/v1/users/me vs /api/ready",
              full: `${base}/api/v1/users/me`,
              uncached: `${uncached.base}/api/v1/users/me`,
              baseline: baseline ? `${baseline.base}/api/v1/users/me` : undefined,
              bare: `${base}/api/ready`,
              fullHeaders: auth,
            },
          ]
        : []),
    ];
    const rows: {
      label: string;
      clients: number;
      full: Measured;
      uncached: Measured;
      baseline?: Measured;
      bare: Measured;
      bareAuth?: Measured;
    }[] = [];
    for (const connections of CLIENT_COUNTS) {
      const measured = await measureInterleaved(
        pairs.flatMap((p) => [
          { name: `${p.label} full`, url: p.full, opts: { headers: p.fullHeaders, connections } },
          { name: `${p.label} uncached`, url: p.uncached, opts: { headers: p.fullHeaders, connections } },
          ...(p.baseline
            ? [{ name: `${p.label} baseline`, url: p.baseline, opts: { headers: baselineAuth, connections } }]
            : []),
          { name: `${p.label} bare`, url: p.bare, opts: { connections } },
          ...(p.bareAuth ? [{ name: `${p.label} bare+auth`, url: p.bareAuth, opts: { connections } }] : []),
        ]),
      );
      const byName = new Map(measured.map((m) => [m.name, m]));
      for (const p of pairs) {
        rows.push({
          label: p.label,
          clients: connections,
          full: byName.get(`${p.label} full`)!,
          uncached: byName.get(`${p.label} uncached`)!,
          baseline: byName.get(`${p.label} baseline`),
          bare: byName.get(`${p.label} bare`)!,
          bareAuth: byName.get(`${p.label} bare+auth`),
        });
      }
    }

    console.log("\n## every read near the bare database (PostgreSQL, same SQL, same pool)");
    const withBaseline = baseline !== null;
    console.log(
      `| route | clients | full p50 ms | bare p50 ms | full req/s | bare req/s | ratio | ${withBaseline ? "baseline: p50 ms | req/s | ratio | " : ""}cache off: p50 ms | req/s | ratio | bare+auth req/s | full / bare+auth | CPU ms/req full, ${withBaseline ? "baseline, " : ""}cache off, bare | errors |`,
    );
    console.log(
      `|---|---:|---:|---:|---:|---:|---:|${withBaseline ? "---:|---:|---:|" : ""}---:|---:|---:|---:|---:|---|---:|`,
    );
    let met = 0;
    let metBefore = 0;
    const pairCells = (m: Measured, bare: Measured) =>
      `${m.p50} | ${m.rps.toFixed(0)} | ${(m.rps / bare.rps).toFixed(2)} | `;
    for (const r of rows) {
      const ratio = r.full.rps / r.bare.rps;
      if (ratio >= TARGET) met++;
      if (r.baseline && r.baseline.rps / r.bare.rps >= TARGET) metBefore++;
      const measured = [r.full, ...(r.baseline ? [r.baseline] : []), r.uncached, r.bare];
      console.log(
        `| ${r.label} | ${r.clients} | ${r.full.p50} | ${r.bare.p50} | ${r.full.rps.toFixed(0)} | ${r.bare.rps.toFixed(0)} | ${ratio.toFixed(2)} | ` +
          `${r.baseline ? pairCells(r.baseline, r.bare) : withBaseline ? "- | - | - | " : ""}${pairCells(r.uncached, r.bare)}` +
          `${r.bareAuth ? r.bareAuth.rps.toFixed(0) : "-"} | ${r.bareAuth ? (r.full.rps / r.bareAuth.rps).toFixed(2) : "-"} | ` +
          `${measured.map((m) => (m.cpuMs ?? 0).toFixed(2)).join(", ")} | ` +
          `${[...measured, ...(r.bareAuth ? [r.bareAuth] : [])].reduce((n, m) => n + m.errors, 0)} |`,
      );
    }
    console.log(`${met} of ${rows.length} at or above ${TARGET}x (req/s full / bare)`);
    if (withBaseline)
      console.log(`baseline (${BASELINE}): ${metBefore} of ${rows.length} at or above ${TARGET}x`);
    console.log(
      "bare+auth: the bare twin plus the session check the guard runs for a JWT (one prepared query)",
    );
    console.log(
      "cache off: the same server with AUTH_SESSION_CACHE=off (the guard queries on every request, as before ADR 034)",
    );
    for (const [name, qs] of Object.entries(sqlOf)) console.log(`${name}: ${qs.length} statements`);
  } finally {
    await bare.close();
    if (baseline) {
      await baseline.app.close();
      await baseline.handle.close();
    }
    await uncached.app.close();
    await app.close();
    await handle.close();
  }
}

/** The app of another checkout, in this process, on its own pool (same size) of the database at `url`. */
async function startBaseline(dir: string, url: string) {
  const root = resolve(dir);
  const client: typeof import("../src/platform/db/client.js") = await import(
    join(root, "src/platform/db/client.ts")
  );
  const lib: typeof import("./lib.js") = await import(join(root, "bench/lib.ts"));
  const handle = await client.openDatabase({ url, poolSize: 20 });
  const { app, base } = await lib.startApp(handle);
  return { app, base, handle };
}

/**
 * `--cpu-prof` of the full server per route, in this process (the server and autocannon share it):
 * `<dir>/<route>.cpuprofile`, BENCH_SECONDS at 10 clients, for Chrome DevTools or speedscope.
 */
async function profileRoutes(
  dir: string,
  base: string,
  routes: Record<string, string>,
  headers: Record<string, string>,
) {
  mkdirSync(dir, { recursive: true });
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 100 });
  try {
    for (const [label, path] of Object.entries(routes)) {
      await session.post("Profiler.start");
      await autocannon({ url: `${base}${path}`, connections: 10, duration: BENCH_SECONDS, headers });
      const { profile } = await session.post("Profiler.stop");
      const file = join(dir, `${label.replaceAll(" ", "-")}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      console.log(`profile ${label}: ${file}`);
    }
  } finally {
    session.disconnect();
  }
}

/** `n` copies of the contact `templateId`, each with its own code and name, none with a tax id. */
async function seedContacts(pool: pg.Pool, templateId: string, n: number) {
  await pool.query(
    `insert into contacts
     select (jsonb_populate_record(null::contacts, to_jsonb(c) || jsonb_build_object(
              'id', gen_random_uuid(), 'code', 'B' || lpad(g::text, 6, '0'),
              'name', 'Cliente ' || g || ', S.L.', 'tax_id', null,
              'created_at', c.created_at - g * interval '1 second'))).*
       from contacts c, generate_series(1, $2) g where c.id = $1`,
    [templateId, n],
  );
}

/** `n` copies of the product `templateId`, each with its own reference and price. */
async function seedProducts(pool: pg.Pool, templateId: string, n: number) {
  await pool.query(
    `insert into products
     select (jsonb_populate_record(null::products, to_jsonb(p) || jsonb_build_object(
              'id', gen_random_uuid(), 'reference', 'REF-' || lpad(g::text, 6, '0'),
              'description', 'Artículo ' || g, 'sale_price', (g % 1000) + 0.5,
              'created_at', p.created_at - g * interval '1 second'))).*
       from products p, generate_series(1, $2) g where p.id = $1`,
    [templateId, n],
  );
}
