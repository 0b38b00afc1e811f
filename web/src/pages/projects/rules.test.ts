import { describe, expect, it } from "vitest";
import {
  activityRules,
  componentCosts,
  decimalRule,
  decimalText,
  decompositionBody,
  directCost,
  inputDecimal,
  lineProduct,
  linesTotal,
  measurementsBody,
} from "./rules";

const t = (key: string) => key;
const line = (units: string, length = "", width = "", height = "", label = "") => ({
  label,
  units,
  length,
  width,
  height,
});
const component = (code: string, y: string, price: string) => ({
  type: "material" as const,
  code,
  unit: "u",
  summary: code,
  yield: y,
  price,
});

describe("typed decimals", () => {
  it("reads Spanish and plain decimals, blank as null, too many decimals or text as undefined", () => {
    expect(decimalText("1.234,567", 3)).toBe("1234.567");
    expect(decimalText(" 12.5 ", 3)).toBe("12.5");
    expect(decimalText("-2,5", 3)).toBe("-2.5");
    expect(decimalText("", 3)).toBeNull();
    expect(decimalText("1,2345", 3)).toBeUndefined();
    expect(decimalText("12a", 3)).toBeUndefined();
    expect(inputDecimal("2.500", true)).toBe("2,5");
    expect(inputDecimal("3.000", false)).toBe("3");
    expect(inputDecimal(null, true)).toBe("");
    expect(decimalRule(t, 2)("")).toBeNull();
    expect(decimalRule(t, 2, true)("")).toBe("auth.required");
    expect(decimalRule(t, 2)("1,234")).toBe("projectsEdit.badDecimal");
  });
});

describe("measurement lines", () => {
  it("multiplies a line's non-blank values, counts an all-blank line 0, sums to 3 decimals", () => {
    expect(lineProduct(line("2", "3,5", "", "0,25")).toFixed(3)).toBe("1.750");
    expect(lineProduct(line("", "", "", "", "Planta baja")).toFixed(3)).toBe("0.000");
    expect(lineProduct(line("x")).isNaN()).toBe(true);
    const lines = [line("2", "3,5", "", "0,25"), line("", "", "", "", "comment"), line("1", "0,333")];
    expect(linesTotal(lines).toFixed(3)).toBe("2.083");
    expect(linesTotal([line("-1", "2")]).toFixed(3)).toBe("-2.000");
  });

  it("sends normalised decimals and null blanks", () => {
    expect(measurementsBody([line("2", "1.234,5", "", "", " Muro ")])).toEqual([
      { label: "Muro", units: "2", length: "1234.5", width: null, height: null },
    ]);
  });
});

describe("decomposition", () => {
  it("costs yield x price, and a % line on the lines before it whose code starts with its mask", () => {
    const lines = [
      component("MO001", "0,5", "20"),
      component("MT001", "2", "3,25"),
      component("MO%", "0,1", "10"),
      component("%", "0,03", "3"),
    ];
    const costs = componentCosts(lines).map((c) => c.toFixed(4));
    // MO% = 0.1 x 10 (MO001 only); % = 0.03 x (10 + 6.5 + 1).
    expect(costs).toEqual(["10.0000", "6.5000", "1.0000", "0.5250"]);
    expect(directCost(lines).toFixed(4)).toBe("18.0250");
  });

  it("a line that is not yet a number makes the total NaN; the body carries normalised decimals", () => {
    expect(directCost([component("A", "", "2")]).isNaN()).toBe(true);
    expect(directCost([component("A", "1", "x")]).isNaN()).toBe(true);
    expect(decompositionBody([component(" A ", "0,25", "1.200,5")])).toEqual([
      { type: "material", code: "A", unit: "u", summary: "A", yield: "0.25", price: "1200.5" },
    ]);
  });
});

describe("the activity form", () => {
  const rules = activityRules(t);
  const values = {
    code: "A1",
    name: "Estructura",
    planned_start: "2026-03-01",
    planned_end: "2026-02-01",
    actual_start: "",
    actual_end: "2026-01-01",
    progress_pct: "50",
  };

  it("requires code and name and keeps progress within 0..100 with 2 decimals", () => {
    expect(rules.code(" ")).toBe("auth.required");
    expect(rules.name("Estructura")).toBeNull();
    expect(rules.progress_pct("")).toBeNull();
    expect(rules.progress_pct("45,5")).toBeNull();
    expect(rules.progress_pct("100")).toBeNull();
    expect(rules.progress_pct("100,01")).toBe("projectsEdit.progressRange");
    expect(rules.progress_pct("-1")).toBe("projectsEdit.progressRange");
    expect(rules.progress_pct("12,345")).toBe("projectsEdit.progressRange");
  });

  it("refuses an end before its start, and accepts an end without a start", () => {
    expect(rules.planned_end(values.planned_end, values)).toBe("projectsEdit.endBeforeStart");
    expect(rules.actual_end(values.actual_end, values)).toBeNull();
    expect(rules.planned_end("2026-03-01", values)).toBeNull();
  });
});
