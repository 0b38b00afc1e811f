import type { Config } from "../config.js";
import type { DatabaseHandle } from "../platform/db/client.js";
import type { TenantDirectory } from "../platform/db/tenancy.js";
import { openMainDatabase } from "../runtime/database.js";
import { listTenants, openTenantDatabase } from "../runtime/tenants.js";
import { CliError, type CommandEnv } from "./command.js";

async function tenantRecord(main: DatabaseHandle, slug: string) {
  const [record] = (await listTenants(main)).filter((t) => t.slug === slug);
  if (!record) throw new CliError(`Unknown tenant ${slug} (npm run cli -- tenant list)`);
  return record;
}

/** The command opens the databases itself (no server holds them); close() when it is done. */
export function directEnv(config: Config): CommandEnv & { close(): Promise<void> } {
  let main: Promise<DatabaseHandle> | undefined;
  const opened: DatabaseHandle[] = [];
  const openMain = () => {
    main ??= openMainDatabase(config);
    return main;
  };
  return {
    config,
    where: "direct",
    main: openMain,
    async database(tenant) {
      const handle = await openMain();
      if (!tenant) return handle;
      const tenantHandle = await openTenantDatabase(config, await tenantRecord(handle, tenant));
      opened.push(tenantHandle);
      return tenantHandle;
    },
    async close() {
      for (const handle of opened.splice(0)) await handle.close();
      if (main) await (await main).close();
    },
  };
}

/**
 * Inside the running server: its own handles, never a second PGlite instance on a directory it has
 * open (with BASE_DOMAIN the tenant directory hands out the tenant's open database).
 */
export function serverEnv(
  config: Config,
  main: DatabaseHandle,
  tenants: TenantDirectory,
): CommandEnv & { close(): Promise<void> } {
  const opened: DatabaseHandle[] = [];
  return {
    config,
    where: "server",
    main: async () => main,
    async database(tenant) {
      if (!tenant) return main;
      if (config.baseDomain) {
        const resolved = await tenants.resolve(`${tenant}.${config.baseDomain}`);
        if (!resolved)
          throw new CliError(`Unknown or suspended tenant ${tenant} (npm run cli -- tenant list)`);
        return resolved.handle;
      }
      // Single-tenant server: it never opens tenant directories, so this one is ours to open.
      const handle = await openTenantDatabase(config, await tenantRecord(main, tenant));
      opened.push(handle);
      return handle;
    },
    async close() {
      for (const handle of opened.splice(0)) await handle.close();
    },
  };
}
