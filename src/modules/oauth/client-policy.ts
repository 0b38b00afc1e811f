import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import type { OAuthConfig } from "../../config.js";

/**
 * Which Client ID Metadata Documents the authorization server fetches. oidc-provider itself accepts
 * only https client_id URLs (no credentials, fragment or dot segments), caps the body at 5 KB and the
 * fetch at 2.5 s, and drops connections to special-use addresses. On top of that, before any fetch:
 * the operator's deny and allow lists, and every address the host resolves to must be public.
 */
// Two lists: a BlockList also matches IPv4 addresses against IPv4-mapped IPv6 rules.
const PRIVATE_V4 = new BlockList();
const PRIVATE_V6 = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  PRIVATE_V4.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["::ffff:0:0", 96],
  ["64:ff9b::", 96],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  PRIVATE_V6.addSubnet(net, prefix, "ipv6");
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

const family = (address: string) => (isIP(address) === 6 ? "ipv6" : "ipv4");

/** A public unicast address (IPv4-mapped and NAT64 IPv6 forms never are: they hide an IPv4 one). */
export function isPublicAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 4) return !PRIVATE_V4.check(address, "ipv4");
  return version === 6 && !PRIVATE_V6.check(address, "ipv6");
}

const isLoopback = (host: string) =>
  host === "localhost" || (isIP(host) !== 0 && LOOPBACK.check(host, family(host)));

const matches = (host: string, pattern: string) =>
  pattern.startsWith("*.") ? host.endsWith(pattern.slice(1)) : host === pattern;

const hostOf = (url: URL) => url.hostname.toLowerCase().replace(/^\[|\]$/g, "");

export type Resolve = (host: string) => Promise<string[]>;

const resolveAll: Resolve = async (host) => (await lookup(host, { all: true })).map((a) => a.address);

/** Why a client_id URL may not be fetched, or null when it may. */
export async function cimdRefusal(
  config: OAuthConfig,
  clientId: string,
  resolve: Resolve = resolveAll,
): Promise<string | null> {
  const url = URL.parse(clientId);
  if (url?.protocol !== "https:") return "the client_id is not an https URL";
  const host = hostOf(url);
  if (config.cimdDeniedHosts.some((p) => matches(host, p))) return `${host} is in OAUTH_CIMD_DENIED_HOSTS`;
  if (config.cimdAllowedHosts.length && !config.cimdAllowedHosts.some((p) => matches(host, p))) {
    return `${host} is not in OAUTH_CIMD_ALLOWED_HOSTS`;
  }
  if (isLoopback(host)) {
    return config.cimdAllowHttpLoopback ? null : `${host} is a loopback address`;
  }
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch {
    return `${host} does not resolve`;
  }
  const inner = addresses.find((a) => !isPublicAddress(a));
  return inner ? `${host} resolves to the non-public address ${inner}` : null;
}

type Fetch = (url: string, options: RequestInit & { dispatcher?: unknown }) => Promise<Response>;

/**
 * oidc-provider's outgoing fetch. With OAUTH_CIMD_ALLOW_HTTP_LOOPBACK (tests), an https client_id
 * on a loopback host is fetched over plain HTTP from the same host and port, since a test cannot
 * present a trusted certificate; every other URL is fetched as given, through oidc-provider's
 * special-use-address guard.
 */
export function cimdFetch(config: OAuthConfig): Fetch {
  return (url, options) => {
    const target = new URL(url);
    if (config.cimdAllowHttpLoopback && target.protocol === "https:" && isLoopback(hostOf(target))) {
      target.protocol = "http:";
      const { dispatcher: _guard, ...rest } = options;
      return globalThis.fetch(target, rest);
    }
    return globalThis.fetch(url, options as RequestInit);
  };
}
