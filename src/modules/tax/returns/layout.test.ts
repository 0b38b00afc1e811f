import { describe, expect, it } from "vitest";
import { compute111, compute115, compute303 } from "./compute.js";
import { compute390 } from "./compute-390.js";
import { layOutBoxes, MANUAL_BOXES } from "./layout.js";
import { periodOf } from "./periods.js";

const sections = (boxes: ReturnType<typeof layOutBoxes>) => [...new Set(boxes.map((b) => b.section))];

describe("the AEAT forms' layout handed out with a return's boxes", () => {
  it("orders the 303's boxes as the form, whatever order the stored JSON gives them", () => {
    // A JSON object puts integer-like keys first in numeric order ("01" is not one, "150" is).
    const stored = JSON.parse(
      JSON.stringify({ "150": "1", "27": "2", "09": "3", "07": "4", "45": "5", "71": "6" }),
    );
    const laid = layOutBoxes("303", stored);
    expect(laid.map((b) => b.box)).toEqual(["150", "07", "09", "27", "45", "71"]);
    expect(sections(laid)).toEqual(["accrued", "deductible", "result"]);
    expect(laid[0]).toEqual({
      box: "150",
      label: "Régimen general 0 %: base imponible",
      value: "1",
      section: "accrued",
      unit: "euros",
      manual: false,
      formula: false,
    });
    expect(laid.find((b) => b.box === "27")?.formula).toBe(true);
  });

  it("places every box each model computes, so none falls into 'other'", () => {
    const computed = {
      "303": compute303([], {}, periodOf("303", 2025, "4T")).boxes,
      "111": compute111([], {}),
      "115": compute115([], {}),
      "390": compute390([], [], {}, { recargoRegime: false }).boxes,
    } as const;
    for (const [model, boxes] of Object.entries(computed)) {
      const unplaced = layOutBoxes(model as keyof typeof computed, boxes).filter(
        (b) => b.section === "other",
      );
      expect({ model, unplaced: unplaced.map((b) => b.box) }).toEqual({ model, unplaced: [] });
    }
  });

  it("lays the 390 out as the 2025 design's pages and its results", () => {
    const laid = layOutBoxes("390", compute390([], [], {}, { recargoRegime: false }).boxes);
    expect(sections(laid)).toEqual(["accrued", "deductible", "result", "volume"]);
    const results = layOutBoxes("390", {
      "85": "0",
      "659": "0",
      "84": "0",
      "658": "0",
      "65": "0",
      "99": "0",
    });
    expect(results.map((b) => [b.box, b.section])).toEqual([
      ["65", "result"],
      ["658", "result"],
      ["84", "result"],
      ["659", "result"],
      ["85", "result"],
      ["99", "volume"],
    ]);
    expect(results.find((b) => b.box === "85")?.manual).toBe(true);
  });

  it("keeps a box the layout does not know last, in 'other', instead of dropping it", () => {
    const laid = layOutBoxes("303", { "999": "1.00", "07": "2.00" });
    expect(laid.map((b) => [b.box, b.section])).toEqual([
      ["07", "accrued"],
      ["999", "other"],
    ]);
  });

  it("marks the boxes the accountant fills, and the counts of people, as PATCH and the files treat them", () => {
    const laid111 = layOutBoxes("111", compute111([], {}));
    expect(laid111.filter((b) => b.manual).map((b) => b.box)).toEqual(
      [...MANUAL_BOXES["111"]].sort(byForm(laid111)),
    );
    expect(laid111.filter((b) => b.unit === "count").map((b) => b.box)).toEqual([
      "01",
      "04",
      "07",
      "10",
      "13",
      "16",
      "19",
      "22",
      "25",
    ]);
    const laid303 = layOutBoxes("303", compute303([], {}, periodOf("303", 2025, "1T")).boxes);
    expect(new Set(laid303.filter((b) => b.manual).map((b) => b.box))).toEqual(new Set(MANUAL_BOXES["303"]));
    expect(layOutBoxes("349", { operators: "2", total: "10.00" }).map((b) => [b.box, b.unit])).toEqual([
      ["operators", "count"],
      ["total", "euros"],
    ]);
  });
});

const byForm = (laid: { box: string }[]) => {
  const order = new Map(laid.map((b, i) => [b.box, i]));
  return (a: string, b: string) => (order.get(a) ?? 0) - (order.get(b) ?? 0);
};
