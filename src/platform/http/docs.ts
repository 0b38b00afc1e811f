import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { jsonSchemaTransform, jsonSchemaTransformObject } from "fastify-type-provider-zod";
import { acceptsIdempotencyKey, idempotencyKeyHeaderSchema } from "./idempotency.js";
import { type DocumentOptions, finishOpenApiDocument, uploadBodySchema } from "./openapi.js";
import "./route-config.js";
import { useDocsCsp } from "./security-headers.js";

const require = createRequire(import.meta.url);
const REDOC_BUNDLE = require.resolve("redoc/bundles/redoc.standalone.js");
/** The only asset the bundle fetches from elsewhere: the side menu's "API docs by Redocly" logo. */
const REDOC_REMOTE_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg";
const LOCAL_LOGO =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='16' height='16'%3E%3Crect " +
  "width='16' height='16' rx='3' fill='%2332329f'/%3E%3C/svg%3E";

let redocBundleText: Promise<string> | undefined;
/** ReDoc's bundle with its remote logo replaced by an inline one: offline, and nothing for the CSP to block. */
function redocBundle(): Promise<string> {
  redocBundleText ??= readFile(REDOC_BUNDLE, "utf8").then((text) => {
    if (!text.includes(REDOC_REMOTE_LOGO)) return text;
    return text.replace(REDOC_REMOTE_LOGO, LOCAL_LOGO);
  });
  return redocBundleText;
}

export interface DocsOptions extends DocumentOptions {
  /** URL prefix of the API surface, e.g. "/api/v1". */
  prefix: string;
  title: string;
  description: string;
  version: string;
}

/**
 * OpenAPI 3.1 generated from the route schemas of one API surface, served as
 * {prefix}/openapi.json, Swagger UI at {prefix}/docs and ReDoc at {prefix}/redoc, all offline.
 * Must be registered in the surface's scope before its routes.
 */
export async function registerApiDocs(scope: FastifyInstance, options: DocsOptions) {
  await scope.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: { title: options.title, description: options.description, version: options.version },
      components: {
        securitySchemes: {
          bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT or cdr_ API token" },
        },
      },
    },
    // Schemas with an id (recursive trees) become components/schemas, which their $refs point to.
    transformObject: (input) =>
      finishOpenApiDocument(jsonSchemaTransformObject(input) as Record<string, unknown>, options),
    transform: (input) => {
      const out = jsonSchemaTransform(input);
      const config = input.route.config ?? {};
      const schema = out.schema as Record<string, unknown>;
      if (config.auth === "public") schema.security = [];
      else {
        schema.security = [{ bearer: [] }];
        const who = config.permission
          ? `Requires permission \`${config.permission}\`.`
          : "Any authenticated caller.";
        schema.description = schema.description ? `${schema.description}\n\n${who}` : who;
      }
      if (config.upload) schema.body = uploadBodySchema(config.upload);
      if (acceptsIdempotencyKey(input.route) && !schema.headers) schema.headers = idempotencyKeyHeaderSchema;
      // Routes registered as "/" under a module prefix answer with and without the slash; document the bare one.
      return { ...out, url: out.url.length > 1 ? out.url.replace(/\/$/, "") : out.url };
    },
  });

  await scope.register(async (docs) => {
    docs.addHook("onRoute", (route) => {
      route.config = { ...(route.config ?? {}), auth: "public" };
    });
    // The pages load their own scripts, styles and fonts from here, nothing from elsewhere.
    docs.addHook("onRequest", async (_request, reply) => useDocsCsp(reply));
    await docs.register(swaggerUi, {
      routePrefix: "/docs",
      // Without it, {prefix}/docs (no trailing slash) links its assets at /docs/static/...: 404s.
      indexPrefix: options.prefix,
      uiConfig: { validatorUrl: null, docExpansion: "list", deepLinking: true },
      staticCSP: false,
    } as Parameters<typeof swaggerUi>[1]);
    docs.get("/openapi.json", { schema: { hide: true } }, async () => scope.swagger());
    docs.get("/redoc", { schema: { hide: true } }, async (_req, reply) =>
      reply.type("text/html; charset=utf-8").send(redocPage(options)),
    );
    docs.get("/redoc/redoc.standalone.js", { schema: { hide: true } }, async (_req, reply) =>
      reply
        .type("application/javascript; charset=utf-8")
        .header("cache-control", "public, max-age=86400")
        .send(await redocBundle()),
    );
  });
}

function redocPage(options: DocsOptions): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${options.title} — ReDoc</title>
  <style>body { margin: 0; padding: 0; }</style>
</head>
<body>
  <redoc spec-url="${options.prefix}/openapi.json" hide-download-button="false"></redoc>
  <script src="${options.prefix}/redoc/redoc.standalone.js"></script>
</body>
</html>`;
}
