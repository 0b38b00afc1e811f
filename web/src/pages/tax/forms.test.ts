import { describe, expect, it } from "vitest";
import { groupBoxes, MANUAL_BOXES } from "./forms";

const box = (n: string) => ({ box: n, label: `label ${n}`, value: "1.00" });

describe("a return's boxes laid out as the AEAT form", () => {
  it("puts the 303's boxes in their sections in form order, whatever order the API sent", () => {
    // JSON objects reorder integer-like keys ("150" before "27"), so the API's order is not the form's.
    const groups = groupBoxes("303", ["150", "27", "09", "07", "45", "28", "71", "110", "01"].map(box));
    expect(groups.map((g) => g.key)).toEqual(["accrued", "deductible", "result"]);
    expect(groups[0]?.boxes.map((b) => b.box)).toEqual(["150", "01", "07", "09", "27"]);
    expect(groups[1]?.boxes.map((b) => b.box)).toEqual(["28", "45"]);
    expect(groups[2]?.boxes.map((b) => b.box)).toEqual(["110", "71"]);
    expect(groups[0]?.boxes[0]?.label).toBe("label 150");
  });

  it("keeps a box no section knows (a new AEAT box) in an 'other' section instead of dropping it", () => {
    const groups = groupBoxes("303", ["07", "999"].map(box));
    expect(groups.at(-1)).toEqual({ key: "other", boxes: [box("999")] });
  });

  it("lays out the 349's summary and a model it does not know", () => {
    expect(groupBoxes("349", ["total", "operators"].map(box))[0]?.boxes.map((b) => b.box)).toEqual([
      "operators",
      "total",
    ]);
    expect(groupBoxes("999", [box("01")])).toEqual([{ key: "other", boxes: [box("01")] }]);
  });

  it("lists the boxes the accountant fills as the API accepts them", () => {
    expect(MANUAL_BOXES["303"]).toEqual(["65", "77", "68", "108", "110", "78", "70", "109", "112"]);
    expect(MANUAL_BOXES["111"]).toHaveLength(19);
    expect(MANUAL_BOXES["111"]).toContain("10");
    expect(MANUAL_BOXES["111"]).toContain("27");
    expect(MANUAL_BOXES["111"]).toContain("29");
  });
});
