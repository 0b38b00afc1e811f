// Compiles the server (src/ -> dist/) with tsc and tells whether dist/ is current.
// Plain JavaScript on purpose: `npm start` must decide without loading TypeScript tooling.

import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const DIST = join(ROOT, "dist");
const STAMP = ".source-stamp";
const INPUTS = [
  "tsconfig.json",
  "tsconfig.build.json",
  "package-lock.json",
  "scripts/server-build.mjs",
  "scripts/server-bundle.mjs",
];

function sourceFiles(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(path, out);
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) out.push(path);
  }
  return out;
}

/** Path, size and mtime of every compiled input: cheap (stat only) and changes with any edit or checkout. */
export function sourceFingerprint() {
  const hash = createHash("sha256");
  const files = [...sourceFiles(join(ROOT, "src")), ...INPUTS.map((f) => join(ROOT, f)).filter(existsSync)];
  for (const file of files.sort()) {
    const s = statSync(file);
    hash.update(`${relative(ROOT, file)}\0${s.size}\0${s.mtimeMs}\n`);
  }
  return hash.digest("hex");
}

export function distIsCurrent() {
  const stamp = join(DIST, STAMP);
  return existsSync(stamp) && readFileSync(stamp, "utf8") === sourceFingerprint();
}

function tscPath() {
  try {
    return createRequire(join(ROOT, "package.json")).resolve("typescript/bin/tsc");
  } catch {
    return null; // a production install (--omit=dev) has no TypeScript
  }
}

/**
 * Emits dist/ without type checking (`npm run typecheck` does that): a third of the time of a
 * checked build. Builds into a scratch folder and renames it, so a start never sees half a dist/.
 * Returns false when TypeScript is not installed.
 */
export function buildServer({ quiet = false } = {}) {
  const tsc = tscPath();
  if (!tsc) return false;
  const fingerprint = sourceFingerprint();
  const scratch = join(ROOT, `.dist-build-${process.pid}`);
  rmSync(scratch, { recursive: true, force: true });
  const run = spawnSync(
    process.execPath,
    // Source maps: the bundle's map (ADR 044) goes through them back to src/.
    [tsc, "-p", join(ROOT, "tsconfig.build.json"), "--noCheck", "--sourceMap", "--outDir", scratch],
    { cwd: ROOT, stdio: quiet ? "pipe" : "inherit", encoding: "utf8" },
  );
  if (run.status !== 0) {
    rmSync(scratch, { recursive: true, force: true });
    throw new Error(`tsc failed (exit ${run.status}):\n${run.stdout ?? ""}${run.stderr ?? ""}`);
  }
  // main.js and cli.js bundled with the ES module packages they import (ADR 044); the other files
  // stay for the BC3 worker and the benches.
  const bundle = spawnSync(process.execPath, [join(ROOT, "scripts", "server-bundle.mjs"), scratch], {
    cwd: ROOT,
    stdio: quiet ? "pipe" : "inherit",
    encoding: "utf8",
  });
  if (bundle.status !== 0) {
    rmSync(scratch, { recursive: true, force: true });
    throw new Error(`bundling failed (exit ${bundle.status}):\n${bundle.stdout ?? ""}${bundle.stderr ?? ""}`);
  }
  writeFileSync(join(scratch, STAMP), fingerprint);
  rmSync(DIST, { recursive: true, force: true });
  renameSync(scratch, DIST);
  return true;
}

/**
 * The migrated PGlite template a new embedded database starts from (src/platform/db/template.ts),
 * rebuilt only when the migrations changed. Needs dist/.
 */
export async function buildPgliteTemplate() {
  const { buildTemplate, currentTemplate } = await import(
    pathToFileURL(join(DIST, "platform", "db", "template.js")).href
  );
  if (currentTemplate()) return null;
  return buildTemplate();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let started = Date.now();
  if (buildServer()) {
    console.log(`server compiled to dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    started = Date.now();
    const built = await buildPgliteTemplate();
    if (built)
      console.log(`migrated PGlite template built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } else console.log("TypeScript is not installed (production install): npm start runs src/ with tsx");
}
