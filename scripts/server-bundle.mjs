// Bundles the compiled server's entry (<dir>/main.js, from tsc) and the CLI's (<dir>/cli.js: `npm run
// cli`, `npm run mcp`, spawned by the tests some fifty times) in place into ES modules (whitespace and
// syntax minified) with the ES module packages they import (ADR 044): V8 keeps every module's source text and
// Node a record per module, so ~1,300 modules at start (drizzle-orm 519 files, zod 307, jose 177)
// cost more memory and start time than one file. Run by scripts/server-build.mjs:
//   node scripts/server-bundle.mjs <dir>
// - What a start imports lazily (`import()`: exceljs, pdfkit, the MCP SDK, oidc-provider, PGlite's
//   driver...) is split into chunks beside main.js that load on first use, as before; code both
//   entries import is in shared chunks, which each process loads once.
// - CommonJS packages stay external (bundled they would be wrapped whole, lazily required parts
//   included: measured larger), and so do PGlite (its .wasm and data files) and native addons.
// - `import.meta.url` in each bundled file becomes that file's own URL, so paths read relative to a
//   module (migrations, the PGlite template, fonts, the web app, the BC3 worker) stay where they were.
// - Source maps (main.js.map...) map back to src/ through tsc's maps: node reads them only with
//   `--enable-source-maps`, src/platform/http/source-stack.ts for a logged server error's stack.
// - <dir>/.bundle.json lists the packages each output file holds (test/e2e/lazy-imports.test.ts).
import { readFileSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const dir = process.argv[2];
if (!dir) throw new Error("usage: node scripts/server-bundle.mjs <compiled dir>");
const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const ROOT_MODULES = join(ROOT, "node_modules") + sep;

/** Kept external even when they are ES modules. */
const EXTERNAL = new Set(["@electric-sql/pglite", "@node-rs/argon2", "tsx", "esbuild"]);

const packageName = (specifier) =>
  specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0];

/** The package a resolved file belongs to (the last node_modules/<name>), or null for our code. */
function packageOf(path) {
  const parts = path.split(`${sep}node_modules${sep}`);
  return parts.length < 2 ? null : packageName(parts.at(-1).split(sep).join("/"));
}

const typeCache = new Map();
/** Whether Node loads a resolved file as an ES module: .mjs, or .js under "type": "module". */
function isEsModule(path) {
  if (path.endsWith(".mjs")) return true;
  if (path.endsWith(".cjs") || path.endsWith(".json") || path.endsWith(".node")) return false;
  for (let d = dirname(path); ; d = dirname(d)) {
    if (typeCache.has(d)) return typeCache.get(d);
    let type;
    try {
      type = JSON.parse(readFileSync(join(d, "package.json"), "utf8")).type;
    } catch {
      if (dirname(d) === d) return false;
      continue;
    }
    const esm = type === "module";
    typeCache.set(d, esm);
    return esm;
  }
}

/** ES module packages are bundled; others stay imports Node resolves as before. */
const packages = {
  name: "packages",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData?.resolving || args.path.startsWith("node:")) return undefined;
      if (EXTERNAL.has(packageName(args.path))) return { external: true };
      const resolved = await b.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: { resolving: true },
      });
      if (resolved.errors.length > 0 || resolved.external) return undefined;
      if (isEsModule(resolved.path)) return undefined;
      // A package nested under another (node_modules/a/node_modules/b) is imported by its path: a
      // bare name would resolve from dist/ to the top-level copy, maybe another version.
      const topLevel = resolved.path.startsWith(ROOT_MODULES + packageName(args.path) + sep);
      if (topLevel) return { path: args.path, external: true };
      const path = relative(dir, resolved.path).split(sep).join("/");
      return { path: path.startsWith(".") ? path : `./${path}`, external: true };
    });
  },
};

/** Each bundled file's `import.meta.url` is its own file's URL, computed from the output's. */
const ownUrl = {
  name: "own-import-meta-url",
  setup(b) {
    b.onLoad({ filter: /\.m?js$/ }, async (args) => {
      const text = await readFile(args.path, "utf8");
      if (!text.includes("import.meta.url")) return undefined;
      // Every output file (main.js and its chunks) is written to `dir`.
      const path = relative(dir, args.path).split(sep).join("/");
      const url = `new URL(${JSON.stringify(path.startsWith(".") ? path : `./${path}`)}, import.meta.url).href`;
      return { contents: text.replaceAll("import.meta.url", url), loader: "js" };
    });
  },
};

const result = await build({
  entryPoints: [join(dir, "main.js"), join(dir, "cli.js")],
  outdir: dir,
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  chunkNames: "main-[hash]",
  format: "esm",
  platform: "node",
  target: "node20",
  // Whitespace and syntax only: identifiers keep their names, so stack traces name the functions
  // and classes (renaming them saved no memory measurable at start).
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: "linked",
  sourcesContent: false,
  legalComments: "none",
  // Bundled CommonJS (a dependency of an ES module package) calls require().
  banner: { js: 'import{createRequire as __cr}from"node:module";const require=__cr(import.meta.url);' },
  plugins: [packages, ownUrl],
  metafile: true,
  logLevel: "warning",
});

const manifest = {};
for (const [file, output] of Object.entries(result.metafile.outputs)) {
  if (file.endsWith(".map")) continue;
  const names = new Set(
    Object.keys(output.inputs).map((input) => packageOf(join(process.cwd(), input)) ?? "(cuadra)"),
  );
  manifest[relative(dir, file).split(sep).join("/")] = [...names].sort();
}
writeFileSync(join(dir, ".bundle.json"), `${JSON.stringify(manifest, null, 1)}\n`);
