import { describe, expect, it } from "vitest";
import { budgetTotals } from "./totals.js";

const pct = { overheadsPct: "13.00", profitPct: "6.00", discountPct: "0.00", vatPct: "21.00" };

describe("budgetTotals", () => {
  it("applies overheads + profit, discount and VAT, rounding each step to cents", () => {
    // pec 1000 x 1.19 = 1190; discounted 1190 x 0.9 = 1071; vat 224.91; total 1295.91
    expect(budgetTotals("1000.00", { ...pct, discountPct: "10" })).toEqual({
      pem: "1000.00",
      pec: "1190.00",
      discounted: "1071.00",
      vat: "224.91",
      total: "1295.91",
    });
  });

  it("rounds half-up from the previous rounded step", () => {
    // pec 0.05 x 1.19 = 0.0595 -> 0.06; vat 0.06 x 0.21 = 0.0126 -> 0.01
    expect(budgetTotals("0.05", pct)).toEqual({
      pem: "0.05",
      pec: "0.06",
      discounted: "0.06",
      vat: "0.01",
      total: "0.07",
    });
    // 333.33 x 1.135 = 378.32955 -> 378.33 ; x 0.975 = 368.871... -> 368.87 ; x 0.1 = 36.887 -> 36.89
    expect(
      budgetTotals("333.33", { overheadsPct: "9", profitPct: "4.5", discountPct: "2.5", vatPct: "10" }),
    ).toEqual({
      pem: "333.33",
      pec: "378.33",
      discounted: "368.87",
      vat: "36.89",
      total: "405.76",
    });
  });

  it("is all zeros for an empty budget", () => {
    expect(Object.values(budgetTotals("0", pct))).toEqual(["0.00", "0.00", "0.00", "0.00", "0.00"]);
  });
});
