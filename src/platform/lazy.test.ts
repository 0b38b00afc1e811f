import { describe, expect, it } from "vitest";
import { lazyImport } from "./lazy.js";

describe("lazyImport", () => {
  it("imports nothing until first called, then once for concurrent callers", async () => {
    let loads = 0;
    const load = lazyImport(async () => {
      loads += 1;
      await new Promise((r) => setTimeout(r, 5));
      return { value: loads };
    });
    expect(loads).toBe(0);
    const [a, b, c] = await Promise.all([load(), load(), load()]);
    expect(loads).toBe(1);
    expect(a).toBe(b);
    expect(b).toBe(c);
    expect(await load()).toBe(a);
    expect(loads).toBe(1);
  });

  it("does not cache a failed import: the next call tries again", async () => {
    let attempts = 0;
    const load = lazyImport(async () => {
      attempts += 1;
      if (attempts === 1) throw new Error("disk hiccup");
      return "loaded";
    });
    await expect(load()).rejects.toThrow("disk hiccup");
    expect(await load()).toBe("loaded");
    expect(attempts).toBe(2);
  });

  it("loads a real module lazily (its namespace)", async () => {
    const load = lazyImport(() => import("decimal.js"));
    const { Decimal } = await load();
    expect(new Decimal("0.1").plus("0.2").toString()).toBe("0.3");
  });
});
