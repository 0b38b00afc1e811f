import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply } from "fastify";
import "./route-config.js";

/**
 * The web app (web/, built by `npm run build:web`) is served at / by the API server itself:
 * hashed assets cached for a year, index.html never cached, and any other GET that is not an API,
 * docs or well-known path answered with index.html so the browser router can take it. Paths under
 * those prefixes keep their problem+json 404s.
 */
export const WEB_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // Mantine writes its CSS variables and a few component styles inline.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const NOT_APP = /^\/(api|docs|\.well-known)(\/|$)/;
const HASHED_ASSET = /^\/assets\//;

/** web/dist, looked for upwards from this file (tsx from src/, or a compiled copy elsewhere). */
export function findWebDist(from = dirname(fileURLToPath(import.meta.url))): string | null {
  let dir = from;
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, "web", "dist");
    if (existsSync(join(candidate, "index.html"))) return candidate;
    const parent = resolve(dir, "..");
    if (parent === dir) break;
    dir = parent;
  }
  return null;
}

function appHeaders(reply: FastifyReply, path: string) {
  reply.header("content-security-policy", WEB_CSP);
  reply.header("cache-control", HASHED_ASSET.test(path) ? "public, max-age=31536000, immutable" : "no-cache");
}

/** Serves the built app from `root`; does nothing when it has not been built. */
export async function registerWebApp(app: FastifyInstance, root: string | null) {
  if (!root) {
    app.log.debug("web/dist not found: the web app is not served (run `npm run build:web`)");
    return;
  }
  await app.register(async (web) => {
    web.addHook("onRoute", (route) => {
      route.config = { ...(route.config ?? {}), auth: "public" };
    });
    web.addHook("onRequest", async (request, reply) => {
      const path = request.url.split("?")[0];
      if (!NOT_APP.test(path)) appHeaders(reply, path);
    });
    await web.register(fastifyStatic, {
      root,
      prefix: "/",
      // One route per built file (the build is fixed at start); everything else reaches the fallback.
      wildcard: false,
      index: false,
      cacheControl: false,
      etag: true,
      lastModified: true,
      schemaHide: true,
    });
    web.get("/", { schema: { hide: true } }, (_request, reply) => reply.sendFile("index.html"));
    web.get("/*", { schema: { hide: true } }, (request, reply) => {
      const path = request.url.split("?")[0];
      // A missing asset (an old tab after a new build) must fail as itself, not load a page as a script.
      if (NOT_APP.test(path) || HASHED_ASSET.test(path)) return reply.callNotFound();
      return reply.sendFile("index.html");
    });
  });
}
