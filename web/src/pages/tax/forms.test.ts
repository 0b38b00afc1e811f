import { describe, expect, it } from "vitest";
import { groupBoxes } from "./forms";

const box = (n: string, section: string) => ({ box: n, section, value: "1.00" });

describe("a return's boxes in their form sections", () => {
  it("groups the boxes the server sends in form order into one section per run", () => {
    const boxes = [box("150", "accrued"), box("07", "accrued"), box("28", "deductible"), box("71", "result")];
    expect(groupBoxes(boxes)).toEqual([
      { key: "accrued", boxes: [boxes[0], boxes[1]] },
      { key: "deductible", boxes: [boxes[2]] },
      { key: "result", boxes: [boxes[3]] },
    ]);
  });

  it("keeps the server's 'other' section for boxes the layout does not know, and an empty return empty", () => {
    expect(groupBoxes([box("07", "accrued"), box("999", "other")]).map((g) => g.key)).toEqual([
      "accrued",
      "other",
    ]);
    expect(groupBoxes([])).toEqual([]);
  });
});
