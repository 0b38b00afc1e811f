import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addDays, addOneYear, firstOfMonth, lastOfMonth } from "../../../platform/dates.js";
import { planBalanceRange } from "./date-ranges.js";

const day = fc.integer({ min: 0, max: 3 * 366 }).map((n) => addDays("2024-01-01", n));

/** Every day the plan reads, months expanded to their days. */
function daysRead(plan: ReturnType<typeof planBalanceRange>): string[] {
  const out: string[] = [];
  const push = (from: string, to: string) => {
    for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  };
  if (plan.months) {
    for (let m = plan.months.from; m <= plan.months.to; m = addDays(lastOfMonth(m), 1))
      push(m, lastOfMonth(m));
  }
  for (const span of plan.days) push(span.from, span.to);
  return out.sort();
}

describe("planBalanceRange", () => {
  it("reads every day of the range exactly once", () => {
    fc.assert(
      fc.property(day, day, (a, b) => {
        const [from, to] = a <= b ? [a, b] : [b, a];
        const expected: string[] = [];
        for (let d = from; d <= to; d = addDays(d, 1)) expected.push(d);
        expect(daysRead(planBalanceRange(from, to))).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it("uses whole months where it can, and at most two loose spans of days", () => {
    expect(planBalanceRange("2026-01-01", "2026-12-31")).toEqual({
      months: { from: "2026-01-01", to: "2026-12-01" },
      days: [],
    });
    expect(planBalanceRange("2026-01-15", "2026-03-10")).toEqual({
      months: { from: "2026-02-01", to: "2026-02-01" },
      days: [
        { from: "2026-01-15", to: "2026-01-31" },
        { from: "2026-03-01", to: "2026-03-10" },
      ],
    });
    expect(planBalanceRange("2026-02-03", "2026-02-20")).toEqual({
      months: null,
      days: [{ from: "2026-02-03", to: "2026-02-20" }],
    });
    expect(planBalanceRange("2026-02-03", "2026-02-02")).toEqual({ months: null, days: [] });
  });
});

describe("calendar helpers", () => {
  it("handle month ends, leap years and year steps", () => {
    expect(lastOfMonth("2024-02-10")).toBe("2024-02-29");
    expect(lastOfMonth("2026-02-10")).toBe("2026-02-28");
    expect(lastOfMonth("2026-12-31")).toBe("2026-12-31");
    expect(firstOfMonth("2026-07-19")).toBe("2026-07-01");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(addOneYear("2026-01-01")).toBe("2027-01-01");
    expect(addOneYear("2024-02-29")).toBe("2025-03-01");
  });
});
