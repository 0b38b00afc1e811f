/**
 * How the AEAT forms lay their boxes out (the server gives each box's value and label, in no
 * particular order): the sections of each model in form order, and the boxes the accountant fills
 * (the server refuses any other in PATCH manual_boxes, naming it).
 */
export interface BoxSection {
  key: string;
  boxes: string[];
}

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => String(from + i).padStart(2, "0"));

export const SECTIONS: Record<string, BoxSection[]> = {
  "303": [
    {
      key: "accrued",
      boxes: [
        "150",
        "152",
        "165",
        "167",
        "153",
        "155",
        "01",
        "03",
        "04",
        "06",
        "07",
        "09",
        "10",
        "11",
        "12",
        "13",
        "14",
        "15",
        "156",
        "158",
        "168",
        "170",
        "16",
        "18",
        "19",
        "21",
        "22",
        "24",
        "25",
        "26",
        "27",
      ],
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
  "390": [
    {
      key: "accrued",
      boxes: [
        "01",
        "02",
        "03",
        "04",
        "05",
        "06",
        "21",
        "22",
        "27",
        "28",
        "29",
        "30",
        "35",
        "36",
        "599",
        "600",
        "601",
        "602",
        "43",
        "44",
        "47",
      ],
    },
    {
      key: "deductible",
      boxes: [
        "190",
        "191",
        "196",
        "197",
        "202",
        "203",
        "204",
        "205",
        "214",
        "215",
        "216",
        "217",
        "639",
        "62",
        "64",
      ],
    },
    { key: "result", boxes: ["65", "85", "86", "95", "97", "98"] },
  ],
};

export const MANUAL_BOXES: Record<string, string[]> = {
  "303": ["65", "77", "68", "108", "110", "78", "70", "109", "112"],
  "111": [...range(10, 27), "29"],
  "115": ["04"],
  "390": ["85"],
  "349": [],
};

/** Boxes that count recipients or operators, not euros. */
export const COUNT_BOXES: Record<string, string[]> = {
  "111": ["01", "04", "07", "10", "13", "16", "19", "22", "25"],
  "115": ["01"],
  "349": ["operators", "rectifications"],
};

/** Boxes that are totals and formulas: their invoices are those of the boxes they add. */
export const FORMULA_BOXES: Record<string, string[]> = {
  "303": ["27", "45", "46", "64", "65", "66", "69", "71", "87"],
  "111": ["28", "30"],
  "115": ["05"],
  "390": ["47", "64", "65", "86", "95", "97", "98"],
  "349": [],
};

interface Box {
  box: string;
  label: string;
  value: string;
}

/** The return's boxes in the form's sections, in form order; boxes no section lists go last. */
export function groupBoxes(model: string, boxes: Box[]): { key: string; boxes: Box[] }[] {
  const byBox = new Map(boxes.map((b) => [b.box, b]));
  const placed = new Set<string>();
  const groups = (SECTIONS[model] ?? []).map((s) => ({
    key: s.key,
    boxes: s.boxes.flatMap((n) => {
      const b = byBox.get(n);
      if (!b) return [];
      placed.add(n);
      return [b];
    }),
  }));
  const rest = boxes.filter((b) => !placed.has(b.box));
  if (rest.length) groups.push({ key: "other", boxes: rest });
  return groups.filter((g) => g.boxes.length > 0);
}

/** The 303's settlement periods: 1T-4T or 01-12; the 390's is 0A. */
export const PERIODS: Record<string, string[]> = {
  quarter: ["1T", "2T", "3T", "4T"],
  month: range(1, 12),
};

export const STATE_COLOR: Record<string, string> = {
  borrador: "gray",
  confirmada: "blue",
  presentada: "teal",
};
