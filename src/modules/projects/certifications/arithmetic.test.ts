import { describe, expect, it } from "vitest";
import { dec } from "../../../platform/money.js";
import { cents, certificationTotals, lineAmounts } from "./arithmetic.js";

const pct = { overheadsPct: "13", profitPct: "6", discountPct: "2.5", vatPct: "21", retentionPct: "5" };

describe("certification line arithmetic", () => {
  it("rounds each amount half-up to cents and takes this period as the difference of the rounded amounts", () => {
    const line = lineAmounts({
      budgetedQuantity: "100",
      unitPrice: "12.3450",
      quantityToOrigin: "40.500",
      quantityPrevious: "25.250",
    });
    // 40.5 x 12.345 = 499.9725; 25.25 x 12.345 = 311.71125
    expect(line.amountToOrigin.toFixed(2)).toBe("499.97");
    expect(line.amountPrevious.toFixed(2)).toBe("311.71");
    expect(line.quantityThisPeriod.toFixed(3)).toBe("15.250");
    expect(line.amountThisPeriod.toFixed(2)).toBe("188.26");
    expect(line.exceedsBudget).toBe(false);
  });

  it("flags a to-origin quantity above the budgeted one, not one equal to it", () => {
    const above = lineAmounts({
      budgetedQuantity: "10",
      unitPrice: "99.995",
      quantityToOrigin: "12",
      quantityPrevious: "0",
    });
    expect(above.exceedsBudget).toBe(true);
    expect(above.amountToOrigin.toFixed(2)).toBe("1199.94");
    const equal = lineAmounts({
      budgetedQuantity: "1",
      unitPrice: "2.005",
      quantityToOrigin: "1",
      quantityPrevious: "0",
    });
    expect(equal.exceedsBudget).toBe(false);
    expect(equal.amountToOrigin.toFixed(2)).toBe("2.01");
  });

  it("rounds halves away from zero, also below zero", () => {
    expect(cents(dec("2.005")).toFixed(2)).toBe("2.01");
    expect(cents(dec("-2.005")).toFixed(2)).toBe("-2.01");
    expect(cents(dec("2.0049")).toFixed(2)).toBe("2.00");
  });
});

describe("certification totals", () => {
  it("computes the bill of the period to the cent", () => {
    const lines = [
      lineAmounts({
        budgetedQuantity: "100",
        unitPrice: "12.345",
        quantityToOrigin: "40.5",
        quantityPrevious: "25.25",
      }),
      lineAmounts({
        budgetedQuantity: "10",
        unitPrice: "99.995",
        quantityToOrigin: "12",
        quantityPrevious: "0",
      }),
      lineAmounts({
        budgetedQuantity: "1",
        unitPrice: "2.005",
        quantityToOrigin: "1",
        quantityPrevious: "0",
      }),
    ];
    const t = certificationTotals(lines, pct);
    const fixed = Object.fromEntries(Object.entries(t).map(([k, v]) => [k, v.toFixed(2)]));
    expect(fixed).toEqual({
      pemToOrigin: "1701.92",
      pemPrevious: "311.71",
      pemThisPeriod: "1390.21",
      overheads: "180.73", // 1390.21 x 13% = 180.7273
      profit: "83.41", // x 6% = 83.4126
      subtotal: "1654.35",
      discount: "41.36", // 1654.35 x 2.5% = 41.35875
      taxableBase: "1612.99",
      vat: "338.73", // 1612.99 x 21% = 338.7279
      total: "1951.72",
      retention: "80.65", // 1612.99 x 5% = 80.6495
      netPayable: "1871.07",
    });
  });

  it("is all zeros for no lines", () => {
    const t = certificationTotals([], pct);
    expect(Object.values(t).every((v) => v.isZero())).toBe(true);
  });

  it("handles a period that certifies less than before (negative this period)", () => {
    const line = lineAmounts({
      budgetedQuantity: "10",
      unitPrice: "10",
      quantityToOrigin: "4",
      quantityPrevious: "5",
    });
    const t = certificationTotals([line], { ...pct, discountPct: "0" });
    expect(t.pemThisPeriod.toFixed(2)).toBe("-10.00");
    expect(t.overheads.toFixed(2)).toBe("-1.30");
    expect(t.profit.toFixed(2)).toBe("-0.60");
    expect(t.taxableBase.toFixed(2)).toBe("-11.90");
    expect(t.vat.toFixed(2)).toBe("-2.50"); // -2.499
    expect(t.retention.toFixed(2)).toBe("-0.60"); // -0.595
    expect(t.netPayable.toFixed(2)).toBe("-13.80");
  });
});
