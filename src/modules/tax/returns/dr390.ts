import {
  alpha,
  aux,
  blanks,
  checkLength,
  closing,
  type Declarant,
  envelope,
  fail,
  nif,
  signed,
  unsigned,
} from "./aeat-files.js";
import type { Boxes } from "./compute.js";

/**
 * Modelo 390 upload file, the AEAT design of exercise 2025 (DR390e2025) as OCA/l10n-spain
 * transcribes it (ADR 025 names the files and commits): the 2025 envelope, AUX, and pages 01
 * (2022), 02 and 02 bis (2025), 03 (2024), 04 (2025), 06 (2021) and 07 (2019). Page 05 (simplified
 * regime) and page 08 are not part of a general-regime return. ISO-8859-1, fixed width, positions
 * from each page's `<`. Amounts: 17 characters, 2 implied decimals, `N` + 16 digits when negative;
 * the boxes the design marks unsigned refuse a negative value.
 *
 * Each page is its tag and the ordered list of its boxes: a new design is a new list.
 */

/** Page 02: VAT accrued (régimen general), bases and quotas by rate, then the totals 33 and 34. */
export const PAGE_02 = [
  ...["700", "701", "667", "668", "01", "02", "702", "703", "669", "670", "03", "04", "05", "06"],
  ...["704", "705", "671", "672", "500", "501", "706", "707", "673", "674", "502", "503", "504", "505"],
  ...["708", "709", "675", "676", "643", "644", "710", "711", "677", "678", "645", "646", "647", "648"],
  ...["712", "713", "679", "680", "07", "08", "714", "715", "681", "682", "09", "10", "11", "12", "13", "14"],
  ...["716", "717", "683", "684", "21", "22", "718", "719", "685", "686", "23", "24", "25", "26"],
  ...["720", "721", "687", "688", "545", "546", "722", "723", "689", "690", "547", "548", "551", "552"],
  ...["27", "28", "29", "30", "649", "650", "31", "32", "33", "34"],
];

/** Page 02 bis: recargo de equivalencia by rate, its modifications, and 47 (all accrued quotas). */
export const PAGE_02B = [
  ...["663", "664", "691", "692", "35", "36", "665", "666", "693", "694", "599", "600", "601", "602"],
  ...["41", "42", "43", "44", "45", "46", "47"],
];

/** Page 03: VAT deductible by kind and rate (2, 4, 5, 7.5, 10, 21 %), each kind with its total. */
export const PAGE_03 = [
  ...["695", "696", "190", "191", "724", "725", "697", "698", "603", "604", "605", "606", "48", "49"],
  ...["745", "746", "506", "507", "726", "727", "747", "748", "607", "608", "609", "610", "512", "513"],
  ...["749", "750", "196", "197", "728", "729", "751", "752", "611", "612", "613", "614", "50", "51"],
  ...["753", "754", "514", "515", "730", "731", "755", "756", "615", "616", "617", "618", "520", "521"],
  ...["757", "758", "202", "203", "732", "733", "759", "760", "619", "620", "621", "622", "52", "53"],
  ...["761", "762", "208", "209", "734", "735", "763", "764", "623", "624", "625", "626", "54", "55"],
  ...["765", "766", "214", "215", "736", "737", "767", "768", "627", "628", "629", "630", "56", "57"],
];

/** Page 04: intra-EU capital goods and services, the other deductions, 64 and the result 65. */
export const PAGE_04 = [
  ...["769", "770", "220", "221", "738", "739", "771", "772", "631", "632", "633", "634", "58", "59"],
  ...["773", "774", "587", "588", "740", "741", "775", "776", "635", "636", "637", "638", "597", "598"],
  ...["60", "61", "660", "661", "639", "62", "651", "652", "63", "522", "64", "65"],
];

/** Page 07: specific operations (11 amounts) before the five prorrata blocks. */
export const PAGE_07 = ["230", "109", "231", "232", "111", "113", "523", "654", "655", "656", "657"];

/** Page 06 boxes the design writes unsigned (the rest are signed). */
const UNSIGNED_06 = new Set(["658", "659", "85", "95", "96", "524", "97", "98", "662", "525", "526"]);

/** Page 06: results (7), territories (8, left at zero: common territory only), 9 and the volume (10). */
export const RESULT_06 = ["658", "84", "659", "85", "86"];
export const SETTLED_06 = ["95", "96", "524", "97", "98", "662", "525", "526"];
export const VOLUME_06 = [
  ...["99", "653", "103", "104", "105", "110", "125", "126", "127", "128"],
  ...["100", "101", "102", "227", "228", "106", "107", "108"],
];

/** The activity keys of page 01 (A01-A05 business and professional, B01-B05 farming, C not begun). */
export const ACTIVITY_KEYS = [
  ...["A01", "A02", "A03", "A04", "A05", "B01", "B02", "B03", "B04", "B05", "C"],
] as const;

export interface Header390 {
  year: number;
  /** A sustitutiva 390 and the receipt of the one it replaces. */
  substitutive: boolean;
  previousReceipt: string | null;
  /** Section 3: the main activity, its key (ACTIVITY_KEYS) and IAE epígrafe; D: files a 347. */
  activity: { description: string; key: string; iae: string };
  files347: boolean;
}

const zeros = (n: number) => "0".repeat(n);
const amounts = (boxes: Boxes, list: string[]) => list.map((b) => signed(boxes, b));
const page = (id: string, body: string[]) =>
  [`<T390${id}>`, " ", ...body, blanks(150), `</T390${id}>`].join("");

function page01(d: Declarant, h: Header390): string {
  const { description, key, iae } = h.activity;
  if (!description.trim()) fail("activity_description", "is required for the 390 (page 01, section 3)");
  if (!(ACTIVITY_KEYS as readonly string[]).includes(key))
    fail("activity_key", `must be one of ${ACTIVITY_KEYS}`);
  const other = alpha("", 40) + alpha("0", 3) + blanks(4); // 2nd-6th activities: none
  const representative = blanks(80) + blanks(9) + zeros(8) + blanks(12); // name, NIF, date of power, notary
  return [
    "<T39001000>",
    " ", // 12 complementary page
    " ", // 13 reserved
    nif(d.taxId), // 14
    alpha(d.name, 60), // 23
    blanks(20), // 83 first name (individuals)
    String(h.year), // 103
    blanks(2), // 107 reserved
    "0", // 109 monthly refund register (REDEME)
    "0", // 110 group of entities
    blanks(7), // 111 group number
    "0", // 118 dominant
    "0", // 119 dependent
    "0", // 120 art. 163 sexies.cinco
    blanks(9), // 121 dominant entity NIF
    "2", // 130 insolvency this year
    "2", // 131 cash criterion
    "2", // 132 cash criterion recipient
    h.substitutive ? "1" : "0", // 133 substitutive
    "0", // 134 substitutive for rectified quotas
    h.substitutive ? alpha(h.previousReceipt, 13) : blanks(13), // 135 previous receipt
    alpha(description, 40), // 148 main activity
    alpha(key, 3), // 188 activity key
    alpha(iae, 4), // 191 IAE epígrafe
    ...Array.from({ length: 5 }, () => other), // 195-429
    h.files347 ? "1" : "0", // 430 annual 347 return
    blanks(9), // 431 joint return: NIF
    blanks(37), // 440 joint return: name
    blanks(9 + 80 + 2 + 17 + 5 + 2 + 2 + 2 + 9 + 20 + 15 + 5), // 477-644 representative of an individual
    representative, // 645 legal representative 1
    representative, // 754 legal representative 2
    representative, // 863 legal representative 3
    blanks(21), // 972 reserved
    blanks(13), // 993 electronic stamp
    blanks(20), // 1006 client id (EEDD)
    blanks(150), // 1026 reserved
    "</T39001000>",
  ].join("");
}

function page06(boxes: Boxes): string {
  const amount = (b: string) => (UNSIGNED_06.has(b) ? unsigned(boxes, b) : signed(boxes, b));
  return page("06000", [
    ...RESULT_06.map(amount),
    zeros(5 * 5), // 87-91 percentage per administration
    zeros(17 * 6), // 658, 84, 92, 659, 93, 94 by territory
    ...SETTLED_06.map(amount),
    ...VOLUME_06.map(amount),
  ]);
}

function page07(boxes: Boxes): string {
  const prorrata = blanks(40) + blanks(3) + zeros(17) + zeros(17) + blanks(1) + zeros(5);
  return page("07000", [...amounts(boxes, PAGE_07), ...Array.from({ length: 5 }, () => prorrata)]);
}

/** Page lengths of the design, checked as each page is written. */
export const PAGE_LENGTHS_390 = {
  "01": 1187,
  "02": 1806,
  "02B": 531,
  "03": 1840,
  "04": 854,
  "06": 828,
  "07": 776,
} as const;

export function dr390File(d: Declarant, h: Header390, boxes: Boxes): Buffer {
  const L = PAGE_LENGTHS_390;
  return Buffer.from(
    [
      checkLength(envelope("390", h.year, "0A"), 17, "390 header"),
      aux(),
      checkLength(page01(d, h), L["01"], "390 page 01"),
      checkLength(page("02000", amounts(boxes, PAGE_02)), L["02"], "390 page 02"),
      checkLength(page("02B00", amounts(boxes, PAGE_02B)), L["02B"], "390 page 02 bis"),
      checkLength(page("03000", amounts(boxes, PAGE_03)), L["03"], "390 page 03"),
      checkLength(page("04000", amounts(boxes, PAGE_04)), L["04"], "390 page 04"),
      checkLength(page06(boxes), L["06"], "390 page 06"),
      checkLength(page07(boxes), L["07"], "390 page 07"),
      checkLength(closing("390", h.year, "0A"), 18, "390 closing tag"),
    ].join(""),
    "latin1",
  );
}
