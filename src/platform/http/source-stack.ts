import { readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * `npm start` runs a minified bundle (dist/main.js and its chunks, ADR 044) without
 * `--enable-source-maps`, which would hold every map in memory from the start (~9 MB). A stack
 * logged for a server error is mapped here instead: each bundle file's map is read on the first
 * stack that passes through it, so a server that never fails never reads one.
 */
const BUNDLE_FRAME = /((?:file:\/\/)?\/[^\s()]*\/main(?:-[A-Z0-9]+)?\.js):(\d+):(\d+)/g;
const maps = new Map<string, SourceMap | null>();

function mapOf(file: string): SourceMap | null {
  let map = maps.get(file);
  if (map === undefined) {
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, "utf8")));
    } catch {
      map = null; // no map beside it: not a bundle file, or built without one
    }
    maps.set(file, map);
  }
  return map;
}

/** The stack with each bundle position replaced by its source file, line and column. */
export function sourceMappedStack(stack: string): string {
  return stack.replace(BUNDLE_FRAME, (frame, where: string, line: string, column: string) => {
    const file = where.startsWith("file:") ? fileURLToPath(where) : where;
    const origin = mapOf(file)?.findEntry(Number(line) - 1, Number(column) - 1);
    if (!origin || !("originalSource" in origin) || !origin.originalSource) return frame;
    const source = origin.originalSource.startsWith("file:")
      ? fileURLToPath(origin.originalSource)
      : resolve(dirname(file), origin.originalSource);
    return `${source}:${origin.originalLine + 1}:${origin.originalColumn + 1}`;
  });
}

/** For logging: the error with its stack source-mapped (same object when nothing changes). */
export function withSourceStack<T>(error: T): T {
  if (!(error instanceof Error) || !error.stack || process.sourceMapsEnabled) return error;
  const stack = sourceMappedStack(error.stack);
  if (stack === error.stack) return error;
  // A copy, so what callers and other handlers see is the error as thrown.
  return Object.assign(Object.create(Object.getPrototypeOf(error)), error, {
    message: error.message,
    stack,
  }) as T;
}
