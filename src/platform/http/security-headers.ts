import type { FastifyInstance, FastifyReply } from "fastify";

/** API answers are data, never a page: nothing may load from them and nobody may frame them. */
const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * Swagger UI and ReDoc: every script, style, font and image is served by this server (offline),
 * so 'self' is enough for scripts. Both render with inline styles (React, styled-components) and
 * ReDoc builds its search worker from a blob: URL.
 */
export const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "worker-src 'self' blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** Marks a reply as a docs page, whose CSP lets its own assets run. */
export function useDocsCsp(reply: FastifyReply) {
  reply.header("content-security-policy", DOCS_CSP);
}

/**
 * Headers on every answer, problems and framework errors included: no MIME sniffing, no referrer,
 * no framing, a deny-all CSP unless the route set its own (the docs pages), `no-store` unless the
 * route chose its caching (tokens and business data must not sit in shared caches), and HSTS when
 * the server is published over https.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: { publicUrl: string }) {
  const hsts = options.publicUrl.startsWith("https://") ? "max-age=31536000; includeSubDomains" : undefined;
  app.addHook("onSend", (_request, reply, payload, done) => {
    setSecurityHeaders(reply);
    if (hsts) reply.header("strict-transport-security", hsts);
    done(null, payload);
  });
}

/** The headers of every answer; also called where Fastify answers without running hooks. */
export function setSecurityHeaders(reply: FastifyReply) {
  reply.header("x-content-type-options", "nosniff");
  reply.header("referrer-policy", "no-referrer");
  reply.header("x-frame-options", "DENY");
  if (!reply.hasHeader("content-security-policy")) reply.header("content-security-policy", API_CSP);
  if (!reply.hasHeader("cache-control")) reply.header("cache-control", "no-store");
}
