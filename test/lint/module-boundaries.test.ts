import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BIOME = join(ROOT, "node_modules", ".bin", "biome");

/** [file, import specifier, whether the module-boundary rule must refuse it] */
const CASES: [file: string, specifier: string, refused: boolean][] = [
  // Inside a module: another module only through its index.ts, at any depth.
  ["src/modules/projects/costs/probe-a.ts", "../../clients/service.js", true],
  ["src/modules/projects/costs/probe-b.ts", "../../clients/index.js", false],
  ["src/modules/projects/costs/probe-c.ts", "../budgets/service.js", false],
  ["src/modules/projects/costs/probe-d.ts", "../../../modules/clients/service.js", true],
  ["src/modules/projects/costs/probe-e.ts", "../../../platform/ids.js", false],
  ["src/modules/clients/probe-f.ts", "../accounting/chart/service.js", true],
  ["src/modules/clients/probe-g.ts", "../accounting/index.js", false],
  ["src/modules/clients/probe-h.ts", "./repository.js", false],
  ["src/modules/projects/bc3/deep/probe-i.ts", "../../../clients/service.js", true],
  ["src/modules/projects/bc3/deep/probe-j.ts", "../../../clients/index.js", false],
  // Foreign keys: only a tables.ts may import another module's tables.ts.
  ["src/modules/clients/tables.ts", "../companies/tables.js", false],
  ["src/modules/clients/probe-k.ts", "../companies/tables.js", true],
  // Test support: tests may import another module's test-support.ts; production code no test support.
  ["src/modules/clients/probe-l.test.ts", "../accounting/test-support.js", false],
  ["src/modules/clients/probe-m.test.ts", "../accounting/entries/service.js", true],
  ["src/modules/clients/probe-n.ts", "./test-support.js", true],
  ["src/modules/clients/probe-o.ts", "../../../test/helpers/app.js", true],
  // Entry points (CLI, MCP, app, tests, benchmarks): modules through their index.ts only.
  ["src/cli/probe-p.ts", "../modules/clients/service.js", true],
  ["src/cli/probe-q.ts", "../modules/clients/index.js", false],
  ["src/mcp/tools/probe-r.ts", "../../modules/accounting/entries/schemas.js", true],
  ["src/app/probe-s.ts", "../modules/identity/auth/service.js", true],
  ["test/probe-t.test.ts", "../src/modules/identity/users/service.js", true],
  ["test/probe-u.test.ts", "../src/modules/accounting/test-support.js", false],
  ["bench/probe-v.ts", "../src/modules/projects/bc3/write.js", true],
  // Platform never imports a module.
  ["src/platform/probe-w.ts", "../modules/companies/index.js", true],
];

const work = mkdtempSync(join(tmpdir(), "cuadra-boundaries-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Files the rule flags, linting the cases with the project's own biome.json in a scratch tree. */
function refusedFiles(): Set<string> {
  copyFileSync(join(ROOT, "biome.json"), join(work, "biome.json"));
  for (const [file, specifier] of CASES) {
    mkdirSync(dirname(join(work, file)), { recursive: true });
    writeFileSync(join(work, file), `import { probe } from "${specifier}";\n\nexport const used = probe;\n`);
  }
  const run = spawnSync(BIOME, ["lint", "--max-diagnostics=none", "--colors=off", "."], {
    cwd: work,
    encoding: "utf8",
  });
  const output = `${run.stdout}${run.stderr}`;
  const flagged = [...output.matchAll(/^(\S+\.ts):\d+:\d+ lint\/style\/noRestrictedImports/gm)];
  return new Set(flagged.map((m) => m[1].split(sep).join("/")));
}

describe("the module-boundary lint rule (biome.json noRestrictedImports)", () => {
  const refused = refusedFiles();

  for (const [file, specifier, expected] of CASES) {
    it(`${expected ? "refuses" : "accepts"} ${specifier} from ${file}`, () => {
      expect(refused.has(file)).toBe(expected);
    });
  }

  it("covers every file of every module (no module folder nests deeper than the rule's overrides)", () => {
    const depthOf = (dir: string): number =>
      Math.max(
        0,
        ...readdirSync(dir, { withFileTypes: true })
          .filter((e) => e.isDirectory())
          .map((e) => 1 + depthOf(join(dir, e.name))),
      );
    const modules = join(ROOT, "src", "modules");
    for (const module of readdirSync(modules)) {
      expect(depthOf(join(modules, module)), relative(ROOT, join(modules, module))).toBeLessThanOrEqual(3);
    }
  });
});
