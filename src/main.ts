import { buildApp } from "./app/build.js";
import { ConfigError, loadConfig } from "./config.js";
import { publishLocalServer } from "./mcp/local-server-file.js";
import { migrateDatabase } from "./platform/db/migrate.js";
import { announceAdmin, openMainDatabase, prepareDatabase, resolveJwtSecret } from "./runtime/database.js";
import { buildTenantDirectory, migrateAllTenants } from "./runtime/tenants.js";

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
  const jwtSecret = resolveJwtSecret(config);
  const handle = await openMainDatabase(config, (err) =>
    process.stderr.write(`database pool: ${err.message}\n`),
  );
  if (config.baseDomain) {
    // The main database only holds the tenant registry; each tenant has its own users.
    await migrateDatabase(handle, config.databaseUrl);
    await migrateAllTenants(config, handle);
  } else {
    announceAdmin(await prepareDatabase(handle, config.databaseUrl, config));
  }
  const tenants = buildTenantDirectory(config, handle);
  const app = await buildApp({ config: { ...config, jwtSecret }, tenants });

  let localServer: { remove(): void } | undefined;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    localServer?.remove();
    app.log.info({ signal }, "shutting down: finishing in-flight requests");
    const timer = setTimeout(() => {
      app.log.error("shutdown took longer than 20 s; exiting");
      process.exit(1);
    }, 20_000);
    timer.unref();
    await app.close();
    await tenants.close();
    app.log.info("bye");
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  await app.listen({ port: config.port, host: config.host });
  // Lets `npm run mcp` reach this server instead of opening the same embedded database.
  localServer = publishLocalServer(config, tenants, app.server.address());
  app.log.info(
    { database: handle.kind === "pglite" ? `PGlite at ${handle.location}` : handle.location },
    `Cuadra listening on ${config.publicUrl} (docs: ${config.publicUrl}/api/v1/docs and ${config.publicUrl}/api/docs)`,
  );
}

main().catch((err) => {
  process.stderr.write(
    `Cuadra failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
