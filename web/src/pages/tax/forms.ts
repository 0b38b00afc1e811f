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
  // The 2025 design's pages (src/modules/tax/returns/dr390.ts, ADR 025): 02 and 02 bis accrued,
  // 03 and 04 deductible, 06 the results and the volume of operations.
  "390": [
    {
      key: "accrued",
      boxes: [
        ...["700", "701", "667", "668", "01", "02", "702", "703", "669", "670", "03", "04", "05", "06"],
        ...["704", "705", "671", "672", "500", "501", "706", "707", "673", "674", "502", "503", "504", "505"],
        ...["708", "709", "675", "676", "643", "644", "710", "711", "677", "678", "645", "646", "647", "648"],
        ...[
          "712",
          "713",
          "679",
          "680",
          "07",
          "08",
          "714",
          "715",
          "681",
          "682",
          "09",
          "10",
          "11",
          "12",
          "13",
          "14",
        ],
        ...["716", "717", "683", "684", "21", "22", "718", "719", "685", "686", "23", "24", "25", "26"],
        ...["720", "721", "687", "688", "545", "546", "722", "723", "689", "690", "547", "548", "551", "552"],
        ...["27", "28", "29", "30", "649", "650", "31", "32", "33", "34"],
        ...["663", "664", "691", "692", "35", "36", "665", "666", "693", "694", "599", "600", "601", "602"],
        ...["41", "42", "43", "44", "45", "46", "47"],
      ],
    },
    {
      key: "deductible",
      boxes: [
        ...["695", "696", "190", "191", "724", "725", "697", "698", "603", "604", "605", "606", "48", "49"],
        ...["745", "746", "506", "507", "726", "727", "747", "748", "607", "608", "609", "610", "512", "513"],
        ...["749", "750", "196", "197", "728", "729", "751", "752", "611", "612", "613", "614", "50", "51"],
        ...["753", "754", "514", "515", "730", "731", "755", "756", "615", "616", "617", "618", "520", "521"],
        ...["757", "758", "202", "203", "732", "733", "759", "760", "619", "620", "621", "622", "52", "53"],
        ...["761", "762", "208", "209", "734", "735", "763", "764", "623", "624", "625", "626", "54", "55"],
        ...["765", "766", "214", "215", "736", "737", "767", "768", "627", "628", "629", "630", "56", "57"],
        ...["769", "770", "220", "221", "738", "739", "771", "772", "631", "632", "633", "634", "58", "59"],
        ...["773", "774", "587", "588", "740", "741", "775", "776", "635", "636", "637", "638", "597", "598"],
        ...["60", "61", "660", "661", "639", "62", "651", "652", "63", "522", "64"],
      ],
    },
    {
      key: "result",
      boxes: ["65", "658", "84", "659", "85", "86", "95", "96", "524", "97", "98", "662", "525", "526"],
    },
    {
      key: "volume",
      boxes: [
        ...["99", "653", "103", "104", "105", "110", "125", "126", "127", "128"],
        ...["100", "101", "102", "227", "228", "106", "107", "108"],
      ],
    },
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
