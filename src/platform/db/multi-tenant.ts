import { eq } from "drizzle-orm";
import type { DatabaseHandle } from "./client.js";
import { tenants } from "./tables.js";
import type { Tenant, TenantDirectory } from "./tenancy.js";

export type TenantRecord = typeof tenants.$inferSelect;

export const TENANT_SLUG = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;

export interface MultiTenantOptions {
  /** The control database holding the registry. */
  main: DatabaseHandle;
  baseDomain: string;
  /** Opens (without migrating) a tenant's database. */
  open(record: TenantRecord): Promise<DatabaseHandle>;
  /** Close a tenant's pool after this long without requests (default 10 minutes). */
  idleMs?: number;
  /** How long a registry answer (including "unknown" and "suspended") is trusted (default 30 s). */
  registryTtlMs?: number;
}

interface OpenTenant {
  tenant: Promise<Tenant>;
  lastUsed: number;
}

/** The slug that Host `{slug}.{baseDomain}[:port]` names, or null. */
export function tenantSlugFromHost(host: string | undefined, baseDomain: string): string | null {
  if (!host) return null;
  const name = host.toLowerCase().replace(/:\d+$/, "").replace(/\.$/, "");
  const suffix = `.${baseDomain}`;
  if (!name.endsWith(suffix)) return null;
  const slug = name.slice(0, -suffix.length);
  return TENANT_SLUG.test(slug) ? slug : null;
}

/** Host -> tenant database, opened lazily and closed when idle. Unknown or suspended -> null. */
export function multiTenant(options: MultiTenantOptions): TenantDirectory & { sweep(): Promise<void> } {
  const idleMs = options.idleMs ?? 10 * 60_000;
  const ttl = options.registryTtlMs ?? 30_000;
  const open = new Map<string, OpenTenant>();
  const registry = new Map<string, { record: TenantRecord | null; at: number }>();

  async function lookup(slug: string): Promise<TenantRecord | null> {
    const cached = registry.get(slug);
    if (cached && Date.now() - cached.at < ttl) return cached.record;
    const [record] = await options.main.db.select().from(tenants).where(eq(tenants.slug, slug)).limit(1);
    registry.set(slug, { record: record ?? null, at: Date.now() });
    return record ?? null;
  }

  async function sweep() {
    const now = Date.now();
    for (const [slug, entry] of open) {
      if (now - entry.lastUsed < idleMs) continue;
      open.delete(slug);
      await (await entry.tenant).handle.close().catch(() => undefined);
    }
  }
  const timer = setInterval(() => void sweep(), Math.min(idleMs, 60_000));
  timer.unref();

  return {
    mode: "multi",
    async resolve(host) {
      const slug = tenantSlugFromHost(host, options.baseDomain);
      if (!slug) return null;
      const record = await lookup(slug);
      if (record?.status !== "active") return null;
      let entry = open.get(slug);
      if (!entry) {
        const tenant = options.open(record).then((handle) => ({ id: slug, handle }));
        entry = { tenant, lastUsed: Date.now() };
        open.set(slug, entry);
        tenant.catch(() => open.delete(slug));
      }
      entry.lastUsed = Date.now();
      return entry.tenant;
    },
    sweep,
    async close() {
      clearInterval(timer);
      const all = [...open.values()];
      open.clear();
      for (const entry of all) await (await entry.tenant.catch(() => null))?.handle.close();
      await options.main.close();
    },
  };
}
