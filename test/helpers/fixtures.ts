import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Real files from banks, the tax agency and other programs (../shared/fixtures, see its SOURCES.md).
 * They are read in place, never copied into the repository. CUADRA_FIXTURES overrides the location.
 */
const REPO_ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
export const FIXTURES_DIR = process.env.CUADRA_FIXTURES ?? join(REPO_ROOT, "..", "shared", "fixtures");

/** Absolute path of a fixture; throws (failing the test) when the fixtures are not where expected. */
export function fixturePath(...parts: string[]): string {
  const path = join(FIXTURES_DIR, ...parts);
  if (!existsSync(path)) {
    throw new Error(`Fixture ${path} not found: set CUADRA_FIXTURES to the shared fixtures folder`);
  }
  return path;
}
