import { describe, expect, it } from "vitest";
import { AppError } from "../../platform/http/errors.js";
import { instalments, nextPaymentDay, parseIsoDate, type TermLine } from "./due-dates.js";

const sumOf = (list: { amount: string }[]) =>
  list.reduce((acc, i) => acc + Math.round(Number(i.amount) * 100), 0) / 100;

function badRequest(fn: () => unknown): { path: string; message: string } {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).status).toBe(400);
    return (e as AppError).options.errors![0];
  }
  throw new Error("expected a 400");
}

const utc = (s: string) => parseIsoDate(s, "d");
const iso = (d: Date) => d.toISOString().slice(0, 10);

describe("instalments: amounts", () => {
  it("one line due immediately takes the whole total", () => {
    expect(instalments("121.00", "2026-03-10", [{ kind: "balance", days: 0 }])).toEqual([
      { dueDate: "2026-03-10", amount: "121.00" },
    ]);
  });

  it("percent lines with a balance line that takes the remainder cent", () => {
    const terms: TermLine[] = [
      { kind: "percent", value: "33.33", days: 30 },
      { kind: "percent", value: "33.33", days: 60 },
      { kind: "balance", days: 90 },
    ];
    expect(instalments("100.00", "2026-01-01", terms)).toEqual([
      { dueDate: "2026-01-31", amount: "33.33" },
      { dueDate: "2026-03-02", amount: "33.33" },
      { dueDate: "2026-04-01", amount: "33.34" },
    ]);
  });

  it("without a balance line the last line takes the rounding remainder", () => {
    const terms: TermLine[] = [
      { kind: "percent", value: "50", days: 30 },
      { kind: "percent", value: "50", days: 60 },
    ];
    // 50 % of 100.01 = 50.005 -> 50.01; the last one gets 50.00, never 50.01 + 50.01
    const result = instalments("100.01", "2026-01-01", terms);
    expect(result.map((i) => i.amount)).toEqual(["50.01", "50.00"]);
    const thirds = instalments("100.00", "2026-01-01", [
      { kind: "percent", value: "33.3333", days: 0 },
      { kind: "percent", value: "33.3333", days: 30 },
      { kind: "percent", value: "33.3334", days: 60 },
    ]);
    expect(thirds.map((i) => i.amount)).toEqual(["33.33", "33.33", "33.34"]);
    expect(sumOf(thirds)).toBe(100);
  });

  it("a fixed first instalment then the balance", () => {
    expect(
      instalments("1210.00", "2026-05-15", [
        { kind: "fixed", value: "200", days: 0 },
        { kind: "balance", days: 30 },
      ]),
    ).toEqual([
      { dueDate: "2026-05-15", amount: "200.00" },
      { dueDate: "2026-06-14", amount: "1010.00" },
    ]);
  });

  it("a credit note (negative total) gets negative instalments that add up to it", () => {
    const result = instalments("-100.01", "2026-01-01", [
      { kind: "fixed", value: "40", days: 0 },
      { kind: "percent", value: "30", days: 30 },
      { kind: "balance", days: 60 },
    ]);
    expect(result.map((i) => i.amount)).toEqual(["-40.00", "-30.00", "-30.01"]);
    expect(sumOf(result)).toBe(-100.01);
  });

  it("rounding never makes the shares overshoot: the balance is never of the opposite sign", () => {
    // 50 % of 0.01 rounds up to 0.01 twice; the second share is capped at what is left
    const result = instalments("0.01", "2026-01-01", [
      { kind: "percent", value: "50", days: 0 },
      { kind: "percent", value: "50", days: 30 },
      { kind: "balance", days: 60 },
    ]);
    expect(result.map((i) => i.amount)).toEqual(["0.01", "0.00", "0.00"]);
  });

  it("a zero total gives zero instalments on the term's dates", () => {
    expect(
      instalments("0.00", "2026-01-01", [
        { kind: "fixed", value: "50", days: 0 },
        { kind: "balance", days: 30 },
      ]),
    ).toEqual([
      { dueDate: "2026-01-01", amount: "0.00" },
      { dueDate: "2026-01-31", amount: "0.00" },
    ]);
  });
});

describe("instalments: dates", () => {
  it("31 January + 30 days at end of month is 31 March (2026 is not a leap year)", () => {
    expect(
      instalments("10.00", "2026-01-31", [{ kind: "balance", days: 30, endOfMonth: true }])[0].dueDate,
    ).toBe("2026-03-31");
    expect(instalments("10.00", "2026-01-31", [{ kind: "balance", days: 30 }])[0].dueDate).toBe("2026-03-02");
  });

  it("counts 29 February in leap years", () => {
    expect(instalments("10.00", "2024-01-31", [{ kind: "balance", days: 29 }])[0].dueDate).toBe("2024-02-29");
    expect(instalments("10.00", "2023-01-31", [{ kind: "balance", days: 29 }])[0].dueDate).toBe("2023-03-01");
    expect(
      instalments("10.00", "2024-02-01", [{ kind: "balance", days: 0, endOfMonth: true }])[0].dueDate,
    ).toBe("2024-02-29");
  });

  it("crosses the year end", () => {
    expect(instalments("10.00", "2025-12-15", [{ kind: "balance", days: 30 }])[0].dueDate).toBe("2026-01-14");
  });

  it("moves each due date forward to the customer's next payment day", () => {
    const result = instalments(
      "300.00",
      "2026-01-10",
      [
        { kind: "percent", value: "50", days: 0 },
        { kind: "balance", days: 30 },
      ],
      { paymentDays: [20, 5] },
    );
    // 10 Jan -> 20 Jan; 9 Feb -> 20 Feb
    expect(result.map((i) => i.dueDate)).toEqual(["2026-01-20", "2026-02-20"]);
    // a due date on a payment day stays; after the last payment day it goes to next month's first
    expect(iso(nextPaymentDay(utc("2026-03-05"), [5, 20]))).toBe("2026-03-05");
    expect(iso(nextPaymentDay(utc("2026-03-21"), [5, 20]))).toBe("2026-04-05");
    expect(iso(nextPaymentDay(utc("2026-12-21"), [5, 20]))).toBe("2027-01-05");
  });

  it("payment day 31 means the last day of shorter months (February, April)", () => {
    expect(iso(nextPaymentDay(utc("2026-02-10"), [31]))).toBe("2026-02-28");
    expect(iso(nextPaymentDay(utc("2024-02-10"), [31]))).toBe("2024-02-29");
    expect(iso(nextPaymentDay(utc("2026-04-01"), [31]))).toBe("2026-04-30");
    expect(iso(nextPaymentDay(utc("2026-03-31"), [31]))).toBe("2026-03-31");
    expect(iso(nextPaymentDay(utc("2026-02-28"), [30]))).toBe("2026-02-28");
    // end of month of 31 Jan + 0 days, then payment day 10 of the next month
    expect(
      instalments("10.00", "2026-01-31", [{ kind: "balance", days: 0, endOfMonth: true }], {
        paymentDays: [10],
      })[0].dueDate,
    ).toBe("2026-02-10");
  });
});

describe("instalments: validation", () => {
  it("refuses percent lines adding up to more than 100, naming the line", () => {
    const error = badRequest(() =>
      instalments("100.00", "2026-01-01", [
        { kind: "percent", value: "60", days: 0 },
        { kind: "percent", value: "30", days: 30 },
        { kind: "percent", value: "20", days: 60 },
      ]),
    );
    expect(error.path).toBe("lines.2.value");
    expect(error.message).toContain("110");
  });

  it("refuses fixed amounts over the total, naming the line", () => {
    expect(
      badRequest(() =>
        instalments("100.00", "2026-01-01", [
          { kind: "fixed", value: "60", days: 0 },
          { kind: "fixed", value: "50", days: 30 },
          { kind: "balance", days: 60 },
        ]),
      ).path,
    ).toBe("lines.1.value");
    expect(
      badRequest(() =>
        instalments("-100.00", "2026-01-01", [
          { kind: "fixed", value: "150", days: 0 },
          { kind: "balance", days: 30 },
        ]),
      ).path,
    ).toBe("lines.0.value");
  });

  it("refuses lines that leave part of the total uncovered without a balance line", () => {
    expect(
      badRequest(() =>
        instalments("100.00", "2026-01-01", [
          { kind: "percent", value: "40", days: 0 },
          { kind: "percent", value: "40", days: 30 },
        ]),
      ).path,
    ).toBe("lines.1.kind");
  });

  it("refuses a balance line that is not the last, bad values, days and payment days", () => {
    expect(
      badRequest(() =>
        instalments("100.00", "2026-01-01", [
          { kind: "balance", days: 0 },
          { kind: "percent", value: "50", days: 30 },
        ]),
      ).path,
    ).toBe("lines.0.kind");
    expect(badRequest(() => instalments("100.00", "2026-01-01", [])).path).toBe("lines");
    expect(
      badRequest(() => instalments("100.00", "2026-01-01", [{ kind: "percent", value: "0", days: 0 }])).path,
    ).toBe("lines.0.value");
    expect(
      badRequest(() => instalments("100.00", "2026-01-01", [{ kind: "percent", value: "abc", days: 0 }]))
        .path,
    ).toBe("lines.0.value");
    expect(
      badRequest(() =>
        instalments("100.00", "2026-01-01", [
          { kind: "fixed", days: 0 },
          { kind: "balance", days: 1 },
        ]),
      ).path,
    ).toBe("lines.0.value");
    expect(badRequest(() => instalments("100.00", "2026-01-01", [{ kind: "balance", days: -1 }])).path).toBe(
      "lines.0.days",
    );
    expect(badRequest(() => instalments("100.00", "2026-01-01", [{ kind: "balance", days: 1.5 }])).path).toBe(
      "lines.0.days",
    );
    expect(
      badRequest(() =>
        instalments("100.00", "2026-01-01", [{ kind: "balance", days: 0 }], { paymentDays: [5, 32] }),
      ).path,
    ).toBe("paymentDays.1");
  });

  it("refuses impossible dates and sub-cent totals", () => {
    expect(badRequest(() => instalments("100.00", "2026-02-30", [{ kind: "balance", days: 0 }])).path).toBe(
      "issueDate",
    );
    expect(badRequest(() => instalments("100.00", "26-02-01", [{ kind: "balance", days: 0 }])).path).toBe(
      "issueDate",
    );
    expect(badRequest(() => instalments("100.005", "2026-02-01", [{ kind: "balance", days: 0 }])).path).toBe(
      "total",
    );
  });
});
