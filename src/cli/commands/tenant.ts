import { migrateDatabase } from "../../platform/db/migrate.js";
import { adminLines } from "../../runtime/database.js";
import { createTenant, listTenants, setTenantStatus } from "../../runtime/tenants.js";
import { CliError, defineCommand, noArgs, requiredArg, stringOption } from "../command.js";

export const tenantCreateCommand = defineCommand({
  name: "tenant create",
  summary: "register a tenant, create and migrate its database, create its administrator",
  args: "<slug>",
  options: {
    "database-url": {
      type: "string",
      value: "URL",
      description: "PostgreSQL: put the tenant on this cluster (default cuadra_<slug> on the main server)",
    },
    "admin-email": {
      type: "string",
      value: "E",
      description: "its first administrator (default ADMIN_EMAIL)",
    },
  },
  examples: [
    "npm run cli -- tenant create acme",
    "npm run cli -- tenant create acme --admin-email boss@acme.es",
  ],
  whileServerRuns: "relay",
  parse: (values, positionals) => ({
    slug: requiredArg(positionals, "tenant slug"),
    databaseUrl: stringOption(values, "database-url"),
    adminEmail: stringOption(values, "admin-email"),
  }),
  async run(env, input, io) {
    const main = await env.main();
    if (env.where === "direct") await migrateDatabase(main, env.config.databaseUrl);
    io.progress(`creating and migrating the database of tenant ${input.slug}`);
    const result = await createTenant(env.config, main, input.slug, input);
    io.out(`tenant ${input.slug} created`);
    for (const line of adminLines(result)) io.out(line);
    if (!env.config.baseDomain) {
      io.warn(
        `BASE_DOMAIN is not set: tenant ${input.slug} is not reachable until the server runs with BASE_DOMAIN (it then serves ${input.slug}.<BASE_DOMAIN>; docs/operations.md, Tenants)`,
      );
    }
  },
});

export const tenantListCommand = defineCommand({
  name: "tenant list",
  summary: "list the tenants: slug, status, where its database is",
  options: {},
  examples: ["npm run cli -- tenant list"],
  whileServerRuns: "relay",
  parse: (_values, positionals) => noArgs(positionals),
  async run(env, _input, io) {
    const main = await env.main();
    if (env.where === "direct") await migrateDatabase(main, env.config.databaseUrl);
    const records = await listTenants(main);
    if (!records.length) io.warn("no tenants yet (npm run cli -- tenant create <slug>)");
    for (const t of records) io.out(`${t.slug}\t${t.status}\t${t.databaseUrl ? "own database" : "default"}`);
  },
});

function statusCommand(verb: "suspend" | "activate") {
  const status = verb === "suspend" ? "suspended" : "active";
  return defineCommand({
    name: `tenant ${verb}`,
    summary:
      verb === "suspend"
        ? "suspend a tenant: its requests get 404 (within 30 s on every node)"
        : "re-activate a suspended tenant",
    args: "<slug>",
    options: {},
    examples: [`npm run cli -- tenant ${verb} acme`],
    whileServerRuns: "relay",
    parse: (_values, positionals) => ({ slug: requiredArg(positionals, "tenant slug") }),
    async run(env, input, io) {
      const main = await env.main();
      if (env.where === "direct") await migrateDatabase(main, env.config.databaseUrl);
      if (!(await setTenantStatus(main, input.slug, status)))
        throw new CliError(`Unknown tenant ${input.slug}`);
      io.out(`tenant ${input.slug} ${status}`);
    },
  });
}

export const tenantSuspendCommand = statusCommand("suspend");
export const tenantActivateCommand = statusCommand("activate");
