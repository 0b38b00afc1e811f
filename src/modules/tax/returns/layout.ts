import type { TaxModel } from "../tables.js";
import { MANUAL_111, MANUAL_115, MANUAL_303, RECIPIENT_BOXES_111 } from "./compute.js";
import { MANUAL_390 } from "./compute-390.js";
import { PAGE_02, PAGE_02B, PAGE_03, PAGE_04, RESULT_06, SETTLED_06, VOLUME_06 } from "./dr390.js";
import { BOX_LABELS } from "./labels.js";

/**
 * How each AEAT form lays its boxes out: its sections in form order, the boxes the accountant fills
 * (PATCH manual_boxes accepts only these), the boxes that count people rather than euros, and the
 * totals and formulas (their invoices are those of the boxes they add). The API hands this out with
 * every box so clients never keep their own copy of the forms.
 */

interface Section {
  key: string;
  boxes: readonly string[];
}

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => String(from + i).padStart(2, "0"));
const groupsOf = (...rows: string[][]) => rows.flat();

const SECTIONS: Record<TaxModel, readonly Section[]> = {
  "303": [
    {
      key: "accrued",
      boxes: groupsOf(
        ["150", "152", "165", "167", "153", "155", "01", "03", "04", "06", "07", "09"],
        ["10", "11", "12", "13", "14", "15", "156", "158", "168", "170", "16", "18"],
        ["19", "21", "22", "24", "25", "26", "27"],
      ),
    },
    { key: "deductible", boxes: range(28, 45) },
    { key: "extra", boxes: ["59", "60", "120", "122", "123", "124", "62", "63", "74", "75", "76"] },
    {
      key: "result",
      boxes: ["46", "64", "65", "66", "77", "110", "78", "87", "68", "108", "69", "70", "109", "112", "71"],
    },
  ],
  "111": [
    { key: "work", boxes: range(1, 6) },
    { key: "activities", boxes: range(7, 12) },
    { key: "otherIncome", boxes: range(13, 27) },
    { key: "result", boxes: ["28", "29", "30"] },
  ],
  "115": [
    { key: "withholdings", boxes: ["01", "02", "03"] },
    { key: "result", boxes: ["04", "05"] },
  ],
  "349": [{ key: "summary", boxes: ["operators", "total", "rectifications", "rectified_total"] }],
  // The 2025 design's pages (dr390.ts, ADR 025): 02 and 02 bis accrued, 03 and 04 deductible (04 ends
  // with the result 65, shown first among the results), 06 the results and the volume.
  "390": [
    { key: "accrued", boxes: [...PAGE_02, ...PAGE_02B] },
    { key: "deductible", boxes: [...PAGE_03, ...PAGE_04.filter((box) => box !== "65")] },
    { key: "result", boxes: ["65", ...RESULT_06, ...SETTLED_06] },
    { key: "volume", boxes: VOLUME_06 },
  ],
};

export const MANUAL_BOXES: Record<TaxModel, readonly string[]> = {
  "303": MANUAL_303,
  "111": MANUAL_111,
  "115": MANUAL_115,
  "390": MANUAL_390,
  "349": [],
};

const COUNT_BOXES: Record<TaxModel, ReadonlySet<string>> = {
  "303": new Set(),
  "111": RECIPIENT_BOXES_111,
  "115": new Set(["01"]),
  "390": new Set(),
  "349": new Set(["operators", "rectifications"]),
};

const FORMULA_BOXES: Record<TaxModel, ReadonlySet<string>> = {
  "303": new Set(["27", "45", "46", "64", "65", "66", "69", "71", "87"]),
  "111": new Set(["28", "30"]),
  "115": new Set(["05"]),
  "390": new Set(["47", "64", "65", "86", "95", "97", "98"]),
  "349": new Set(),
};

/** Where a box sits in its form: the section ("other" for a box no section lists) and its place. */
const PLACES: Record<TaxModel, Map<string, { section: string; order: number }>> = Object.fromEntries(
  Object.entries(SECTIONS).map(([model, sections]) => [
    model,
    new Map(
      sections.flatMap((s, i) => s.boxes.map((box, j) => [box, { section: s.key, order: i * 10_000 + j }])),
    ),
  ]),
) as Record<TaxModel, Map<string, { section: string; order: number }>>;

export interface LaidOutBox {
  box: string;
  label: string;
  value: string;
  section: string;
  unit: "euros" | "count";
  manual: boolean;
  formula: boolean;
}

/**
 * A return's boxes in form order, each with its AEAT label, section and role. A box the layout does
 * not know (a newer AEAT box) goes last, in the "other" section, rather than being dropped.
 */
export function layOutBoxes(model: TaxModel, boxes: Record<string, string>): LaidOutBox[] {
  const labels = BOX_LABELS[model] ?? {};
  const places = PLACES[model];
  const other = Number.MAX_SAFE_INTEGER;
  return Object.entries(boxes)
    .map(([box, value]) => ({ box, value, place: places.get(box) }))
    .sort((a, b) => (a.place?.order ?? other) - (b.place?.order ?? other))
    .map(({ box, value, place }) => ({
      box,
      label: labels[box] ?? box,
      value,
      section: place?.section ?? "other",
      unit: COUNT_BOXES[model].has(box) ? "count" : "euros",
      manual: MANUAL_BOXES[model].includes(box),
      formula: FORMULA_BOXES[model].has(box),
    }));
}
