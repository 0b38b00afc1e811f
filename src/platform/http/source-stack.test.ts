import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { buildSync } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sourceMappedStack, withSourceStack } from "./source-stack.js";

let dir: string;
let stack: string;

/** A bundle built as scripts/server-bundle.mjs builds the server's (minified, linked map), run by node. */
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "cuadra-source-stack-"));
  mkdirSync(join(dir, "src"));
  writeFileSync(
    join(dir, "src", "boom.ts"),
    [
      "// a module of the server",
      "export function boom(): never {",
      '  throw new Error("boom");',
      "}",
      "",
    ].join("\n"),
  );
  writeFileSync(join(dir, "src", "main.ts"), 'import { boom } from "./boom.js";\nboom();\n');
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n'); // as the server's: file:// frames
  buildSync({
    entryPoints: [join(dir, "src", "main.ts")],
    outfile: join(dir, "dist", "main.js"),
    bundle: true,
    format: "esm",
    platform: "node",
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: "linked",
    sourcesContent: false,
    logLevel: "silent",
  });
  const run = spawnSync(process.execPath, [join(dir, "dist", "main.js")], { encoding: "utf8" });
  stack = run.stderr.slice(run.stderr.indexOf("Error: boom"));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("sourceMappedStack", () => {
  it("maps the bundle's positions to the source file, line and column", () => {
    const bundleUrl = pathToFileURL(join(dir, "dist", "main.js")).href;
    expect(stack).toContain(`${bundleUrl}:1:`);
    const mapped = sourceMappedStack(stack);
    expect(mapped).toContain(`at boom (${join(dir, "src", "boom.ts")}:3:9)`);
    expect(mapped).not.toContain(bundleUrl);
  });

  it("leaves frames of files without a map, and other files, as they are", () => {
    const other = [
      "Error: x",
      `    at f (${pathToFileURL(join(dir, "main-NOMAP1.js")).href}:1:10)`,
      "    at g (file:///app/node_modules/fastify/lib/route.js:12:3)",
      "    at node:internal/process/task_queues:95:5",
    ].join("\n");
    expect(sourceMappedStack(other)).toBe(other);
  });
});

describe("withSourceStack", () => {
  it("gives a mapped copy and leaves the thrown error as it was", () => {
    class ProblemError extends Error {
      code = "X";
    }
    const error = new ProblemError("boom");
    error.stack = stack;
    const logged = withSourceStack(error);
    expect(logged).not.toBe(error);
    expect(logged).toBeInstanceOf(ProblemError);
    expect(logged.message).toBe("boom");
    expect(logged.code).toBe("X");
    expect(logged.stack).toContain(join(dir, "src", "boom.ts"));
    expect(error.stack).toBe(stack);
  });

  it("returns the same value when there is nothing to map", () => {
    const plain = new Error("plain");
    expect(withSourceStack(plain)).toBe(plain);
    expect(withSourceStack("text")).toBe("text");
  });
});
