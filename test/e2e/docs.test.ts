import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string) => t.app.inject({ method: "GET", url });

/** GET, following same-server redirects. */
async function follow(url: string): Promise<{ res: LightMyRequestResponse; url: string }> {
  let current = url;
  for (let hops = 0; hops < 5; hops++) {
    const res = await get(current);
    if (res.statusCode < 300 || res.statusCode >= 400) return { res, url: current };
    const location = String(res.headers.location);
    expect(location).not.toMatch(/^https?:\/\//);
    current = new URL(location, `http://local${current}`).pathname;
  }
  throw new Error(`too many redirects from ${url}`);
}

/** src/href of script, link and img tags. */
function assetRefs(html: string): string[] {
  return [...html.matchAll(/<(?:script|link|img)\b[^>]*?\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
}

const IDENTITY_PATHS = [
  "/api/v1/auth/login",
  "/api/v1/auth/refresh",
  "/api/v1/auth/logout",
  "/api/v1/auth/logout-all",
  "/api/v1/auth/login-audit",
  "/api/v1/users/me",
  "/api/v1/users/me/password",
  "/api/v1/users",
  "/api/v1/users/{id}",
  "/api/v1/users/{id}/revoke-tokens",
  "/api/v1/users/{id}/roles",
  "/api/v1/users/{id}/roles/{role_id}",
  "/api/v1/roles",
  "/api/v1/roles/{id}",
  "/api/v1/roles/{id}/permissions",
  "/api/v1/roles/{id}/permissions/{perm_id}",
  "/api/v1/permissions",
];

describe("GET /api/v1/openapi.json", () => {
  // biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document walked by hand
  let spec: any;
  beforeAll(async () => {
    const res = await get("/api/v1/openapi.json");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    spec = res.json();
  });

  it("is OpenAPI 3.1 with a bearer security scheme", () => {
    expect(spec.openapi).toMatch(/^3\.1\./);
    expect(spec.info.title).toBeTruthy();
    expect(spec.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" });
  });

  it("lists every identity path with its schemas and security", () => {
    for (const path of IDENTITY_PATHS) expect(Object.keys(spec.paths), path).toContain(path);
    const login = spec.paths["/api/v1/auth/login"].post;
    expect(login.security).toEqual([]);
    expect(login.requestBody.content["application/json"].schema.properties).toHaveProperty("email");
    expect(login.requestBody.content["application/json"].schema.properties).toHaveProperty("password");
    expect(login.responses["200"].content["application/json"].schema.properties).toHaveProperty(
      "access_token",
    );
    for (const status of ["400", "401", "429"]) expect(Object.keys(login.responses)).toContain(status);

    const list = spec.paths["/api/v1/users"].get;
    expect(list.security).toEqual([{ bearer: [] }]);
    expect(list.description).toContain("usuarios:leer");
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(["limit", "offset", "search", "is_active", "role_id"]),
    );
    expect(Object.keys(list.responses["200"].content["application/json"].schema.properties).sort()).toEqual([
      "data",
      "limit",
      "offset",
      "total",
    ]);

    for (const [path, item] of Object.entries(spec.paths)) {
      if (!path.startsWith("/api/v1/") || !IDENTITY_PATHS.includes(path)) continue;
      // biome-ignore lint/suspicious/noExplicitAny: operation objects
      for (const [method, op] of Object.entries(item as Record<string, any>)) {
        const publicRoute = path === "/api/v1/auth/login" || path === "/api/v1/auth/refresh";
        if (!publicRoute) {
          expect(op.security, `${method} ${path}`).toEqual([{ bearer: [] }]);
          expect(Object.keys(op.responses), `${method} ${path}`).toContain("401");
        }
        expect(op.summary, `${method} ${path}`).toBeTruthy();
        const ok = Object.keys(op.responses).filter((s) => s.startsWith("2"));
        expect(ok.length, `${method} ${path}`).toBe(1);
        expect(op.responses["500"].content, `${method} ${path}`).toEqual({
          "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } },
        });
      }
    }
  });

  it("does not list the docs routes themselves", () => {
    for (const path of Object.keys(spec.paths)) expect(path).not.toMatch(/\/(docs|redoc|openapi\.json)/);
  });
});

describe.each(["/api/v1", "/api"])("docs under %s", (prefix) => {
  it("serves openapi.json", async () => {
    const res = await get(`${prefix}/openapi.json`);
    expect(res.statusCode).toBe(200);
    expect(res.json().openapi).toMatch(/^3\.1\./);
  });

  it.each(["/docs", "/docs/"])(
    "serves Swagger UI at %s with every asset from the server itself",
    async (page) => {
      const { res, url } = await follow(`${prefix}${page}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toMatch(/^text\/html/);
      const html = res.body;
      expect(html).toContain("swagger");
      expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
      const refs = assetRefs(html);
      expect(refs.length).toBeGreaterThanOrEqual(3);
      expect(refs.some((r) => r.endsWith(".js"))).toBe(true);
      expect(refs.some((r) => r.endsWith(".css"))).toBe(true);
      for (const ref of refs) {
        const path = new URL(ref, `http://local${url}`).pathname;
        expect(path.startsWith(`${prefix}/docs/`), `${ref} from ${url}`).toBe(true);
        const asset = await get(path);
        expect(asset.statusCode, `${ref} -> ${path}`).toBe(200);
        expect(asset.body.length).toBeGreaterThan(0);
        if (path.endsWith(".js")) expect(asset.headers["content-type"]).toMatch(/javascript/);
        if (path.endsWith(".css")) expect(asset.headers["content-type"]).toMatch(/^text\/css/);
      }
    },
  );

  it("serves the Swagger UI initializer pointing at the local spec", async () => {
    const init = await get(`${prefix}/docs/static/swagger-initializer.js`);
    expect(init.statusCode).toBe(200);
    expect(init.body).not.toMatch(/["'`]https?:\/\//); // no external URL in a string (comments aside)
    const json = await get(`${prefix}/docs/json`);
    expect(json.statusCode).toBe(200);
    expect(json.json().openapi).toMatch(/^3\.1\./);
  });

  it("serves ReDoc with local assets only", async () => {
    const { res } = await follow(`${prefix}/redoc`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
    expect(res.body).toContain(`spec-url="${prefix}/openapi.json"`);
    const refs = assetRefs(res.body);
    expect(refs).toEqual([`${prefix}/redoc/redoc.standalone.js`]);
    expect(res.body).not.toMatch(/(src|href)="(https?:)?\/\//);
    const bundle = await get(`${prefix}/redoc/redoc.standalone.js`);
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers["content-type"]).toMatch(/^application\/javascript/);
    expect(bundle.rawPayload.length).toBeGreaterThan(100_000);
  });

  it("needs no token", async () => {
    for (const path of ["/openapi.json", "/docs/", "/redoc"]) {
      expect((await get(`${prefix}${path}`)).statusCode).toBe(200);
    }
  });
});

describe("OpenAPI references", () => {
  it("resolves every $ref of both documents (ReDoc refuses to render a dangling one)", async () => {
    for (const url of ["/api/v1/openapi.json", "/api/openapi.json"]) {
      const doc = (await get(url)).json();
      const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/([^"]+)"/g)].map((m) => m[1]);
      expect(refs.length, url).toBeGreaterThan(0);
      for (const ref of refs) {
        const target = ref.split("/").reduce((node: Record<string, unknown> | undefined, key) => {
          return node?.[decodeURIComponent(key)] as Record<string, unknown> | undefined;
        }, doc);
        expect(target, `${url} #/${ref}`).toBeDefined();
      }
    }
  });
});
