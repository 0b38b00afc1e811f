import { join } from "node:path";
import { asc, eq } from "drizzle-orm";
import pg from "pg";
import type { Config } from "../config.js";
import { type DatabaseHandle, openDatabase } from "../platform/db/client.js";
import { multiTenant, TENANT_SLUG, type TenantRecord } from "../platform/db/multi-tenant.js";
import { tenants } from "../platform/db/tables.js";
import { singleTenant, type TenantDirectory } from "../platform/db/tenancy.js";
import { prepareDatabase } from "./database.js";
import { openEmbedded } from "./embedded-open.js";

/** PostgreSQL URL of a tenant: its own database_url, or cuadra_{slug} on the main server. */
export function tenantDatabaseUrl(
  config: Pick<Config, "databaseUrl">,
  record: TenantRecord,
): string | undefined {
  if (record.databaseUrl) return record.databaseUrl;
  if (!config.databaseUrl) return undefined;
  const url = new URL(config.databaseUrl);
  url.pathname = `/cuadra_${record.slug.replace(/-/g, "_")}`;
  return url.toString();
}

export function openTenantDatabase(config: Config, record: TenantRecord): Promise<DatabaseHandle> {
  const url = tenantDatabaseUrl(config, record);
  if (url) return openDatabase({ url, poolSize: 5 });
  return openEmbedded(join(config.dataDir, "tenants", record.slug), {
    notice: (line) => process.stderr.write(`${line}\n`),
  });
}

/** Single tenant, or Host-based tenants when BASE_DOMAIN is set. */
export function buildTenantDirectory(config: Config, main: DatabaseHandle): TenantDirectory {
  if (!config.baseDomain) return singleTenant(main);
  return multiTenant({
    main,
    baseDomain: config.baseDomain,
    open: (record) => openTenantDatabase(config, record),
  });
}

async function ensurePostgresDatabase(url: string) {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const exists = await client.query("select 1 from pg_database where datname = $1", [name]);
    if (exists.rowCount === 0) await client.query(`create database "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

/** Opens, migrates and bootstraps one tenant's database. */
export async function prepareTenant(config: Config, record: TenantRecord, adminEmail?: string) {
  const url = tenantDatabaseUrl(config, record);
  if (url && !record.databaseUrl) await ensurePostgresDatabase(url);
  const handle = await openTenantDatabase(config, record);
  try {
    return await prepareDatabase(handle, url, {
      adminEmail: adminEmail ?? config.adminEmail,
      adminPassword: config.adminPassword,
    });
  } finally {
    await handle.close();
  }
}

export async function createTenant(
  config: Config,
  main: DatabaseHandle,
  slug: string,
  options: { databaseUrl?: string; adminEmail?: string } = {},
) {
  if (!TENANT_SLUG.test(slug)) {
    throw new Error(
      "The tenant slug must be lowercase letters, digits and dashes (at most 40), e.g. acme-sl",
    );
  }
  const [existing] = await main.db.select().from(tenants).where(eq(tenants.slug, slug));
  if (existing) throw new Error(`Tenant ${slug} already exists`);
  const record: TenantRecord = {
    slug,
    databaseUrl: options.databaseUrl ?? null,
    status: "active",
    createdAt: new Date(),
  };
  const result = await prepareTenant(config, record, options.adminEmail);
  await main.db.insert(tenants).values({ slug, databaseUrl: record.databaseUrl });
  return result;
}

export function listTenants(main: DatabaseHandle) {
  return main.db.select().from(tenants).orderBy(asc(tenants.slug));
}

export async function setTenantStatus(main: DatabaseHandle, slug: string, status: "active" | "suspended") {
  const rows = await main.db.update(tenants).set({ status }).where(eq(tenants.slug, slug)).returning();
  return rows.length > 0;
}

/** At start: every registered tenant's migrations (bootstrap is idempotent). */
export async function migrateAllTenants(
  config: Config,
  main: DatabaseHandle,
  onTenant: (slug: string, index: number, total: number) => void = () => {},
) {
  const records = await listTenants(main);
  for (const [index, record] of records.entries()) {
    onTenant(record.slug, index, records.length);
    await prepareTenant(config, record);
  }
}
