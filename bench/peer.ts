import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { createWriteStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { distIsCurrent } from "../scripts/server-build.mjs";
import type { Db } from "../src/platform/db/client.js";
import { queryRows } from "../src/platform/db/sql.js";
import { dec } from "../src/platform/money.js";
import { seedLedger } from "./ledger-seed.js";
import { cpuSeconds, freshDatabase, login, startApp } from "./lib.js";
import { freePort, rssMb } from "./start.js";

/**
 * Issue 21: a ledger peer in the repo. hledger-web (Debian's `hledger-web`, a JSON API over a plain
 * text journal) serves the same ledger Cuadra holds — written from Cuadra's own entries, accounts
 * named group:subgroup:account:subaccount so both compute the same roll-ups — and the two servers
 * are compared on startup time, memory and the account-balance report (hledger's /accounts vs
 * Cuadra's /api/accounting/balances), after checking that both give the same subaccount balances.
 */
const LINES = Number(process.env.BENCH_PEER_LINES ?? 1_000_000);
const YEAR = "2026";
const SECRET = "bench-secret-bench-secret-bench-secret-0123456789";
const ENTRIES_PER_READ = 20_000;
const REQUESTS = Number(process.env.BENCH_PEER_REQUESTS ?? 7);

export async function benchPeer() {
  if (spawnSync("hledger-web", ["--version"]).status !== 0) {
    console.log("\n## peer: skipped — hledger-web is not installed (apt-get install hledger-web)");
    return;
  }
  if (!distIsCurrent()) throw new Error("dist/ is not current: run `npm run build:server` first");
  const dir = mkdtempSync(join(tmpdir(), "cuadra-bench-peer-"));
  const { url, handle } = await freshDatabase("cuadra_bench_peer");
  const servers: ChildProcess[] = [];
  try {
    const { app, base } = await startApp(handle);
    const company = await fetch(`${base}/api/companies`, {
      method: "POST",
      headers: { authorization: `Bearer ${await login(base)}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Peer bench, S.L.", tax_id: "B12345674" }),
    }).then((r) => r.json() as Promise<{ id: string }>);
    await app.close();
    let t = Date.now();
    await seedLedger(handle.db, { companyId: company.id, fiscalYearCode: YEAR, lines: LINES });
    const seeded = (Date.now() - t) / 1000;
    const journal = join(dir, "ledger.journal");
    t = Date.now();
    const written = await writeJournal(handle.db, company.id, journal);
    console.log(
      `\nseeded ${LINES} lines in ${seeded.toFixed(1)} s; journal file of ${written.transactions} ` +
        `transactions / ${written.postings} postings (${(statSync(journal).size / 1e6).toFixed(0)} MB) ` +
        `written in ${((Date.now() - t) / 1000).toFixed(1)} s`,
    );
    await handle.close();

    const cuadraPort = await freePort();
    const cuadra = await startServer(
      [process.execPath, "dist/main.js"],
      {
        NODE_ENV: "production",
        LOG_LEVEL: "warn",
        PORT: String(cuadraPort),
        DATA_DIR: dir,
        DATABASE_URL: url,
        JWT_SECRET: SECRET,
      },
      `http://127.0.0.1:${cuadraPort}/api/ready`,
    );
    servers.push(cuadra.child);
    const hledgerPort = await freePort();
    const hledger = await startServer(
      ["hledger-web", "-f", journal, "--serve-api", "--host=127.0.0.1", `--port=${hledgerPort}`],
      {},
      `http://127.0.0.1:${hledgerPort}/accountnames`,
    );
    servers.push(hledger.child);

    const cuadraBase = `http://127.0.0.1:${cuadraPort}`;
    const token = await login(cuadraBase);
    const balancesUrl = `${cuadraBase}/api/accounting/balances?fiscal_year_code=${YEAR}`;
    const headers = { authorization: `Bearer ${token}` };
    const accountsUrl = `http://127.0.0.1:${hledgerPort}/accounts`;
    const checked = await sameBalances(balancesUrl, headers, accountsUrl);
    console.log(`both servers give the same balance for all ${checked} subaccounts`);

    // hledger-web recomputes the report per request (about a second per 30,000 postings here), so
    // a fixed-duration load test completes no request at all: time the same number of sequential
    // requests on both, after one warm-up each, interleaved.
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let i = 0; i <= REQUESTS; i++) {
      const a = await timedGet(balancesUrl, headers);
      const b = await timedGet(accountsUrl, {});
      if (i === 0) continue;
      ours.push(a);
      theirs.push(b);
    }
    const p50 = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
    console.log(`\n## peer: hledger-web ${hledgerVersion()} on the same ${LINES}-posting ledger`);
    console.log(`| balance report (${REQUESTS} sequential requests) | p50 ms | max ms |`);
    console.log("|---|---:|---:|");
    console.log(
      `| Cuadra GET /api/accounting/balances | ${p50(ours).toFixed(1)} | ${Math.max(...ours).toFixed(1)} |`,
    );
    console.log(
      `| hledger-web GET /accounts | ${p50(theirs).toFixed(1)} | ${Math.max(...theirs).toFixed(1)} |`,
    );
    console.log(`ratio hledger-web p50 / Cuadra p50: ${(p50(theirs) / p50(ours)).toFixed(1)}x`);
    const pid = (c: ChildProcess) => c.pid as number;
    console.log("| server | start s (CPU s) | RSS MB after start | RSS MB after the load |");
    console.log("|---|---:|---:|---:|");
    for (const [name, s] of [
      ["Cuadra (PostgreSQL)", cuadra],
      ["hledger-web", hledger],
    ] as const)
      console.log(
        `| ${name} | ${s.seconds.toFixed(1)} (${s.cpu.toFixed(1)}) | ${s.rss} | ${rssMb(pid(s.child))} |`,
      );
    console.log("(Cuadra's RSS is the Node process only; PostgreSQL's own memory is not counted)");
  } finally {
    for (const child of servers) child.kill("SIGTERM");
    await Promise.all(servers.map((c) => (c.exitCode === null ? once(c, "exit") : null)));
    rmSync(dir, { recursive: true, force: true });
  }
}

async function timedGet(url: string, headers: Record<string, string>) {
  const started = performance.now();
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  return performance.now() - started;
}

/** Entries in number order, read in slices by number, as one journal transaction each. */
async function writeJournal(db: Db, companyId: string, path: string) {
  const out = createWriteStream(path, "utf8");
  let after = 0;
  let transactions = 0;
  let postings = 0;
  for (;;) {
    const rows = await queryRows<{ number: number; text: string; n: number }>(
      db,
      sql`select e.number,
                 e.date::text || ' ' || e.concept || E'\n' ||
                 string_agg('    ' || left(s.code, 1) || ':' || left(s.code, 2) || ':' || left(s.code, 3)
                            || ':' || s.code || '  ' || (l.debit - l.credit)::text, E'\n' order by l.line_no)
                 || E'\n' as text,
                 count(*)::int as n
            from entries e
            join fiscal_years y on y.id = e.fiscal_year_id and y.code = ${YEAR}
            join entry_lines l on l.entry_id = e.id
            join subaccounts s on s.id = l.subaccount_id
           where e.company_id = ${companyId} and e.number > ${after} and e.number <= ${after + ENTRIES_PER_READ}
           group by e.id
           order by e.number`,
    );
    if (!rows.length) break;
    for (const r of rows) {
      if (!out.write(`${r.text}\n`)) await once(out, "drain");
      postings += r.n;
    }
    transactions += rows.length;
    after += ENTRIES_PER_READ;
  }
  out.end();
  await once(out, "finish");
  return { transactions, postings };
}

async function startServer(command: string[], env: Record<string, string>, readyUrl: string) {
  const [cmd, ...args] = command;
  const started = performance.now();
  const child = spawn(cmd, args, {
    cwd: join(import.meta.dirname, ".."),
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (d) => {
    stderr += d;
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${cmd} exited ${child.exitCode}: ${stderr}`);
    const up = await fetch(readyUrl).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  const pid = child.pid as number;
  return { child, seconds: (performance.now() - started) / 1000, rss: rssMb(pid), cpu: cpuSeconds(pid) };
}

interface HledgerAmount {
  aquantity: { decimalMantissa: number; decimalPlaces: number };
}
interface HledgerAccount {
  aname: string;
  aebalance: HledgerAmount[];
}

const hledgerSum = (amounts: HledgerAmount[]) =>
  amounts.reduce(
    (sum, a) => sum.plus(dec(a.aquantity.decimalMantissa).div(10 ** a.aquantity.decimalPlaces)),
    dec(0),
  );

/** Every Cuadra subaccount's balance equals hledger's for the same leaf account; returns how many. */
async function sameBalances(balancesUrl: string, headers: Record<string, string>, accountsUrl: string) {
  const ours = (await fetch(balancesUrl, { headers }).then((r) => r.json())) as {
    subaccounts: { code: string; balance: string }[];
  };
  const theirs = (await fetch(accountsUrl).then((r) => r.json())) as HledgerAccount[];
  const byLeaf = new Map(theirs.map((a) => [a.aname.split(":").at(-1), hledgerSum(a.aebalance)]));
  for (const s of ours.subaccounts) {
    const peer = byLeaf.get(s.code);
    if (!peer?.eq(s.balance))
      throw new Error(
        `subaccount ${s.code}: Cuadra ${s.balance}, hledger-web ${peer?.toFixed(2) ?? "missing"}`,
      );
  }
  if (!ours.subaccounts.length) throw new Error("Cuadra returned no subaccount balances");
  return ours.subaccounts.length;
}

const hledgerVersion = () =>
  spawnSync("hledger-web", ["--version"], { encoding: "utf8" }).stdout.trim().split(/[ ,]/)[1] ?? "?";
