import { describe, expect, it } from "vitest";
import {
  itemAmount,
  lineQuantity,
  quantityFromMeasurements,
  unitPriceFromDecomposition,
} from "./arithmetic.js";
import { resolvePricing } from "./pricing.js";

const line = (
  label: string,
  units: string | null,
  length: string | null,
  width: string | null,
  height: string | null,
) => ({
  label,
  units,
  length,
  width,
  height,
});

describe("measurement lines", () => {
  it("multiplies the non-blank values, blanks counting as 1", () => {
    expect(lineQuantity(line("Muro", "2", "3.5", null, "2.75"))).toBe("19.250");
    expect(lineQuantity(line("Unidades", "7", null, null, null))).toBe("7.000");
    expect(lineQuantity(line("Hueco", "-1", "1.2", null, "2.1"))).toBe("-2.520");
  });

  it("counts a line with every value blank as a heading (0)", () => {
    expect(lineQuantity(line("Planta baja", null, null, null, null))).toBe("0.000");
  });

  it("sums the lines and rounds to 3 decimals half-up", () => {
    const lines = [line("a", "3", "0.333", "0.333", null), line("b", null, "0.0005", null, null)];
    // 3 x 0.333 x 0.333 = 0.332667 ; + 0.0005 = 0.333167 -> 0.333
    expect(quantityFromMeasurements(lines)).toBe("0.333");
    expect(quantityFromMeasurements([line("x", "0.0005", null, null, null)])).toBe("0.001");
  });
});

describe("decomposition lines", () => {
  it("sums yield x price and rounds to 4 decimals", () => {
    const lines = [
      {
        type: "labour" as const,
        code: "MO1",
        unit: "h",
        summary: "Oficial",
        yield: "0.123456",
        price: "19.8765",
      },
      {
        type: "material" as const,
        code: "MT1",
        unit: "kg",
        summary: "Acero",
        yield: "1.05",
        price: "0.8712",
      },
    ];
    // 0.123456 x 19.8765 = 2.4538725... ; 1.05 x 0.8712 = 0.91476 ; total 3.3686325... -> 3.3686
    expect(unitPriceFromDecomposition(lines)).toBe("3.3686");
  });
});

describe("amounts", () => {
  it("rounds quantity x unit price to cents half-up", () => {
    expect(itemAmount("12.345", "10.0001")).toBe("123.45");
    expect(itemAmount("1.000", "0.0050")).toBe("0.01");
    expect(itemAmount("3.000", "0.0015")).toBe("0.00");
    expect(itemAmount("-2.000", "1.0050")).toBe("-2.01");
  });
});

describe("resolvePricing", () => {
  it("lets measurement and decomposition lines override the plain fields", () => {
    const p = resolvePricing({
      quantity: "99",
      unitPrice: "99",
      measurements: [{ label: "", units: "2", length: "2.5" }],
      decomposition: [{ type: "other", code: "X", unit: "", summary: "", yield: "2", price: "1.25" }],
    });
    expect(p).toMatchObject({ quantity: "5.000", unitPrice: "2.5000", amount: "12.50" });
  });

  it("keeps the stored values when nothing about them is sent", () => {
    const current = {
      quantity: "2.000",
      unitPrice: "3.0000",
      hasMeasurements: true,
      hasDecomposition: false,
    };
    expect(resolvePricing({ unitPrice: "4" }, current)).toMatchObject({ quantity: "2.000", amount: "8.00" });
    expect(resolvePricing({ measurements: [], quantity: "5" }, current)).toMatchObject({ quantity: "5.000" });
  });

  it("refuses to overwrite a derived value alone", () => {
    const current = { quantity: "2.000", unitPrice: "3.0000", hasMeasurements: true, hasDecomposition: true };
    expect(() => resolvePricing({ quantity: "5" }, current)).toThrow(/measurement/);
    expect(() => resolvePricing({ unitPrice: "5" }, current)).toThrow(/decomposition/);
  });
});
