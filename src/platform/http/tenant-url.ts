/** PUBLIC_URL and BASE_DOMAIN: where each tenant is reached from outside. */
export interface TenantUrlOptions {
  /** PUBLIC_URL: the single tenant's base URL, and the scheme and port of every tenant's. */
  publicUrl: string;
  /** BASE_DOMAIN: with it, tenant `x` lives at `{scheme}://x.{BASE_DOMAIN}{:port}`. */
  baseDomain?: string;
}

/**
 * The tenant's base URL, from the configuration and the tenant id the guard resolved (never from the
 * Host header as sent, so no request can make a URL built from it point elsewhere).
 */
export function tenantBaseUrl(options: TenantUrlOptions, tenantId: string): string {
  const url = new URL(options.publicUrl);
  if (options.baseDomain) url.hostname = `${tenantId}.${options.baseDomain}`;
  return `${url.origin}${url.pathname}`.replace(/\/+$/, "");
}
