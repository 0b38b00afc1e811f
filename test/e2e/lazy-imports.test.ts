/**
 * Issue 21: the server's memory after start holds only what every request uses. The packages only
 * some requests need (XLSX and PDF writers, the QR encoder, the MCP SDK, ioredis, the terminal log
 * formatter, the OAuth provider, PGlite on PostgreSQL) are imported on first use
 * (src/platform/lazy.ts), and this proves a started server has not loaded them: the real entry
 * (`npm start`'s dist/main.js, or src/main.ts through tsx when dist/ is stale) runs with a module
 * recorder preloaded (test/helpers/module-recorder.mjs) until /api/ready answers, then stops.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIST } from "../../scripts/server-build.mjs";
import { createTestDatabase, onPostgres, type TestDatabase } from "../helpers/db.js";
import { type ServerProcess, startServerProcess } from "../helpers/server-process.js";

const RECORDER = fileURLToPath(new URL("../helpers/module-recorder.mjs", import.meta.url));

/** Loaded on first use only: a regression here puts megabytes back into every server's memory. */
const LAZY = [
  "exceljs",
  "pdfkit",
  "fontkit",
  "qrcode",
  "ioredis",
  "pino-pretty",
  "oidc-provider",
  "@modelcontextprotocol/server",
  "@modelcontextprotocol/server-legacy",
  "@modelcontextprotocol/client",
];

/**
 * The package of each recorded module: the last node_modules/<name> or node_modules/@scope/<name>;
 * for a file of the bundled server (dist/main.js and its chunks, ADR 044), the packages the
 * bundle's manifest (dist/.bundle.json: output file -> packages it holds) says it holds.
 */
function packagesOf(recorded: string, bundle: { dir: string; files: Record<string, string[]> }): Set<string> {
  const names = new Set<string>();
  for (const line of recorded.split("\n")) {
    const path = decodeURIComponent(line).replace(/^file:\/\//, "");
    if (path.startsWith(`${bundle.dir}/`)) {
      for (const name of bundle.files[path.slice(bundle.dir.length + 1)] ?? [])
        if (name !== "(cuadra)") names.add(name);
    }
    const parts = decodeURIComponent(line).split("/node_modules/");
    if (parts.length < 2) continue;
    const [first, second] = (parts.at(-1) as string).split("/");
    names.add(first.startsWith("@") ? `${first}/${second}` : first);
  }
  return names;
}

describe("what a started server has loaded", () => {
  let database: TestDatabase | undefined;
  let dataDir: string;
  let server: ServerProcess | undefined;
  let loaded: Set<string>;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "cuadra-lazy-imports-"));
    const record = join(dataDir, "modules.txt");
    const env: Record<string, string> = {};
    if (onPostgres()) {
      database = await createTestDatabase();
      await database.handle.close(); // the child owns the connections from here
      env.DATABASE_URL = database.url as string;
    }
    server = await startServerProcess(
      { DATA_DIR: dataDir, MODULE_RECORD_FILE: record, ...env },
      { nodeArgs: ["--import", RECORDER] },
    );
    // The OpenAPI document is built from what start loaded.
    expect((await fetch(`${server.base}/api/v1/openapi.json`)).status).toBe(200);
    await server.stop(); // the recorder writes what CommonJS loaded at exit
    const manifest = join(DIST, ".bundle.json");
    loaded = packagesOf(readFileSync(record, "utf8"), {
      dir: DIST,
      files: existsSync(manifest) ? JSON.parse(readFileSync(manifest, "utf8")) : {},
    });
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await database?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("records what it loads, ES modules and CommonJS alike (the recorder works)", () => {
    // fastify and zod are ES-imported by the app; avvio and pg-protocol only required by CommonJS.
    for (const used of ["fastify", "zod", "drizzle-orm", "jose", "avvio", "pg-protocol"])
      expect(loaded, used).toContain(used);
    expect(loaded.has("@electric-sql/pglite")).toBe(!onPostgres());
  });

  it("has not loaded the packages only some requests need", () => {
    expect(LAZY.filter((name) => loaded.has(name))).toEqual([]);
  });

  it.runIf(onPostgres())("has not loaded PGlite on PostgreSQL", () => {
    expect(loaded).not.toContain("@electric-sql/pglite");
  });
});

describe("packagesOf", () => {
  it("names the package of ES module URLs and CommonJS paths, scoped and nested ones too", () => {
    const recorded = [
      "file:///app/node_modules/exceljs/dist/es5/index.js",
      "/app/node_modules/exceljs/node_modules/unzipper/lib/parse.js",
      "file:///app/node_modules/@modelcontextprotocol/server/dist/index.mjs",
      "file:///app/dist/main.js",
      "node:fs",
      "",
    ].join("\n");
    expect([...packagesOf(recorded, { dir: "/other", files: {} })].sort()).toEqual([
      "@modelcontextprotocol/server",
      "exceljs",
      "unzipper",
    ]);
  });

  it("names the packages a bundled file holds, from the bundle's manifest", () => {
    const recorded = ["file:///app/dist/main.js", "file:///app/dist/main-AB12.js", "/app/dist/cli.js"].join(
      "\n",
    );
    const files = {
      "main.js": ["(cuadra)", "zod"],
      "main-AB12.js": ["jose"],
      "main-CD34.js": ["oidc-provider"],
    };
    expect([...packagesOf(recorded, { dir: "/app/dist", files })].sort()).toEqual(["jose", "zod"]);
  });
});
