import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Real files from banks, the tax agency and other programs (../shared/fixtures, see its SOURCES.md).
 * They are read in place, never copied into the repository. CUADRA_FIXTURES overrides the location.
 */
const REPO_ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));

/** The nearest shared/fixtures beside the repository or one of its parent folders (worktrees, CI clones). */
function findFixtures(): string {
  for (let dir = dirname(REPO_ROOT); ; dir = dirname(dir)) {
    const candidate = join(dir, "shared", "fixtures");
    if (existsSync(candidate) || dir === dirname(dir)) return candidate;
  }
}

export const FIXTURES_DIR = process.env.CUADRA_FIXTURES ?? findFixtures();

/** Absolute path of a fixture; throws (failing the test) when the fixtures are not where expected. */
export function fixturePath(...parts: string[]): string {
  const path = join(FIXTURES_DIR, ...parts);
  if (!existsSync(path)) {
    throw new Error(`Fixture ${path} not found: set CUADRA_FIXTURES to the shared fixtures folder`);
  }
  return path;
}
