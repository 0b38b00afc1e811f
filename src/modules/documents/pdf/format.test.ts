import { describe, expect, it } from "vitest";
import {
  formatAmount,
  formatDate,
  formatEuro,
  formatQuantity,
  formatRate,
  formatUnitPrice,
} from "./format.js";

describe("Spanish number formatting", () => {
  it("formats euros with thousands dots, a decimal comma and the symbol after", () => {
    expect(formatEuro("1234.56")).toBe("1.234,56 €");
    expect(formatEuro("0")).toBe("0,00 €");
    expect(formatEuro("999.999")).toBe("1.000,00 €");
    expect(formatEuro("1234567.5")).toBe("1.234.567,50 €");
    expect(formatEuro("-18")).toBe("-18,00 €");
    expect(formatEuro("-0.001")).toBe("0,00 €");
    expect(formatAmount("100")).toBe("100,00");
    expect(formatAmount("-1000.005")).toBe("-1.000,01");
  });

  it("formats quantities, unit prices and rates without useless zeros", () => {
    expect(formatQuantity("2.0000")).toBe("2");
    expect(formatQuantity("1.5")).toBe("1,5");
    expect(formatQuantity("1250.125")).toBe("1.250,125");
    expect(formatQuantity("-3")).toBe("-3");
    expect(formatUnitPrice("10")).toBe("10,00");
    expect(formatUnitPrice("10.5")).toBe("10,50");
    expect(formatUnitPrice("0.123456")).toBe("0,123456");
    expect(formatUnitPrice("1234.1200")).toBe("1.234,12");
    expect(formatUnitPrice("1234.1230")).toBe("1.234,123");
    expect(formatRate("21.00")).toBe("21");
    expect(formatRate("5.20")).toBe("5,2");
    expect(formatRate("0")).toBe("0");
  });

  it("formats dates as dd/mm/yyyy", () => {
    expect(formatDate("2026-01-05")).toBe("05/01/2026");
    expect(formatDate(null)).toBe("");
    expect(() => formatDate("05/01/2026")).toThrow();
  });
});
