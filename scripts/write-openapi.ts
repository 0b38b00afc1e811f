/**
 * Writes the two OpenAPI documents the app serves to a directory (CI lints them with redocly),
 * without a database or the network. Usage: tsx scripts/write-openapi.ts [out-dir]  (default openapi/)
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { buildOpenApiDocuments } from "../src/app/openapi-documents.js";

const FILES = { "/api/v1/openapi.json": "api-v1.json", "/api/openapi.json": "api.json" } as const;

const outDir = resolve(process.argv[2] ?? "openapi");
await mkdir(outDir, { recursive: true });
for (const [url, document] of Object.entries(await buildOpenApiDocuments())) {
  const file = join(outDir, FILES[url as keyof typeof FILES]);
  await writeFile(file, `${JSON.stringify(document, null, 2)}\n`);
  console.log(`${url} -> ${file}`);
}
