import { createPrivateKey, hkdfSync } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Provider } from "oidc-provider";
import type { OAuthConfig } from "../../config.js";
import type { Db } from "../../platform/db/client.js";
import { type TenantUrlOptions, tenantBaseUrl } from "../../platform/http/tenant-url.js";
import { drizzleAdapter } from "./adapter.js";
import { cimdFetch, cimdRefusal } from "./client-policy.js";
import { renderErrorPage } from "./page.js";

export const OAUTH_ROUTES = {
  authorization: "/oauth/authorize",
  token: "/oauth/token",
  jwks: "/oauth/jwks",
  revocation: "/oauth/revoke",
  registration: "/oauth/register",
} as const;

export const INTERACTION_PATH = "/oauth/interaction";

export interface OAuthServerOptions extends TenantUrlOptions {
  oauth: OAuthConfig;
  /** JWT_SECRET: the cookie-signing and signing keys are derived from it (the same on every node). */
  secret: string;
  /** The path of the protected resource (the MCP endpoint) and the scopes it accepts. */
  resourcePath: string;
  scopes: readonly string[];
  log: { warn(details: object, message: string): void };
  /** oidc-provider revoked a grant itself (a spent refresh token reused, or the client revoked it). */
  onGrantRevoked(db: () => Promise<Db>, grantId: string, route: string): void;
}

const derive = (secret: string, info: string) =>
  Buffer.from(hkdfSync("sha256", secret, "cuadra-oauth", info, 32));

/** An Ed25519 signing key (PKCS#8 of a derived seed): oidc-provider refuses to run without one. */
function signingJwk(secret: string, tenantId: string) {
  const der = Buffer.concat([
    Buffer.from("302e020100300506032b657004220420", "hex"),
    derive(secret, `signing:${tenantId}`),
  ]);
  const jwk = createPrivateKey({ key: der, format: "der", type: "pkcs8" }).export({ format: "jwk" });
  return { ...jwk, use: "sig", alg: "EdDSA" };
}

/** What the interaction and grant routes need to know about one tenant's authorization server. */
export interface TenantOAuth {
  provider: Provider;
  issuer: string;
  resource: string;
  /** Serves one request of oidc-provider's endpoints (see asIssuer). */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

/**
 * oidc-provider builds its endpoint URLs (discovery, redirects back from the sign-in page) from the
 * request's host and scheme. They are set to the issuer's before it sees a request, so no Host or
 * X-Forwarded-* header can make it advertise another origin, and the cookies are secure whenever
 * the issuer is https (a TLS-terminating proxy in front).
 */
export function asIssuer(req: IncomingMessage, issuer: string) {
  const url = new URL(issuer);
  req.headers.host = url.host;
  req.headers["x-forwarded-proto"] = url.protocol.slice(0, -1);
  delete req.headers["x-forwarded-host"];
  delete req.headers.forwarded;
}

/**
 * One oidc-provider per tenant (issuer = the tenant's base URL), built on first use. Authorization
 * code with PKCE S256 only, public clients identified by a Client ID Metadata Document (or
 * registered dynamically when allowed), opaque access tokens bound to the MCP resource (RFC 8707),
 * `iss` in the authorization response (RFC 9207), refresh tokens rotated at every use (a spent one
 * presented again revokes the whole grant).
 */
export function createOAuthServers(options: OAuthServerOptions) {
  const servers = new Map<string, Promise<TenantOAuth>>();

  async function build(tenantId: string, db: () => Promise<Db>): Promise<TenantOAuth> {
    // Loaded on the first OAuth request, not at start: most deployments never use it, and the
    // library warns at import on Node 20 (ADR 020).
    const { errors, Provider } = await import("oidc-provider");
    const issuer = tenantBaseUrl(options, tenantId);
    const resource = `${issuer}${options.resourcePath}`;
    const scope = options.scopes.join(" ");
    const { oauth } = options;
    const provider = new Provider(issuer, {
      adapter: drizzleAdapter(db),
      clients: [],
      // Browser-based clients may call the token endpoint from the origins of their redirect URIs.
      clientBasedCORS: (_ctx: unknown, origin: string, client: { redirectUris: string[] }) =>
        client.redirectUris.some((uri) => URL.parse(uri)?.origin === origin),
      findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ sub }) }),
      cookies: {
        keys: [derive(options.secret, "cookies").toString("base64url")],
        long: { httpOnly: true, sameSite: "lax", signed: true },
        short: { httpOnly: true, sameSite: "lax", signed: true },
      },
      jwks: { keys: [signingJwk(options.secret, tenantId)] },
      scopes: ["offline_access"],
      responseTypes: ["code"],
      pkce: { required: () => true },
      clientDefaults: {
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
        id_token_signed_response_alg: "EdDSA",
      },
      enabledJWA: { idTokenSigningAlgValues: ["EdDSA"] },
      routes: OAUTH_ROUTES,
      features: {
        devInteractions: { enabled: false },
        userinfo: { enabled: false },
        introspection: { enabled: false },
        revocation: { enabled: true },
        rpInitiatedLogout: { enabled: false },
        registration: { enabled: oauth.dynamicRegistration },
        clientIdMetadataDocument: {
          enabled: true,
          ack: "draft-02",
          allowFetch: async (_ctx: unknown, clientId: string) => {
            const refused = await cimdRefusal(oauth, clientId);
            if (refused) options.log.warn({ clientId, refused }, "Client metadata document not fetched");
            return refused === null;
          },
          cacheDuration: { min: 60, max: 3600 },
        },
        resourceIndicators: {
          enabled: true,
          defaultResource: async () => resource,
          useGrantedResource: async () => true,
          getResourceServerInfo: async (_ctx: unknown, indicator: string) => {
            if (indicator !== resource) throw new errors.InvalidTarget(`the only resource is ${resource}`);
            return {
              scope,
              audience: resource,
              accessTokenTTL: oauth.accessTokenTtlSeconds,
              accessTokenFormat: "opaque",
            };
          },
        },
      },
      issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(t: string): boolean }) =>
        client.grantTypeAllowed("refresh_token"),
      rotateRefreshToken: true,
      expiresWithSession: async () => false,
      ttl: {
        AccessToken: oauth.accessTokenTtlSeconds,
        AuthorizationCode: 60,
        RefreshToken: 30 * 24 * 3600,
        Grant: 365 * 24 * 3600,
        Interaction: 15 * 60,
        Session: 15 * 60,
      },
      interactions: {
        url: (_ctx: unknown, interaction: { uid: string }) => `${INTERACTION_PATH}/${interaction.uid}`,
      },
      renderError: async (ctx: { type: string; body: string }, out: Record<string, string>) => {
        ctx.type = "html";
        ctx.body = renderErrorPage(out);
      },
      fetch: cimdFetch(oauth),
    });
    // Only the scheme is read from X-Forwarded-Proto, which asIssuer sets from the issuer.
    provider.proxy = true;
    provider.on("grant.revoked", (ctx, grantId) =>
      options.onGrantRevoked(db, grantId as string, (ctx as { oidc?: { route?: string } }).oidc?.route ?? ""),
    );
    const callback = provider.callback();
    const handle = async (req: IncomingMessage, res: ServerResponse) => {
      asIssuer(req, issuer);
      await callback(req, res);
    };
    return { provider, issuer, resource, handle };
  }

  return {
    /** The tenant's authorization server; `db` is read at each use (pools are recycled). */
    forTenant(tenantId: string, db: () => Promise<Db>): Promise<TenantOAuth> {
      let server = servers.get(tenantId);
      if (!server) {
        server = build(tenantId, db);
        servers.set(tenantId, server);
        server.catch(() => servers.delete(tenantId));
      }
      return server;
    },
  };
}

export type OAuthServers = ReturnType<typeof createOAuthServers>;
