import { describe, expect, it } from "vitest";
import { addMonthsClamped, occurrences } from "./recurrence.js";

describe("budget line recurrence", () => {
  it("adds months keeping the day or clamping to the month's end", () => {
    expect(addMonthsClamped("2026-01-31", 1)).toBe("2026-02-28");
    expect(addMonthsClamped("2026-01-31", 2)).toBe("2026-03-31");
    expect(addMonthsClamped("2028-01-31", 1)).toBe("2028-02-29");
    expect(addMonthsClamped("2026-11-15", 3)).toBe("2027-02-15");
    expect(addMonthsClamped("2026-05-10", 12)).toBe("2027-05-10");
  });

  it("lists the dates within the window, up to until", () => {
    const monthly = { date: "2026-01-31", recurrence: "monthly" as const, until: "2026-05-30" };
    expect(occurrences(monthly, "2026-02-01", "2026-12-31")).toEqual([
      "2026-02-28",
      "2026-03-31",
      "2026-04-30",
    ]);
    expect(occurrences({ ...monthly, until: null }, "2026-11-01", "2027-01-31")).toEqual([
      "2026-11-30",
      "2026-12-31",
      "2027-01-31",
    ]);
    const quarterly = { date: "2026-01-20", recurrence: "quarterly" as const, until: null };
    expect(occurrences(quarterly, "2026-01-01", "2026-12-31")).toEqual([
      "2026-01-20",
      "2026-04-20",
      "2026-07-20",
      "2026-10-20",
    ]);
    expect(
      occurrences({ date: "2025-06-30", recurrence: "yearly", until: null }, "2026-01-01", "2027-12-31"),
    ).toEqual(["2026-06-30", "2027-06-30"]);
    const once = { date: "2026-03-01", recurrence: "none" as const, until: null };
    expect(occurrences(once, "2026-03-01", "2026-03-01")).toEqual(["2026-03-01"]);
    expect(occurrences(once, "2026-03-02", "2026-04-01")).toEqual([]);
    expect(occurrences({ ...monthly, date: "2027-01-01" }, "2026-01-01", "2026-12-31")).toEqual([]);
  });
});
