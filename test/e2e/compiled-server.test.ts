/**
 * What `npm start` runs (dist/main.js: one bundle with the ES module packages, its lazy parts in
 * chunks beside it, ADR 044; src/main.ts through tsx when dist/ is stale) serves the paths that load
 * code or files on first use: the docs UI, the OpenAPI document, the OAuth provider, MCP tool calls
 * (the SDK shares the server's zod), an XLSX export, a logo checked with pdfkit, and a BC3 import
 * large enough for the worker thread. Each reads files relative to its module or imports a chunk.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pngLogo } from "../../src/modules/companies/test-support.js";
import { TEST_ADMIN } from "../helpers/constants.js";
import { createTestDatabase, onPostgres, type TestDatabase } from "../helpers/db.js";
import { type ServerProcess, startServerProcess } from "../helpers/server-process.js";

/** Over the size a BC3 import is prepared inline (INLINE_MAX_BYTES, 64 kB): the worker thread's. */
const WORKER_BC3_BYTES = 80 * 1024;

let database: TestDatabase | undefined;
let dataDir: string;
let server: ServerProcess | undefined;
let base: string;
let jwt: string;
let companyId: string;

async function call(method: string, path: string, body?: unknown, token = jwt) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res;
}

async function upload(path: string, content: Buffer, fileName: string, method = "POST") {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(content)]), fileName);
  return fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${jwt}` }, body: form });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "cuadra-compiled-server-"));
  const env: Record<string, string> = { DATA_DIR: dataDir, ADMIN_PASSWORD: TEST_ADMIN.password };
  if (onPostgres()) {
    database = await createTestDatabase();
    await database.handle.close(); // the child owns the connections from here
    env.DATABASE_URL = database.url as string;
  }
  server = await startServerProcess(env);
  base = server.base;
  const login = await fetch(`${base}/api/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(TEST_ADMIN),
  });
  expect(login.status, server.output()).toBe(200);
  jwt = ((await login.json()) as { access_token: string }).access_token;
  const company = await call("POST", "/api/companies", { name: "Compilada SL", tax_id: "B12345674" });
  expect(company.status).toBe(201);
  companyId = ((await company.json()) as { id: string }).id;
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await database?.destroy();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the compiled server", () => {
  it("serves the docs UI and the OpenAPI document", async () => {
    const docs = await fetch(`${base}/api/v1/docs/`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain("<html");
    const openapi = await fetch(`${base}/api/v1/openapi.json`);
    expect(openapi.status).toBe(200);
    expect(((await openapi.json()) as { paths: object }).paths).toHaveProperty("/api/v1/budgets/import-bc3");
  });

  it("answers the OAuth provider's discovery document", async () => {
    const res = await fetch(`${base}/.well-known/oauth-authorization-server`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { issuer: string }).issuer).toBeTruthy();
  });

  it("calls an MCP tool and refuses arguments its zod schema rejects", async () => {
    const token = await call("POST", "/api/api-tokens", { name: "mcp", scopes: ["api_access", "mcp"] });
    expect(token.status).toBe(201);
    const secret = ((await token.json()) as { token: string }).token;
    const rpc = (args: unknown) =>
      fetch(`${base}/api/mcp`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${secret}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "list_contacts", arguments: args },
        }),
      });
    const ok = await rpc({ limit: 2 });
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as { result: { isError?: boolean; structuredContent: unknown } };
    expect(body.result.isError).toBeFalsy();
    expect(body.result.structuredContent).toMatchObject({ items: [], total: 0 });
    const refused = (await (await rpc({ limit: "many" })).json()) as { result?: { isError: boolean } };
    expect(refused.result?.isError).toBe(true);
  });

  it("exports a VAT book as XLSX", async () => {
    const res = await call("GET", `/api/tax/vat-books/issued?company_id=${companyId}&format=xlsx`);
    expect(res.status).toBe(200);
    expect(
      Buffer.from(await res.arrayBuffer())
        .subarray(0, 2)
        .toString(),
    ).toBe("PK");
  });

  it("stores a logo checked with pdfkit", async () => {
    const res = await upload(`/api/companies/${companyId}/logo`, pngLogo(90, 30), "logo.png", "PUT");
    expect(res.status, await res.clone().text()).toBe(200);
  });

  it("imports a BC3 file on the worker thread", async () => {
    const lines = ["~V|SOFT|FIEBDC-3/2016|Cuadra||ANSI|", "~C|OBRA##||Obra compilada|0|"];
    for (let i = 0, size = 0; size <= WORKER_BC3_BYTES; i++) {
      lines.push(`~C|P${String(i).padStart(5, "0")}|m2|Partida ${i} con una descripcion larga|12.5|`);
      size += (lines.at(-1) as string).length + 2;
    }
    const res = await upload(
      `/api/v1/budgets/import-bc3?company_id=${companyId}`,
      Buffer.from(`${lines.join("\r\n")}\r\n`),
      "obra.bc3",
    );
    expect(res.status, await res.clone().text()).toBe(201);
  });
});
