import { parseArgs } from "node:util";
import { cliActor, createApiTokenFromCli } from "./cli/api-token.js";
import { loadDemo } from "./cli/demo.js";
import { ConfigError, loadConfig } from "./config.js";
import { runMcpStdio } from "./mcp/stdio.js";
import { createAdministrator, resetPassword } from "./modules/identity/index.js";
import { generatePassword } from "./platform/auth/passwords.js";
import type { DatabaseHandle } from "./platform/db/client.js";
import { migrateDatabase } from "./platform/db/migrate.js";
import { announceAdmin, openMainDatabase, prepareDatabase } from "./runtime/database.js";
import {
  createTenant,
  listTenants,
  openTenantDatabase,
  prepareTenant,
  setTenantStatus,
} from "./runtime/tenants.js";

const USAGE = `Usage: npm run cli -- <command> [options]

  migrate                                   apply migrations (every tenant when BASE_DOMAIN is set)
  tenant create <slug> [--database-url URL] [--admin-email E]
  tenant list
  tenant suspend <slug> | tenant activate <slug>
  admin create --email E [--password P] [--tenant SLUG]
  user reset-password --email E [--password P] [--tenant SLUG]
  api-token create --name N --scope S [--scope S...] [--company ID] [--expires-days D] [--user EMAIL] [--tenant SLUG]
  demo [--tenant SLUG]                      load the demo project, company, contacts, products and ledger
  mcp                                       the read-only MCP server on stdin/stdout (docs/mcp.md)
`;

const out = (line: string) => process.stdout.write(`${line}\n`);

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

async function withDatabase<T>(tenant: string | undefined, work: (handle: DatabaseHandle) => Promise<T>) {
  const config = loadConfig();
  const main = await openMainDatabase(config);
  try {
    if (!tenant) return await work(main);
    const [record] = (await listTenants(main)).filter((t) => t.slug === tenant);
    if (!record) fail(`Unknown tenant ${tenant}`);
    const handle = await openTenantDatabase(config, record);
    try {
      return await work(handle);
    } finally {
      await handle.close();
    }
  } finally {
    await main.close();
  }
}

async function run(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: "string" },
      password: { type: "string" },
      tenant: { type: "string" },
      "database-url": { type: "string" },
      "admin-email": { type: "string" },
      name: { type: "string" },
      scope: { type: "string", multiple: true },
      company: { type: "string" },
      "expires-days": { type: "string" },
      user: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const [command, sub, arg] = positionals;
  const config = loadConfig();
  if (!command || values.help) return out(USAGE);

  if (command === "migrate") {
    const main = await openMainDatabase(config);
    try {
      if (config.baseDomain) {
        await migrateDatabase(main, config.databaseUrl);
        for (const record of await listTenants(main)) {
          await prepareTenant(config, record);
          out(`tenant ${record.slug}: migrated`);
        }
      } else {
        announceAdmin(await prepareDatabase(main, config.databaseUrl, config));
      }
      out("migrations applied");
    } finally {
      await main.close();
    }
    return;
  }

  if (command === "tenant") {
    const main = await openMainDatabase(config);
    try {
      await migrateDatabase(main, config.databaseUrl);
      if (sub === "create") {
        if (!arg) fail("tenant create needs a slug");
        const result = await createTenant(config, main, arg, {
          databaseUrl: values["database-url"],
          adminEmail: values["admin-email"],
        });
        out(`tenant ${arg} created`);
        announceAdmin(result);
      } else if (sub === "list") {
        for (const t of await listTenants(main))
          out(`${t.slug}\t${t.status}\t${t.databaseUrl ? "own database" : "default"}`);
      } else if (sub === "suspend" || sub === "activate") {
        if (!arg) fail(`tenant ${sub} needs a slug`);
        const ok = await setTenantStatus(main, arg, sub === "suspend" ? "suspended" : "active");
        if (!ok) fail(`Unknown tenant ${arg}`);
        out(`tenant ${arg} ${sub === "suspend" ? "suspended" : "active"}`);
      } else fail(USAGE);
    } finally {
      await main.close();
    }
    return;
  }

  if (command === "admin" && sub === "create") {
    if (!values.email) fail("admin create needs --email");
    const password = values.password ?? generatePassword();
    const result = await withDatabase(values.tenant, (h) =>
      createAdministrator(h.db, values.email!, password),
    );
    out(`administrator ${values.email} ${result.created ? "created" : "promoted and re-activated"}`);
    if (!values.password) out(`password: ${password}   (generated; shown only this once)`);
    return;
  }

  if (command === "user" && sub === "reset-password") {
    if (!values.email) fail("user reset-password needs --email");
    const password = values.password ?? generatePassword();
    const ok = await withDatabase(values.tenant, (h) => resetPassword(h.db, values.email!, password));
    if (!ok) fail(`No user ${values.email}`);
    out(`password of ${values.email} reset; every session of the user was revoked`);
    if (!values.password) out(`password: ${password}   (generated; shown only this once)`);
    return;
  }

  if (command === "api-token" && sub === "create") {
    if (!values.name || !values.scope?.length) fail("api-token create needs --name and at least one --scope");
    const token = await withDatabase(values.tenant, async (h) => {
      const actor = await cliActor(h.db, values.user ?? config.adminEmail);
      return createApiTokenFromCli(h.db, actor, {
        name: values.name!,
        scopes: values.scope!,
        companyId: values.company,
        expiresDays: values["expires-days"] ? Number.parseInt(values["expires-days"], 10) : undefined,
      });
    });
    out(token);
    process.stderr.write("This is the only time the token is shown: store it now.\n");
    return;
  }

  if (command === "demo") {
    const result = await withDatabase(values.tenant, async (h) => {
      if (!values.tenant) await prepareDatabase(h, config.databaseUrl, config);
      return loadDemo(h.db, values.user ?? config.adminEmail);
    });
    out(
      `projects demo: ${result.budget.created ? "loaded" : "already there"} (budget ${result.budget.budgetId})`,
    );
    out(
      `enterprise demo: ${result.company.created ? "loaded" : "already there"} (company ${result.company.companyId})`,
    );
    out(`ledger demo: ${result.entriesCreated} entries created`);
    out(`banking demo: ${result.bankMovements} bank movements imported and auto-matched`);
    return;
  }

  if (command === "mcp") {
    // stdout belongs to the MCP protocol from here on: messages only, logs go to stderr.
    await runMcpStdio();
    return;
  }

  fail(USAGE);
}

run(process.argv.slice(2)).catch((err) => {
  if (err instanceof ConfigError) fail(err.message);
  fail(err instanceof Error ? err.message : String(err));
});
