import { buildApp } from "./app/build.js";
import { registerLocalControl } from "./cli/server-control.js";
import { ConfigError, loadConfig } from "./config.js";
import { publishLocalServer } from "./mcp/local-server-file.js";
import { runWasmOnBaselineCode } from "./platform/db/client.js";
import { migrateDatabase } from "./platform/db/migrate.js";
import { terminalLogStream } from "./platform/http/logging.js";
import { withSourceStack } from "./platform/http/source-stack.js";
import { DataDirBusyError, describeHolder } from "./runtime/data-dir-lock.js";
import {
  announceAdmin,
  claimDataDir,
  openMainDatabase,
  prepareDatabase,
  resolveJwtSecret,
  wasmOnBaselineCode,
} from "./runtime/database.js";
import { DamagedDatabaseError } from "./runtime/embedded-open.js";
import { releaseStartMemory } from "./runtime/start-memory.js";
import { buildTenantDirectory, migrateAllTenants } from "./runtime/tenants.js";

/** Before the logger exists: what the operator waits for. */
const step = (line: string) => process.stderr.write(`${line}\n`);

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  // PGlite admits one process per data directory: take it before opening anything in it.
  const lock = claimDataDir(config, "server");
  if (lock?.recovered) {
    step(
      `The previous user of ${config.dataDir}, ${describeHolder(lock.recovered)}, ended without closing it.`,
    );
  }
  const jwtSecret = resolveJwtSecret(config);
  if (wasmOnBaselineCode(config)) runWasmOnBaselineCode();
  step(
    config.databaseUrl
      ? "Connecting to PostgreSQL and applying migrations..."
      : `Opening the embedded database in ${config.dataDir} and applying migrations...`,
  );
  const handle = await openMainDatabase(config, {
    onPoolError: (err) => process.stderr.write(`database pool: ${err.message}\n`),
  });
  if (config.baseDomain) {
    // The main database only holds the tenant registry; each tenant has its own users.
    await migrateDatabase(handle, config.databaseUrl);
    await migrateAllTenants(config, handle, (slug, index, total) =>
      step(`Migrating tenant ${slug} (${index + 1}/${total})...`),
    );
  } else {
    announceAdmin(await prepareDatabase(handle, config.databaseUrl, config));
  }
  const tenants = buildTenantDirectory(config, handle);
  const app = await buildApp({
    config: { ...config, jwtSecret },
    tenants,
    logStream: await terminalLogStream(),
  });
  // `npm run cli -- <command>` beside this server runs the command here (embedded mode).
  if (lock) registerLocalControl(app, { config, main: handle, tenants });

  let localServer: { remove(): void } | undefined;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    localServer?.remove();
    app.log.info({ signal }, "shutting down: finishing in-flight requests");
    // A request still open after the grace (a long import, an SSE stream, a client that never finished
    // sending its request) loses its connection, so the databases still close cleanly; its
    // transaction rolls back. Only a close that hangs after that ends the process unclean.
    const grace = config.shutdownGraceSeconds;
    const cut = setTimeout(() => {
      app.log.warn(`requests still open after ${grace} s: closing their connections`);
      app.server.closeAllConnections();
    }, grace * 1000);
    cut.unref();
    const timer = setTimeout(
      () => {
        app.log.error(`shutdown took longer than ${grace + 5} s; exiting`);
        process.exit(1);
      },
      (grace + 5) * 1000,
    );
    timer.unref();
    await app.close();
    await tenants.close();
    lock?.release();
    app.log.info("bye");
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  await app.ready();
  await releaseStartMemory();
  await app.listen({ port: config.port, host: config.host });
  // Lets `npm run mcp` and the CLI reach this server instead of opening the same embedded database.
  localServer = publishLocalServer(config, tenants, app.server.address());
  const address = app.server.address();
  if (lock && address && typeof address !== "string") lock.setListening(address.port, config.publicUrl);
  app.log.info(
    { database: handle.kind === "pglite" ? `PGlite at ${handle.location}` : handle.location },
    `Cuadra listening on ${config.publicUrl} (docs: ${config.publicUrl}/api/v1/docs and ${config.publicUrl}/api/docs)`,
  );
}

main().catch((err) => {
  if (err instanceof DataDirBusyError) {
    process.stderr.write(
      `Cuadra did not start: ${err.message}.\n` +
        `Only one process may open the embedded database. Stop that one first (kill ${err.holder.pid}), or use\n` +
        `it: with a server running, \`npm run cli -- ...\` and \`npm run mcp\` go through it.\n`,
    );
    process.exit(1);
  }
  if (err instanceof DamagedDatabaseError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
  process.stderr.write(
    `Cuadra failed to start: ${err instanceof Error ? (withSourceStack(err).stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
