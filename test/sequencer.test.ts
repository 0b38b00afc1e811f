import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { SLOW_FILES } from "./sequencer.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

describe("the slow-first list", () => {
  it("names test files that exist, each once", () => {
    // A renamed or deleted file would silently fall back to Vitest's order (and maybe run last).
    expect(SLOW_FILES.filter((file) => !existsSync(`${ROOT}${file}`))).toEqual([]);
    expect(new Set(SLOW_FILES).size).toBe(SLOW_FILES.length);
    expect(SLOW_FILES.every((file) => file.endsWith(".test.ts"))).toBe(true);
  });
});
