import { describe, expect, it } from "vitest";
import { KeyedQueue } from "./keyed-queue.js";

const tick = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));

describe("KeyedQueue", () => {
  it("runs tasks of one key one after another, in order", async () => {
    const q = new KeyedQueue();
    const log: string[] = [];
    const task = (name: string) => async () => {
      log.push(`start ${name}`);
      await tick();
      log.push(`end ${name}`);
      return name;
    };
    const results = await Promise.all([q.run("k", task("a")), q.run("k", task("b")), q.run("k", task("c"))]);
    expect(results).toEqual(["a", "b", "c"]);
    expect(log).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"]);
    expect(q.size).toBe(0);
  });

  it("runs different keys in parallel", async () => {
    const q = new KeyedQueue();
    let running = 0;
    let peak = 0;
    const task = async () => {
      running++;
      peak = Math.max(peak, running);
      await tick();
      running--;
    };
    await Promise.all([q.run("a", task), q.run("b", task), q.run("c", task)]);
    expect(peak).toBe(3);
  });

  it("a failing task rejects its own caller only and does not block the next", async () => {
    const q = new KeyedQueue();
    const failed = q.run("k", async () => {
      throw new Error("boom");
    });
    const next = q.run("k", async () => "ok");
    await expect(failed).rejects.toThrow("boom");
    await expect(next).resolves.toBe("ok");
    expect(q.size).toBe(0);
  });
});
