import type { DatabaseHandle } from "./client.js";

export const DEFAULT_TENANT_ID = "default";

export interface Tenant {
  /** The tenant slug; "default" in single-tenant deployments. Tokens carry it as `tid`. */
  id: string;
  handle: DatabaseHandle;
}

/** Maps a request's Host to its tenant's database. */
export interface TenantDirectory {
  mode: "single" | "multi";
  /** The tenant the Host selects, or null when unknown or suspended. */
  resolve(host: string | undefined): Promise<Tenant | null>;
  /** Every tenant's database opened so far plus the main one (readiness, shutdown). */
  close(): Promise<void>;
}

export function singleTenant(handle: DatabaseHandle): TenantDirectory {
  const tenant: Tenant = { id: DEFAULT_TENANT_ID, handle };
  return {
    mode: "single",
    resolve: async () => tenant,
    close: () => handle.close(),
  };
}
