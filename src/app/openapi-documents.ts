import { loadConfig } from "../config.js";
import type { DatabaseHandle } from "../platform/db/client.js";
import { DEFAULT_TENANT_ID, type TenantDirectory } from "../platform/db/tenancy.js";
import { API_DOCS, V1_DOCS } from "./api-docs.js";
import { buildApp } from "./build.js";

export type OpenApiDocument = Record<string, unknown> & {
  paths: Record<string, Record<string, Record<string, unknown>>>;
};

/** The served documents by their path: /api/v1/openapi.json and /api/openapi.json. */
export const OPENAPI_URLS = [`${V1_DOCS.prefix}/openapi.json`, `${API_DOCS.prefix}/openapi.json`] as const;

// The docs routes are public and read no table: a database that refuses every use proves it.
const noDatabase = new Proxy({} as DatabaseHandle, {
  get: (_target, key) => {
    throw new Error(`the OpenAPI documents must not need the database (it read handle.${String(key)})`);
  },
});

/**
 * Both OpenAPI documents exactly as the app serves them, built from the route schemas alone:
 * no database, no network (CI lints them, tests walk them).
 */
export async function buildOpenApiDocuments(): Promise<
  Record<(typeof OPENAPI_URLS)[number], OpenApiDocument>
> {
  const jwtSecret = "documents-only-this-app-never-signs-a-token";
  const config = loadConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", JWT_SECRET: jwtSecret });
  const tenants: TenantDirectory = {
    mode: "single",
    resolve: async () => ({ id: DEFAULT_TENANT_ID, handle: noDatabase }),
    close: async () => {},
  };
  const app = await buildApp({ config: { ...config, jwtSecret }, tenants });
  try {
    await app.ready();
    const documents = {} as Record<(typeof OPENAPI_URLS)[number], OpenApiDocument>;
    for (const url of OPENAPI_URLS) {
      const res = await app.inject({ method: "GET", url });
      if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode} ${res.body}`);
      documents[url] = res.json();
    }
    return documents;
  } finally {
    await app.close();
  }
}
