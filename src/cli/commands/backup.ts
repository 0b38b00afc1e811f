import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { openDatabase } from "../../platform/db/client.js";
import { embeddedDbDir } from "../../runtime/database.js";
import { CliError, defineCommand, noArgs, requiredOption, stringOption, TENANT_OPTION } from "../command.js";

const PG_DUMP =
  "With DATABASE_URL the database is PostgreSQL's: back it up with pg_dump (docs/operations.md)";

export const backupCommand = defineCommand({
  name: "backup",
  summary: "write a consistent copy of the embedded database to a file, even while the server runs",
  options: {
    out: { type: "string", value: "FILE", description: "the file to write (.tgz; must not exist)" },
    tenant: TENANT_OPTION,
  },
  examples: ["npm run cli -- backup --out cuadra-2026-11-24.tgz"],
  whileServerRuns: "relay",
  parse: (values, positionals) => {
    noArgs(positionals);
    // Absolute here: the server, which may write the file, has its own working directory.
    const out = resolve(requiredOption(values, "out"));
    if (existsSync(out)) throw new CliError(`${out} exists: choose a new file name`);
    return { out, tenant: stringOption(values, "tenant") };
  },
  async run(env, input, io) {
    if (env.config.databaseUrl) throw new CliError(PG_DUMP);
    const handle = await env.database(input.tenant);
    if (!handle.dumpDataDir) throw new CliError(PG_DUMP);
    io.progress(`dumping ${handle.location}`);
    const dump = Buffer.from(await (await handle.dumpDataDir()).arrayBuffer());
    writeFileSync(input.out, dump, { flag: "wx", mode: 0o600 });
    io.out(`backup written to ${input.out} (${(dump.length / 1_048_576).toFixed(1)} MB)`);
    io.out(`restore it with the server stopped: npm run cli -- restore --from ${input.out}`);
  },
});

export const restoreCommand = defineCommand({
  name: "restore",
  summary: "replace the embedded database with a backup file (the current one is kept aside)",
  options: { from: { type: "string", value: "FILE", description: "a file written by `backup` (required)" } },
  examples: ["npm run cli -- restore --from cuadra-2026-11-24.tgz"],
  whileServerRuns: { refuse: "the server has the database open; restoring under it would lose the restore" },
  parse: (values, positionals) => {
    noArgs(positionals);
    const from = resolve(requiredOption(values, "from"));
    if (!existsSync(from)) throw new CliError(`${from} does not exist`);
    return { from };
  },
  async run(env, input, io) {
    if (env.config.databaseUrl)
      throw new CliError("With DATABASE_URL, restore with pg_restore (docs/operations.md)");
    const dir = embeddedDbDir(env.config);
    const aside = `${dir}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    if (existsSync(dir)) renameSync(dir, aside);
    io.progress(`restoring ${input.from} into ${dir}`);
    try {
      const restored = await openDatabase({
        dataDir: dir,
        loadDataDir: new Blob([readFileSync(input.from)]),
      });
      await restored.ping();
      await restored.close();
    } catch (err) {
      // Put the previous database back where it was.
      rmSync(dir, { recursive: true, force: true });
      if (existsSync(aside)) renameSync(aside, dir);
      throw new CliError(`${input.from} is not a backup this version can read (${(err as Error).message})`);
    }
    io.out(`restored ${input.from} into ${dir}`);
    if (existsSync(aside))
      io.out(`the previous database is in ${aside}: delete it once you have checked the restore`);
  },
});
