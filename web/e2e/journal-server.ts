/**
 * The server of the 10,000-entry journal check (invoices.spec.ts), on its own fresh data
 * directory: migrations, the administrator, the demo company alone (no other demo data) and
 * `E2E_JOURNAL_ENTRIES` balanced three-line entries in 2026, written set-based by the benchmarks'
 * seed (bench/ledger-seed.ts) through the same triggers as the API; then the app is served from the
 * same process (the embedded database admits one) on a free port, printed as `listening <url>`.
 * Run with the server's environment (DATA_DIR, ADMIN_EMAIL, ADMIN_PASSWORD, JWT_SECRET); SIGTERM stops it.
 */
import { seedLedger } from "../../bench/ledger-seed.js";
import { buildApp } from "../../src/app/build.js";
import { cliActor } from "../../src/cli/api-token.js";
import { loadConfig } from "../../src/config.js";
import { loadCompanyDemo } from "../../src/modules/companies/index.js";
import {
  claimDataDir,
  openMainDatabase,
  prepareDatabase,
  resolveJwtSecret,
} from "../../src/runtime/database.js";
import { buildTenantDirectory } from "../../src/runtime/tenants.js";

const entries = Number(process.env.E2E_JOURNAL_ENTRIES ?? 10_000);
const config = loadConfig(process.env);
const lock = claimDataDir(config, "e2e journal server");
const handle = await openMainDatabase(config);
await prepareDatabase(handle, config.databaseUrl, config);
const actor = await cliActor(handle.db, config.adminEmail);
const { companyId } = await loadCompanyDemo({ db: handle.db, tenantId: "cli", actor });
await seedLedger(handle.db, { companyId, fiscalYearCode: "2026", lines: entries * 3 });

const tenants = buildTenantDirectory(config, handle);
const app = await buildApp({ config: { ...config, jwtSecret: resolveJwtSecret(config) }, tenants });
process.on("SIGTERM", async () => {
  await app.close();
  await tenants.close();
  lock?.release();
  process.exit(0);
});
const url = await app.listen({ port: 0, host: "127.0.0.1" });
process.stdout.write(`listening ${url} (${entries} entries)\n`);
