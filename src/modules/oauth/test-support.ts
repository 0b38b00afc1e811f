/**
 * Shared setup of the OAuth tests (not a test itself): a client metadata document served on
 * loopback, an in-memory OAuthClientProvider for the SDK v2 client, and a browser (cookie jar, no
 * automatic redirects) that walks the sign-in and consent forms as a user would.
 */
import { createServer, type Server } from "node:http";
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from "@modelcontextprotocol/client";

export const REDIRECT_URI = "http://127.0.0.1:53682/callback";

export function clientMetadata(clientId: string, extra: Record<string, unknown> = {}) {
  return {
    client_id: clientId,
    client_name: "Test Assistant",
    redirect_uris: [REDIRECT_URI],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    application_type: "native",
    ...extra,
  };
}

/**
 * Serves client metadata documents over plain HTTP on loopback; their client_id is the https URL
 * of the same host and port (OAUTH_CIMD_ALLOW_HTTP_LOOPBACK fetches it over HTTP). `hits` counts
 * the fetches per path.
 */
export async function startMetadataHost() {
  const documents = new Map<string, { body: string; delayMs?: number }>();
  const hits = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const path = req.url ?? "/";
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const doc = documents.get(path);
    if (!doc) {
      res.writeHead(404).end();
      return;
    }
    const send = () => res.writeHead(200, { "content-type": "application/json" }).end(doc.body);
    if (doc.delayMs) setTimeout(send, doc.delayMs).unref();
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    hits,
    /** Publishes a document at `path` and returns its client_id. */
    publish(path: string, build: (clientId: string) => unknown = clientMetadata, delayMs?: number) {
      const clientId = `https://127.0.0.1:${port}${path}`;
      const body = build(clientId);
      documents.set(path, { body: typeof body === "string" ? body : JSON.stringify(body), delayMs });
      return clientId;
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** The SDK's OAuth client provider, in memory: the test plays the user agent with the saved URL. */
export class MemoryOAuthProvider implements OAuthClientProvider {
  authorizationUrl?: URL;
  saved?: StoredOAuthTokens;
  private info?: StoredOAuthClientInformation;
  private verifier = "";
  private discovery?: OAuthDiscoveryState;

  constructor(readonly clientMetadataUrl: string) {}

  get redirectUrl() {
    return REDIRECT_URI;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "Test Assistant",
      redirect_uris: [REDIRECT_URI],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: StoredOAuthClientInformation) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: StoredOAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
}

/** A user agent: keeps cookies, follows nothing by itself. */
export class Browser {
  private cookies = new Map<string, string>();
  lang = "en";

  constructor(readonly base: string) {}

  async request(url: string | URL, init: RequestInit = {}) {
    const headers = new Headers(init.headers);
    if (this.cookies.size) {
      headers.set("cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    }
    headers.set("accept-language", this.lang);
    const res = await fetch(new URL(url, this.base), { ...init, headers, redirect: "manual" });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(cookie) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  /** Follows redirects on this server; stops at a page (200/4xx) or at a redirect elsewhere. */
  async follow(url: string | URL): Promise<{ res: Response; url: URL }> {
    let current = new URL(url, this.base);
    for (let i = 0; i < 10; i++) {
      const res = await this.request(current);
      const location = res.headers.get("location");
      if (res.status < 300 || res.status >= 400 || !location) return { res, url: current };
      const next = new URL(location, current);
      if (next.origin !== new URL(this.base).origin) return { res, url: next };
      current = next;
    }
    throw new Error("too many redirects");
  }

  async submit(page: { html: string; url: URL }, fields: Record<string, string | string[]>) {
    const action = /<form method="post" action="([^"]+)"/.exec(page.html)?.[1]?.replace(/&amp;/g, "&");
    if (!action) throw new Error(`no form on the page: ${page.html.slice(0, 300)}`);
    const csrf = /name="csrf" value="([^"]*)"/.exec(page.html)?.[1] ?? "";
    const step = /name="step" value="([^"]*)"/.exec(page.html)?.[1] ?? "";
    const body = new URLSearchParams({ csrf, step });
    for (const [name, value] of Object.entries(fields)) {
      for (const one of [value].flat()) body.append(name, one);
    }
    return this.request(new URL(action, page.url), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body,
    });
  }
}

export interface Consent {
  email: string;
  password: string;
  company?: string;
  scopes?: string[];
}

/**
 * Walks an authorization URL as a user: signs in, consents, and returns the URL the server sent the
 * browser back to (the client's redirect_uri with code, state and iss).
 */
export async function authorize(browser: Browser, authorizationUrl: URL, consent: Consent): Promise<URL> {
  const login = await browser.follow(authorizationUrl);
  const loginHtml = await login.res.text();
  if (login.res.status !== 200)
    throw new Error(`authorization page ${login.res.status}: ${loginHtml.slice(0, 500)}`);
  const signedIn = await browser.submit(
    { html: loginHtml, url: login.url },
    { email: consent.email, password: consent.password },
  );
  if (signedIn.status !== 303)
    throw new Error(`sign-in ${signedIn.status}: ${(await signedIn.text()).slice(0, 500)}`);
  const page = await browser.follow(new URL(signedIn.headers.get("location")!, login.url));
  const html = await page.res.text();
  if (page.res.status !== 200) throw new Error(`consent page ${page.res.status}: ${html.slice(0, 500)}`);
  const scopes = consent.scopes ?? [...html.matchAll(/name="scope" value="([^"]+)"/g)].map((m) => m[1]);
  const decided = await browser.submit(
    { html, url: page.url },
    { company: consent.company ?? "all", scope: scopes, decision: "allow" },
  );
  if (decided.status !== 303)
    throw new Error(`consent ${decided.status}: ${(await decided.text()).slice(0, 500)}`);
  const back = await browser.follow(new URL(decided.headers.get("location")!, page.url));
  return back.url;
}
