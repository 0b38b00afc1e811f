import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DIST, distIsCurrent, ROOT } from "../../scripts/server-build.mjs";

export type NpmScript = "cli" | "mcp";

const scripts = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    scripts: Record<string, string>;
  }
).scripts;

/** Whether dist/ was compiled from the current src/ (the check `npm start` makes), once per worker. */
let compiled: boolean | undefined;

/**
 * Node arguments running src/<name>.ts: its compiled form in dist/ when dist/ is current (postinstall
 * built it; CI and a fresh clone), else the sources through tsx's loader (src/ edited since the last
 * build), so a spawned process never runs stale code and no test run waits for a compile.
 */
export function nodeEntry(name: "cli" | "main"): string[] {
  compiled ??= distIsCurrent();
  return compiled ? [join(DIST, `${name}.js`)] : ["--import", "tsx", join(ROOT, "src", `${name}.ts`)];
}

/**
 * How a test spawns `npm run cli -- <args>` or `npm run mcp`. By default it runs what the script
 * runs (`tsx src/cli.ts ...`, read from package.json) in one node process, compiled when dist/ is
 * current (`node dist/cli.js ...`, as `npm start` runs the server): through npm each spawn started
 * npm, a shell, the tsx CLI and its node child transpiling the whole graph, ~2.3 CPU s against
 * ~1.0 s, and the suite spawns the CLI some fifty times. `viaNpm` keeps the real `npm run` for the
 * tests that prove the scripts themselves.
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
  return { command: process.execPath, args: [...nodeEntry("cli"), ...scriptArgs, ...args] };
}
