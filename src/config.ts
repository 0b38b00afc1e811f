import { z } from "zod";

const DEFAULT_DEV_ORIGINS = ["http://localhost:5173", "http://localhost:42210"];

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();

/**
 * A zone Intl accepts. The canonical names are checked first: building a DateTimeFormat with a
 * time zone makes ICU read its zone and calendar data, ~10 MB of the server's RSS from its start,
 * though only issuing an invoice needs them. An alias (US/Eastern) or another spelling still passes
 * through DateTimeFormat.
 */
export function isTimeZone(zone: string): boolean {
  if (Intl.supportedValuesOf("timeZone").includes(zone)) return true;
  // Node 24's Intl takes a fixed UTC offset ("+01:00") as a time zone; it has no summer time, so
  // invoices would get the wrong local hour half the year.
  if (/^[+-]/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(0).max(65535).default(8000),
    HOST: z.string().default("0.0.0.0"),
    PUBLIC_URL: optionalString.pipe(z.url().optional()),
    DATABASE_URL: optionalString.pipe(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, { message: "must be a postgres:// or postgresql:// URL" })
        .optional(),
    ),
    DATA_DIR: z.string().default("./data"),
    STORAGE_DIR: optionalString,
    MAX_UPLOAD_MB: positiveInt(10),
    JWT_SECRET: optionalString.pipe(
      z.string().min(32, { message: "must be at least 32 characters" }).optional(),
    ),
    ACCESS_TOKEN_EXPIRE_MINUTES: positiveInt(30),
    REFRESH_TOKEN_EXPIRE_DAYS: positiveInt(7),
    AUTH_SESSION_CACHE: z.enum(["on", "off"]).default("on"),
    CORS_ORIGINS: optionalString,
    ADMIN_EMAIL: z.email().default("admin@example.com"),
    ADMIN_PASSWORD: optionalString.pipe(
      z.string().min(8, { message: "must be at least 8 characters" }).optional(),
    ),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    SHUTDOWN_GRACE_SECONDS: positiveInt(15),
    TRUST_PROXY: z.enum(["true", "false"]).default("false"),
    PGLITE_WASM_OPTIMIZE: z.enum(["true", "false"]).default("false"),
    TRUSTED_PROXIES: optionalString,
    BASE_DOMAIN: optionalString,
    REDIS_URL: optionalString,
    MCP_AUTH_TOKEN: optionalString,
    MCP_TENANT: optionalString,
    SSE_URL: optionalString.pipe(z.url().optional()),
    MCP_AUTHORIZATION: optionalString,
    OAUTH_ACCESS_TOKEN_TTL_SECONDS: positiveInt(600).pipe(z.number().min(30).max(86400)),
    OAUTH_DYNAMIC_REGISTRATION: z.enum(["true", "false"]).default("false"),
    OAUTH_CIMD_ALLOW_HTTP_LOOPBACK: z.enum(["true", "false"]).default("false"),
    OAUTH_CIMD_ALLOWED_HOSTS: optionalString,
    OAUTH_CIMD_DENIED_HOSTS: optionalString,
    VERIFACTU_SOFTWARE_NAME: z.string().trim().min(1).max(30).default("Cuadra"),
    VERIFACTU_SOFTWARE_ID: z.string().trim().min(1).max(2).default("CU"),
    VERIFACTU_SOFTWARE_VERSION: z.string().trim().min(1).max(50).default("0.1.0"),
    VERIFACTU_INSTALLATION: z.string().trim().min(1).max(100).default("0001"),
    VERIFACTU_PRODUCER_NAME: optionalString,
    VERIFACTU_PRODUCER_NIF: optionalString.pipe(
      z.string().length(9, { message: "must be a 9-character NIF" }).optional(),
    ),
    VERIFACTU_TIMEZONE: z
      .string()
      .default("Europe/Madrid")
      .refine(isTimeZone, { message: "must be an IANA time zone, e.g. Europe/Madrid or Atlantic/Canary" }),
    VERIFACTU_ENVIRONMENT: z.enum(["production", "test"]).default("production"),
    VERIFACTU_SUBMISSION: z.enum(["off", "on"]).default("off"),
    VERIFACTU_ENDPOINT: optionalString.pipe(z.url({ protocol: /^https$/ }).optional()),
    VERIFACTU_CERT_PATH: optionalString,
    VERIFACTU_CERT_PASSWORD: optionalString,
    VERIFACTU_CA_PATH: optionalString,
    VERIFACTU_SUBMISSION_INTERVAL_SECONDS: positiveInt(60),
    VERIFACTU_BATCH_SIZE: positiveInt(1000).pipe(z.number().max(1000)),
    VERIFACTU_REQUEST_TIMEOUT_SECONDS: positiveInt(60),
    VERIFACTU_LEASE_SECONDS: positiveInt(300),
    VERIFACTU_RETRY_BASE_SECONDS: positiveInt(30),
    VERIFACTU_RETRY_MAX_SECONDS: positiveInt(3600),
  })
  .superRefine((env, ctx) => {
    if (env.VERIFACTU_SUBMISSION === "on" && !env.VERIFACTU_CERT_PATH) {
      ctx.addIssue({
        code: "custom",
        path: ["VERIFACTU_CERT_PATH"],
        message: "is required when VERIFACTU_SUBMISSION=on (the AEAT authenticates the client certificate)",
      });
    }
    if (env.VERIFACTU_LEASE_SECONDS <= env.VERIFACTU_REQUEST_TIMEOUT_SECONDS) {
      ctx.addIssue({
        code: "custom",
        path: ["VERIFACTU_LEASE_SECONDS"],
        message:
          "must be longer than VERIFACTU_REQUEST_TIMEOUT_SECONDS (a live batch must not be taken over)",
      });
    }
    if (env.DATABASE_URL && !env.JWT_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["JWT_SECRET"],
        message: "is required when DATABASE_URL is set (every node must sign with the same secret)",
      });
    }
  });

export interface Config {
  env: "development" | "production" | "test";
  port: number;
  host: string;
  publicUrl: string;
  databaseUrl?: string;
  dataDir: string;
  /**
   * PGLITE_WASM_OPTIMIZE: let V8 recompile PGlite's hot functions with its optimizing compiler
   * (TurboFan). Off by default: the server, the CLI and `npm run mcp` run PGlite on the baseline
   * code alone (ADR 038, ADR 045).
   */
  pgliteWasmOptimize: boolean;
  storageDir: string;
  maxUploadBytes: number;
  /** Undefined only in embedded mode before the data directory's secret has been read. */
  jwtSecret?: string;
  accessTokenMinutes: number;
  refreshTokenDays: number;
  /** Cache the JWT guard's session check per node, invalidated by LISTEN/NOTIFY (ADR 034). */
  authSessionCache: boolean;
  corsOrigins: string[];
  adminEmail: string;
  adminPassword?: string;
  logLevel: string;
  /** How long a stopping server lets open requests finish before it closes their connections. */
  shutdownGraceSeconds: number;
  /** Behind a reverse proxy: take the client IP from X-Forwarded-For (login throttling, audit). */
  trustProxy: boolean;
  /**
   * TRUSTED_PROXIES: the proxies' addresses or CIDRs. The client IP is the right-most
   * X-Forwarded-For hop not in the list; with TRUST_PROXY=true and no list, the hop the one proxy
   * in front of us saw (the right-most). Never the left-most, which the client writes.
   */
  trustedProxies: string[];
  baseDomain?: string;
  redisUrl?: string;
  mcpAuthToken?: string;
  mcpTenant?: string;
  /** `npm run mcp` as an SSE proxy: the remote server's {base_url}/api/mcp/sse and its Authorization value. */
  sseUrl?: string;
  mcpAuthorization?: string;
  oauth: OAuthConfig;
  verifactu: VerifactuConfig;
}

/** The MCP sign-in (OAuth 2.1 authorization server, docs/mcp.md). */
export interface OAuthConfig {
  accessTokenTtlSeconds: number;
  /** RFC 7591 registration for clients without a metadata document (off by default). */
  dynamicRegistration: boolean;
  /** Tests only: fetch a loopback client_id URL over plain HTTP (never on a real deployment). */
  cimdAllowHttpLoopback: boolean;
  /** Client metadata documents: only from these hosts (empty: any public host); `*.x` for subdomains. */
  cimdAllowedHosts: string[];
  /** Client metadata documents never from these hosts. */
  cimdDeniedHosts: string[];
}

const hostList = (value: string | undefined) =>
  (value ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);

/** VeriFactu: the software block of every record and event, their time zone, and the QR host. */
export interface VerifactuConfig {
  softwareName: string;
  softwareId: string;
  softwareVersion: string;
  installation: string;
  /** The software's producer; when unset, each issuing company is its own producer. */
  producerName?: string;
  producerNif?: string;
  timezone: string;
  /** production: www2.agenciatributaria.gob.es; test: the AEAT's pre-production host. */
  environment: "production" | "test";
  submission: VerifactuSubmissionConfig;
}

/** Sending the queued records to the AEAT (docs/verifactu.md, "Submission"). */
export interface VerifactuSubmissionConfig {
  /** The in-process sender runs every intervalSeconds (off: only POST /api/verifactu/queue/run). */
  enabled: boolean;
  /** The VeriFactu SOAP endpoint; by default the AEAT's for the environment. */
  endpoint: string;
  /** PKCS#12 (.p12/.pfx) client certificate and its password. */
  certPath?: string;
  certPassword?: string;
  /** PEM of extra certificate authorities to trust for the endpoint (a test server). */
  caPath?: string;
  intervalSeconds: number;
  batchSize: number;
  requestTimeoutSeconds: number;
  leaseSeconds: number;
  retryBaseSeconds: number;
  retryMaxSeconds: number;
}

/** The WSDL's VerifactuSOAP ports (SistemaFacturacion.wsdl). */
export const AEAT_ENDPOINTS = {
  production: "https://www1.agenciatributaria.gob.es/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP",
  test: "https://prewww1.aeat.es/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP",
} as const;

export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid configuration:\n${issues.map((i) => `  - ${i}`).join("\n")}`);
  }
}

/** Without PUBLIC_URL: where this machine reaches the server (a wildcard HOST is reached as localhost). */
export function defaultPublicUrl(host: string, port: number): string {
  const wildcard = ["0.0.0.0", "::", ""].includes(host);
  const name = wildcard ? "localhost" : host.includes(":") ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/** A server listening on every interface or on loopback is also opened as localhost and 127.0.0.1. */
function loopbackOrigins(host: string, port: number): string[] {
  if (!["0.0.0.0", "::", "", "127.0.0.1", "::1", "localhost"].includes(host)) return [];
  return [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
  }
  const e = parsed.data;
  const publicUrl = (e.PUBLIC_URL ?? defaultPublicUrl(e.HOST, e.PORT)).replace(/\/+$/, "");
  const corsOrigins = e.CORS_ORIGINS
    ? e.CORS_ORIGINS.split(",")
        .map((o) => o.trim())
        .filter(Boolean)
    : [...DEFAULT_DEV_ORIGINS, new URL(publicUrl).origin, ...loopbackOrigins(e.HOST, e.PORT)];
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.DATA_DIR,
    storageDir: e.STORAGE_DIR ?? `${e.DATA_DIR.replace(/\/+$/, "")}/uploads`,
    maxUploadBytes: e.MAX_UPLOAD_MB * 1024 * 1024,
    jwtSecret: e.JWT_SECRET,
    accessTokenMinutes: e.ACCESS_TOKEN_EXPIRE_MINUTES,
    refreshTokenDays: e.REFRESH_TOKEN_EXPIRE_DAYS,
    authSessionCache: e.AUTH_SESSION_CACHE === "on",
    corsOrigins: [...new Set(corsOrigins)],
    adminEmail: e.ADMIN_EMAIL.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
    logLevel: e.LOG_LEVEL,
    shutdownGraceSeconds: e.SHUTDOWN_GRACE_SECONDS,
    trustProxy: e.TRUST_PROXY === "true",
    pgliteWasmOptimize: e.PGLITE_WASM_OPTIMIZE === "true",
    trustedProxies: (e.TRUSTED_PROXIES ?? "")
      .split(",")
      .map((p) => p.trim())
      .filter(Boolean),
    baseDomain: e.BASE_DOMAIN?.toLowerCase(),
    redisUrl: e.REDIS_URL,
    mcpAuthToken: e.MCP_AUTH_TOKEN,
    mcpTenant: e.MCP_TENANT,
    sseUrl: e.SSE_URL,
    mcpAuthorization: e.MCP_AUTHORIZATION,
    oauth: {
      accessTokenTtlSeconds: e.OAUTH_ACCESS_TOKEN_TTL_SECONDS,
      dynamicRegistration: e.OAUTH_DYNAMIC_REGISTRATION === "true",
      cimdAllowHttpLoopback: e.OAUTH_CIMD_ALLOW_HTTP_LOOPBACK === "true",
      cimdAllowedHosts: hostList(e.OAUTH_CIMD_ALLOWED_HOSTS),
      cimdDeniedHosts: hostList(e.OAUTH_CIMD_DENIED_HOSTS),
    },
    verifactu: {
      softwareName: e.VERIFACTU_SOFTWARE_NAME,
      softwareId: e.VERIFACTU_SOFTWARE_ID,
      softwareVersion: e.VERIFACTU_SOFTWARE_VERSION,
      installation: e.VERIFACTU_INSTALLATION,
      producerName: e.VERIFACTU_PRODUCER_NAME,
      producerNif: e.VERIFACTU_PRODUCER_NIF,
      timezone: e.VERIFACTU_TIMEZONE,
      environment: e.VERIFACTU_ENVIRONMENT,
      submission: {
        enabled: e.VERIFACTU_SUBMISSION === "on",
        endpoint: e.VERIFACTU_ENDPOINT ?? AEAT_ENDPOINTS[e.VERIFACTU_ENVIRONMENT],
        certPath: e.VERIFACTU_CERT_PATH,
        certPassword: e.VERIFACTU_CERT_PASSWORD,
        caPath: e.VERIFACTU_CA_PATH,
        intervalSeconds: e.VERIFACTU_SUBMISSION_INTERVAL_SECONDS,
        batchSize: e.VERIFACTU_BATCH_SIZE,
        requestTimeoutSeconds: e.VERIFACTU_REQUEST_TIMEOUT_SECONDS,
        leaseSeconds: e.VERIFACTU_LEASE_SECONDS,
        retryBaseSeconds: e.VERIFACTU_RETRY_BASE_SECONDS,
        retryMaxSeconds: e.VERIFACTU_RETRY_MAX_SECONDS,
      },
    },
  };
}
