import { describe, expect, it } from "vitest";
import { iso, isoOrNull } from "./dates.js";

describe("iso", () => {
  it("writes what toISOString writes, years 0000 to 9999, every field padded", () => {
    const times = [
      Date.UTC(2026, 10, 24, 17, 10, 0, 123),
      Date.UTC(2026, 0, 1, 0, 0, 0, 0),
      Date.UTC(1999, 11, 31, 23, 59, 59, 999),
      Date.UTC(2024, 1, 29, 9, 5, 7, 8),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      Date.UTC(1970, 0, 1),
      Date.UTC(1969, 11, 31, 23, 59, 59, 999),
      new Date("0000-01-01T00:00:00.000Z").getTime(),
      new Date("0099-06-15T12:30:45.678Z").getTime(),
      new Date("0999-12-31T23:59:59.001Z").getTime(),
    ];
    // And a spread over the whole range, milliseconds included.
    const span = new Date("9999-12-31T23:59:59.999Z").getTime() - times[7];
    for (let i = 0; i < 2000; i++) times.push(times[7] + Math.floor(((i * 7919) % 2000) * (span / 2000)) + i);
    for (const time of times) expect(iso(new Date(time))).toBe(new Date(time).toISOString());
  });

  it("leaves years outside 0000-9999 and invalid dates to toISOString", () => {
    const far = new Date("+010000-01-01T00:00:00.000Z");
    expect(iso(far)).toBe("+010000-01-01T00:00:00.000Z");
    expect(iso(new Date("-000001-06-01T00:00:00.000Z"))).toBe("-000001-06-01T00:00:00.000Z");
    expect(() => iso(new Date("not a date"))).toThrow(RangeError);
    expect(isoOrNull(null)).toBeNull();
    expect(isoOrNull(new Date(Date.UTC(2026, 2, 4, 5, 6, 7, 89)))).toBe("2026-03-04T05:06:07.089Z");
  });
});
