// Preloaded with `node --import` into a spawned server (test/e2e/lazy-imports.test.ts): records
// every module the process loads to the file named by MODULE_RECORD_FILE, one URL or path a line.
// ES modules through a resolve hook (it runs on the loader thread, so it appends to the file
// itself); CommonJS modules, which a CommonJS package may require without passing the hook, from
// require.cache when the process exits. Plain JavaScript: it must run before tsx, if any, loads.
import { appendFileSync } from "node:fs";
import { createRequire, register } from "node:module";

const file = process.env.MODULE_RECORD_FILE;
if (!file) throw new Error("module-recorder: set MODULE_RECORD_FILE");
register(new URL("./module-recorder-hooks.mjs", import.meta.url), { data: { file } });
const require = createRequire(import.meta.url);
process.on("exit", () => {
  appendFileSync(file, `${Object.keys(require.cache).join("\n")}\n`);
});
