import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/app/build.js";
import { loadConfig } from "../../src/config.js";
import type { DatabaseHandle } from "../../src/platform/db/client.js";
import { multiTenant } from "../../src/platform/db/multi-tenant.js";
import { tenants } from "../../src/platform/db/tables.js";
import { TEST_JWT_SECRET } from "./constants.js";
import { createTestDatabase, type TestDatabase } from "./db.js";

export const BASE_DOMAIN = "cuadra.test";

export interface MultiTenantApp {
  app: FastifyInstance;
  /** Each tenant's own database (a fresh copy of the bootstrapped template: same admin, same ids of seed rows). */
  databases: Map<string, TestDatabase>;
  /** The control database holding the tenant registry. */
  control: DatabaseHandle;
  host(slug: string): string;
  close(): Promise<void>;
}

/** An app in multi-tenant mode with the given tenants registered in its control database. */
export async function createMultiTenantApp(
  slugs: { slug: string; status?: "active" | "suspended" }[],
): Promise<MultiTenantApp> {
  const control = await createTestDatabase();
  const databases = new Map<string, TestDatabase>();
  for (const { slug, status } of slugs) {
    databases.set(slug, await createTestDatabase());
    await control.handle.db.insert(tenants).values({ slug, status: status ?? "active" });
  }
  const directory = multiTenant({
    main: control.handle,
    baseDomain: BASE_DOMAIN,
    registryTtlMs: 0,
    open: async (record) => {
      const db = databases.get(record.slug);
      if (!db) throw new Error(`no test database for ${record.slug}`);
      return { ...db.handle, close: async () => undefined };
    },
  });
  const config = loadConfig({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    JWT_SECRET: TEST_JWT_SECRET,
    BASE_DOMAIN,
  });
  const app = await buildApp({ config: { ...config, jwtSecret: TEST_JWT_SECRET }, tenants: directory });
  await app.ready();
  return {
    app,
    databases,
    control: control.handle,
    host: (slug) => `${slug}.${BASE_DOMAIN}`,
    async close() {
      await app.close();
      await directory.close();
      for (const db of databases.values()) await db.destroy();
      await control.destroy().catch(() => undefined);
    },
  };
}
