import { getHeapSpaceStatistics } from "node:v8";
import { describe, expect, it } from "vitest";
import { releaseStartMemory } from "./start-memory.js";

const newSpace = () => {
  const space = getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
  if (!space) throw new Error("no new_space in V8's heap statistics");
  return space;
};

describe("releaseStartMemory", () => {
  it("shrinks the young generation a start grew back to its first size", async () => {
    // A start's worth of long-lived allocation: the young generation grows toward its maximum.
    const kept: unknown[] = [];
    for (let i = 0; i < 400_000; i++) kept.push({ i, label: `row ${i}` });
    const grown = newSpace().space_size;
    expect(grown).toBeGreaterThan(2 * 1024 * 1024);

    await releaseStartMemory();

    expect(newSpace().space_size).toBeLessThan(grown / 2);
    expect(kept).toHaveLength(400_000);
  });
});
