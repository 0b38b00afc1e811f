import { migrateDatabase } from "../../platform/db/migrate.js";
import { adminLines, prepareDatabase } from "../../runtime/database.js";
import { listTenants, prepareTenant } from "../../runtime/tenants.js";
import { defineCommand, noArgs } from "../command.js";

export const migrateCommand = defineCommand({
  name: "migrate",
  summary: "apply the database migrations (and every tenant's when BASE_DOMAIN is set)",
  options: {},
  examples: ["npm run cli -- migrate"],
  whileServerRuns: {
    refuse:
      "the running server applied its migrations when it started; to apply a newer version's, stop it and start the new version (npm start migrates)",
  },
  parse: (_values, positionals) => noArgs(positionals),
  async run(env, _input, io) {
    const { config } = env;
    const main = await env.main();
    if (!config.baseDomain) {
      for (const line of adminLines(await prepareDatabase(main, config.databaseUrl, config))) io.out(line);
      io.out("migrations applied");
      return;
    }
    await migrateDatabase(main, config.databaseUrl);
    const records = await listTenants(main);
    for (const [index, record] of records.entries()) {
      io.progress(`tenant ${record.slug} (${index + 1}/${records.length})`);
      for (const line of adminLines(await prepareTenant(config, record))) io.out(line);
      io.out(`tenant ${record.slug}: migrated`);
    }
    io.out(`migrations applied (main database and ${records.length} tenant(s))`);
  },
});
