import { Dec, dec, sum, toMoney } from "../../../platform/money.js";
import type { BoxSum } from "./books-query.js";
import type { Period } from "./periods.js";

/**
 * The formulas of each model (tax-returns.md §1-§4), pure: box sums from the books and the boxes
 * the accountant fills in, out the full set of boxes as decimal strings with 2 decimals.
 */

export type Boxes = Record<string, string>;

/** The 303 boxes the accountant may fill (PATCH manual_boxes); everything else comes from the books. */
export const MANUAL_303 = ["65", "77", "68", "108", "110", "78", "70", "109", "112"] as const;
/** 111: the in-kind and other-income boxes (10-27) no invoice fills, and 29. */
export const MANUAL_111 = [...Array.from({ length: 18 }, (_, i) => String(10 + i)), "29"] as const;
export const MANUAL_115 = ["04"] as const;

const ACCRUED_27 = [
  "152",
  "167",
  "03",
  "155",
  "06",
  "09",
  "11",
  "13",
  "15",
  "158",
  "170",
  "18",
  "21",
  "24",
  "26",
];
const DEDUCTIBLE_45 = ["29", "31", "33", "35", "37", "39", "41", "42", "43", "44"];

/** Every 303 box the DR303e26 file carries, so a draft lists them all (zero when nothing lands). */
export const BOXES_303_ALL = [
  "150",
  "152",
  "165",
  "167",
  "01",
  "03",
  "153",
  "155",
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
  ...Array.from({ length: 19 }, (_, i) => String(28 + i)),
  "59",
  "60",
  "120",
  "122",
  "123",
  "124",
  "62",
  "63",
  "74",
  "75",
  "76",
  "64",
  "65",
  "66",
  "77",
  "110",
  "78",
  "87",
  "68",
  "108",
  "69",
  "70",
  "109",
  "112",
  "71",
];

const round2 = (d: Dec) => d.toDecimalPlaces(2, Dec.ROUND_HALF_UP);

function sumsOf(rows: BoxSum[]) {
  const out = new Map<string, Dec>();
  for (const r of rows) out.set(r.box, (out.get(r.box) ?? new Dec(0)).plus(r.amount));
  return out;
}

export interface Result303 {
  boxes: Boxes;
  /** The result before compensation (66 + 77 + 68 + 108): what 78 may take from 110. */
  beforeCompensation: Dec;
}

/**
 * 27 = accrued quotas, 45 = deductible quotas, 46 = 27 − 45, 64 = 46, 66 = 64·65/100,
 * 78 = min(110, 66+77+68+108) when that is positive (else 0) unless the accountant applies less,
 * 87 = 110 − 78, 69 = 66 + 77 − 78 + 68 + 108, 71 = 69 − 70 + 109 + 112. 68 only in 4T/12.
 */
export function compute303(rows: BoxSum[], manual: Boxes, period: Period): Result303 {
  const sums = sumsOf(rows);
  const boxes = new Map<string, Dec>();
  for (const box of BOXES_303_ALL) boxes.set(box, round2(sums.get(box) ?? new Dec(0)));
  const m = (box: string, fallback = "0") => dec(manual[box] ?? fallback);
  const b = (box: string) => boxes.get(box) ?? new Dec(0);
  boxes.set("27", sum(ACCRUED_27.map(b)));
  boxes.set("45", sum(DEDUCTIBLE_45.map(b)));
  boxes.set("46", b("27").minus(b("45")));
  boxes.set("64", b("46"));
  boxes.set("65", m("65", "100"));
  boxes.set("66", round2(b("64").times(b("65")).div(100)));
  boxes.set("77", m("77"));
  boxes.set("68", period.last ? m("68") : new Dec(0));
  boxes.set("108", m("108"));
  const before = b("66").plus(b("77")).plus(b("68")).plus(b("108"));
  const pending = m("110");
  const cap = before.isPositive() ? Dec.min(pending, before) : new Dec(0);
  const applied = manual["78"] !== undefined ? Dec.min(m("78"), cap) : cap;
  boxes.set("110", pending);
  boxes.set("78", applied);
  boxes.set("87", pending.minus(applied));
  boxes.set("69", before.minus(applied));
  boxes.set("70", m("70"));
  boxes.set("109", m("109"));
  boxes.set("112", m("112"));
  boxes.set("71", b("69").minus(b("70")).plus(b("109")).plus(b("112")));
  return { boxes: toBoxes(boxes), beforeCompensation: before };
}

/**
 * 111: per pair of boxes (base, withheld) the recipients box before them counts the distinct
 * payees; 28 = the withheld boxes, 30 = 28 − 29 (previous returns of the period).
 */
export function compute111(rows: BoxSum[], manual: Boxes): Boxes {
  const boxes = new Map<string, Dec>();
  const recipients = new Map<string, number>();
  for (let n = 1; n <= 27; n++) boxes.set(String(n).padStart(2, "0"), new Dec(0));
  for (const r of rows) {
    boxes.set(r.box, round2((boxes.get(r.box) ?? new Dec(0)).plus(r.amount)));
    const n = Number(r.box);
    if (n % 3 === 2) {
      const box = String(n - 1).padStart(2, "0");
      recipients.set(box, Math.max(recipients.get(box) ?? 0, r.recipients));
    }
  }
  for (const [box, count] of recipients) boxes.set(box, new Dec(count));
  for (const [box, value] of Object.entries(manual)) if (box !== "29") boxes.set(box, dec(value));
  const withheld = ["03", "06", "09", "12", "15", "18", "21", "24", "27"];
  boxes.set("28", sum(withheld.map((b) => boxes.get(b) ?? new Dec(0))));
  boxes.set("29", dec(manual["29"] ?? "0"));
  boxes.set("30", boxes.get("28")!.minus(boxes.get("29")!));
  return toBoxes(boxes, recipientBoxes111);
}

const recipientBoxes111 = new Set(["01", "04", "07", "10", "13", "16", "19", "22", "25"]);
export const RECIPIENT_BOXES_111: ReadonlySet<string> = recipientBoxes111;

/** 115: 01 recipients, 02 base, 03 withheld, 04 previous returns, 05 = 03 − 04. */
export function compute115(rows: BoxSum[], manual: Boxes): Boxes {
  const sums = sumsOf(rows);
  const recipients = rows.find((r) => r.box === "02")?.recipients ?? 0;
  const boxes = new Map<string, Dec>([
    ["01", new Dec(recipients)],
    ["02", round2(sums.get("02") ?? new Dec(0))],
    ["03", round2(sums.get("03") ?? new Dec(0))],
    ["04", dec(manual["04"] ?? "0")],
  ]);
  boxes.set("05", boxes.get("03")!.minus(boxes.get("04")!));
  return toBoxes(boxes, new Set(["01"]));
}

function toBoxes(boxes: Map<string, Dec>, counts: Set<string> = new Set()): Boxes {
  const out: Boxes = {};
  for (const [box, value] of boxes) out[box] = counts.has(box) ? value.toFixed(0) : toMoney(value);
  return out;
}

/**
 * The declaration type a result implies when the accountant has not chosen one: I to pay, N zero,
 * C to compensate (a refund, D, is only possible in the last period and must be chosen).
 */
export function defaultDeclarationType(result: Dec): "I" | "N" | "C" {
  if (result.isZero()) return "N";
  return result.isPositive() ? "I" : "C";
}
