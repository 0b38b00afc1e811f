// `npm start`: runs the compiled server from dist/, compiling it first when dist/ is missing or
// older than src/ (postinstall normally did it). Without TypeScript installed, falls back to tsx.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { buildServer, DIST, distIsCurrent, ROOT } from "./server-build.mjs";

async function entry() {
  if (distIsCurrent()) return join(DIST, "main.js");
  process.stderr.write("dist/ is missing or older than src/: compiling the server...\n");
  if (buildServer()) return join(DIST, "main.js");
  process.stderr.write("TypeScript is not installed: running src/ with tsx\n");
  const { register } = await import("tsx/esm/api");
  register();
  return join(ROOT, "src", "main.ts");
}

await import(pathToFileURL(await entry()).href);
