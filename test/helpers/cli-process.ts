import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DIST } from "../../scripts/server-build.mjs";

export type NpmScript = "cli" | "mcp";

const scripts = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    scripts: Record<string, string>;
  }
).scripts;

/** The compiled entry point of src/<name>.ts (test/global-setup.ts keeps dist/ current). */
export const compiledEntry = (name: "cli" | "main") => join(DIST, `${name}.js`);

/**
 * How a test spawns `npm run cli -- <args>` or `npm run mcp`. By default it runs the compiled
 * form of what the script runs (`tsx src/cli.ts ...`, read from package.json: `node dist/cli.js
 * ...`), as `npm start` does: through npm each spawn started npm, a shell, the tsx CLI and its node
 * child transpiling the whole graph, ~2.3 CPU s against ~1.0 s, and the suite spawns the CLI some
 * fifty times. `viaNpm` keeps the real `npm run` for the tests that prove the scripts themselves.
 */
export function cliCommand(
  script: NpmScript,
  args: string[] = [],
  options: { viaNpm?: boolean } = {},
): { command: string; args: string[] } {
  if (options.viaNpm) {
    return { command: "npm", args: ["run", "--silent", script, ...(args.length ? ["--", ...args] : [])] };
  }
  const [runner, entry, ...scriptArgs] = (scripts[script] ?? "").split(/\s+/);
  if (runner !== "tsx" || entry !== "src/cli.ts")
    throw new Error(`package.json script "${script}" no longer runs tsx src/cli.ts: update cliCommand`);
  return { command: process.execPath, args: [compiledEntry("cli"), ...scriptArgs, ...args] };
}
