import { createHmac } from "node:crypto";
import cors from "@fastify/cors";
import multipart from "@fastify/multipart";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import { validatorCompiler } from "fastify-type-provider-zod";
import type { Config } from "../config.js";
import { MCP_PATH, MCP_SCOPES, protectedResourceRoutes } from "../mcp/resource-metadata.js";
import { authenticateApiToken, authenticateMcpToken } from "../modules/api-tokens/index.js";
import { createAuthService } from "../modules/identity/index.js";
import {
  authorizationServerRoutes,
  createOAuthServers,
  grantRevokedByServer,
  resolveAccessToken,
  serverOf,
} from "../modules/oauth/index.js";
import { registerGuard } from "../platform/auth/guard.js";
import { createTokenService } from "../platform/auth/tokens.js";
import type { TenantDirectory } from "../platform/db/tenancy.js";
import { registerApiDocs } from "../platform/http/docs.js";
import { documentCommonErrors } from "../platform/http/documented-errors.js";
import {
  clientErrorHandler,
  frameworkErrors,
  registerErrorHandling,
} from "../platform/http/error-handler.js";
import { healthRoutes } from "../platform/http/health.js";
import { registerIdempotency } from "../platform/http/idempotency.js";
import { loggerOptions } from "../platform/http/logging.js";
import { registerSecurityHeaders } from "../platform/http/security-headers.js";
import { createResponseSerializerCompiler } from "../platform/http/serializer.js";
import { findWebDist, registerWebApp } from "../platform/http/web-app.js";
import { uuidv7 } from "../platform/ids.js";
import type { FileStorage } from "../platform/storage.js";
import { enterpriseModules } from "./api.js";
import { API_DOCS, V1_DOCS } from "./api-docs.js";
import { v1Modules } from "./api-v1.js";
import type { ModuleDeps } from "./deps.js";

export interface AppDeps {
  config: Config & { jwtSecret: string };
  tenants: TenantDirectory;
  /** Where logs go (tests capture them); stdout by default. */
  logStream?: NodeJS.WritableStream;
  /** File storage for uploads (tests inject faults); by default the disk under STORAGE_DIR. */
  fileStorage?: FileStorage;
  /** The built web app to serve at /; by default web/dist when it exists (none under NODE_ENV=test). */
  webRoot?: string | null;
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * The client IP is the right-most hop not added by a trusted proxy (proxy-addr): a list of proxies,
 * or one hop when TRUST_PROXY=true; Fastify's `true` would take the left-most, the client's own.
 */
function trustProxyOption(
  config: Pick<Config, "trustProxy" | "trustedProxies">,
): FastifyServerOptions["trustProxy"] {
  if (config.trustedProxies.length) return config.trustedProxies;
  return config.trustProxy ? (_address: string, hop: number) => hop < 1 : false;
}

export async function buildApp(appDeps: AppDeps): Promise<FastifyInstance> {
  const { config, tenants } = appDeps;
  const app = Fastify({
    logger: loggerOptions(config.logLevel, appDeps.logStream),
    genReqId: (req) => {
      const incoming = req.headers["x-request-id"];
      return typeof incoming === "string" && REQUEST_ID.test(incoming) ? incoming : uuidv7();
    },
    requestIdHeader: false,
    return503OnClosing: true,
    trustProxy: trustProxyOption(config),
    bodyLimit: 1024 * 1024,
    // Bad percent-encoding, a too long path parameter, an oversized head: problem+json too.
    frameworkErrors,
    clientErrorHandler,
  });
  app.setValidatorCompiler(validatorCompiler);
  // Responses: fast-json-stringify from each route's schema; zod-checked as well under tests.
  app.setSerializerCompiler(createResponseSerializerCompiler({ strict: config.env === "test" }));
  registerErrorHandling(app);
  documentCommonErrors(app);
  registerSecurityHeaders(app, { publicUrl: config.publicUrl });
  // Hooks every request runs are callback-style where they never wait: no promise per request.
  app.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    done();
  });

  await app.register(cors, {
    origin: config.corsOrigins,
    credentials: true,
    allowedHeaders: [
      "Authorization",
      "Content-Type",
      "X-Request-Id",
      "Mcp-Session-Id",
      "Mcp-Protocol-Version",
      "Mcp-Method",
      "Mcp-Name",
      "Idempotency-Key",
    ],
    exposedHeaders: [
      "X-Request-Id",
      "Retry-After",
      "Content-Disposition",
      "Mcp-Session-Id",
      "WWW-Authenticate",
      "Idempotent-Replayed",
    ],
    methods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
    maxAge: 600,
  });

  // Uploads (BC3 files, cost attachments): one file per request, MAX_UPLOAD_MB; larger -> 413.
  await app.register(multipart, {
    limits: { fileSize: config.maxUploadBytes, files: 1, fields: 20, parts: 25 },
    throwFileSizeLimit: true,
  });

  const tokens = createTokenService({
    secret: config.jwtSecret,
    accessTokenMinutes: config.accessTokenMinutes,
    refreshTokenDays: config.refreshTokenDays,
  });
  const auth = createAuthService({ tokens, sessionCache: config.authSessionCache });
  const deps: ModuleDeps = { config, tokens, auth, tenants, fileStorage: appDeps.fileStorage };
  const oauthServers = createOAuthServers({
    publicUrl: config.publicUrl,
    baseDomain: config.baseDomain,
    oauth: config.oauth,
    secret: config.jwtSecret,
    resourcePath: MCP_PATH,
    scopes: MCP_SCOPES,
    log: app.log,
    onGrantRevoked: (db, grantId, route) => {
      db()
        .then((handle) => grantRevokedByServer(handle, grantId, route))
        .catch((err) =>
          app.log.error({ err, grantId }, "Could not record a grant revoked by the OAuth server"),
        );
    },
  });
  registerGuard(app, {
    tenants,
    authenticators: {
      jwt: auth.authenticateJwt,
      apiToken: authenticateApiToken,
      mcpToken: authenticateMcpToken,
      oauthToken: async (request, credential) =>
        resolveAccessToken(request.tenant.handle.db, await serverOf(oauthServers, request), credential),
    },
  });

  registerIdempotency(app);
  await app.register(healthRoutes);
  protectedResourceRoutes(app, { publicUrl: config.publicUrl, baseDomain: config.baseDomain });
  await authorizationServerRoutes(app, {
    servers: oauthServers,
    interaction: {
      auth,
      scopes: MCP_SCOPES,
      csrfKey: Buffer.from(createHmac("sha256", config.jwtSecret).update("cuadra-oauth-csrf").digest()),
    },
  });

  await app.register(
    async (v1) => {
      await registerApiDocs(v1, V1_DOCS);
      await v1.register(v1Modules, deps);
    },
    { prefix: "/api/v1" },
  );

  // Tests get the API alone unless they pass the app they serve.
  await registerWebApp(
    app,
    appDeps.webRoot !== undefined ? appDeps.webRoot : config.env === "test" ? null : findWebDist(),
  );

  await app.register(
    async (api) => {
      await registerApiDocs(api, API_DOCS);
      await api.register(enterpriseModules, deps);
    },
    { prefix: "/api" },
  );

  return app;
}
