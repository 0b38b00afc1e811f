import { describe, expect, it } from "vitest";
import { bucketCount, bucketIndex, buckets, isoWeekLabel } from "./buckets.js";

describe("cash-flow buckets", () => {
  it("cuts days, ISO weeks and months to the window", () => {
    expect(buckets("2026-11-29", "2026-12-01", "day").map((b) => b.label)).toEqual([
      "2026-11-29",
      "2026-11-30",
      "2026-12-01",
    ]);
    // 2026-11-26 is a Thursday: the first week runs to Sunday 29th, then Monday to Sunday.
    expect(buckets("2026-11-26", "2026-12-08", "week")).toEqual([
      { start: "2026-11-26", end: "2026-11-29", label: "2026-W48" },
      { start: "2026-11-30", end: "2026-12-06", label: "2026-W49" },
      { start: "2026-12-07", end: "2026-12-08", label: "2026-W50" },
    ]);
    expect(buckets("2026-01-15", "2026-03-10", "month")).toEqual([
      { start: "2026-01-15", end: "2026-01-31", label: "2026-01" },
      { start: "2026-02-01", end: "2026-02-28", label: "2026-02" },
      { start: "2026-03-01", end: "2026-03-10", label: "2026-03" },
    ]);
  });

  it("labels ISO weeks across years", () => {
    expect(isoWeekLabel("2026-01-01")).toBe("2026-W01");
    expect(isoWeekLabel("2027-01-01")).toBe("2026-W53");
    expect(isoWeekLabel("2024-12-30")).toBe("2025-W01");
    expect(isoWeekLabel("2026-12-31")).toBe("2026-W53");
  });

  it("counts buckets without building them, and finds a date's bucket", () => {
    for (const [from, to] of [
      ["2026-11-26", "2026-12-08"],
      ["2026-01-01", "2026-12-31"],
      ["2026-11-30", "2026-11-30"],
      ["2025-12-29", "2027-01-03"],
    ]) {
      for (const g of ["day", "week", "month"] as const)
        expect(bucketCount(from, to, g), `${from} ${to} ${g}`).toBe(buckets(from, to, g).length);
    }
    const weeks = buckets("2026-11-26", "2026-12-08", "week");
    expect(bucketIndex(weeks, "2026-11-26")).toBe(0);
    expect(bucketIndex(weeks, "2026-11-30")).toBe(1);
    expect(bucketIndex(weeks, "2026-12-08")).toBe(2);
    expect(bucketIndex(weeks, "2026-12-09")).toBe(-1);
    expect(bucketIndex(weeks, "2026-11-25")).toBe(-1);
  });
});
