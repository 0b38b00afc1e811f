import { BadRequestError } from "../../../platform/http/errors.js";
import { Dec, dec } from "../../../platform/money.js";
import { normalizeAeatText } from "../../documents/index.js";
import type { Boxes } from "./compute.js";

/**
 * The AEAT upload files (tax-returns.md §1 "File layout", §3, §4), ISO-8859-1, fixed width.
 * Positions count from each page's opening `<` (tags included). Text: upper case, left-aligned,
 * blank-padded; amounts: 17 characters, 2 implied decimals, zero-padded; signed amounts: a
 * negative one is `N` + 16 digits; percentages: 5 characters (3 + 2).
 *
 * A new AEAT layout is a new writer beside these (docs/tax.md, "A new AEAT layout").
 */

export interface Declarant {
  taxId: string;
  name: string;
}

export interface ReturnHeader {
  year: number;
  period: string;
  declarationType: string;
  /** A rectifying (complementaria / sustitutiva) return and the receipt of the one it corrects. */
  rectifying: boolean;
  /** Of a rectifying return: it replaces the previous one (sustitutiva) rather than adding to it. */
  substitutive?: boolean;
  previousReceipt: string | null;
  iban: string | null;
  /** 4T or 12: the 303 says whether the company is exempt from the 390 (128). */
  lastPeriod?: boolean;
}

/** Developer block (AUX): program version; no developer NIF. */
const AUX_VERSION = "0101";

export const fail = (path: string, message: string): never => {
  throw new BadRequestError(`${path}: ${message}`, [{ path, message }]);
};

export const blanks = (n: number) => " ".repeat(n);
export const alpha = (value: string | null | undefined, length: number) =>
  normalizeAeatText(value ?? "", length).padEnd(length);

export function nif(value: string): string {
  let id = value.toUpperCase().replace(/[^A-Z0-9]/g, "");
  if (id.length > 9 && id.startsWith("ES")) id = id.slice(2);
  if (id.length === 0 || id.length > 9) fail("company.tax_id", `"${value}" is not a Spanish tax id (NIF)`);
  return id.padStart(9, "0");
}

export function cents(value: Dec, digits: number, box: string): string {
  const c = value.abs().toDecimalPlaces(2, Dec.ROUND_HALF_UP).times(100).toFixed(0);
  if (c.length > digits) fail(`boxes.${box}`, `does not fit ${digits} digits`);
  return c.padStart(digits, "0");
}

/** Unsigned amount (17): a negative value here is a box that cannot be negative. */
export function unsigned(boxes: Boxes, box: string, length = 17): string {
  const v = dec(boxes[box] ?? "0");
  if (v.isNegative() && !v.isZero()) fail(`boxes.${box}`, "cannot be negative in the AEAT file");
  return cents(v, length, box);
}

/** Signed amount (17): `N` + 16 digits when negative. */
export function signed(boxes: Boxes, box: string): string {
  const v = dec(boxes[box] ?? "0").toDecimalPlaces(2, Dec.ROUND_HALF_UP);
  return v.isNegative() && !v.isZero() ? `N${cents(v, 16, box)}` : cents(v, 17, box);
}

/** Whole number (recipient counts). */
function count(boxes: Boxes, box: string, length: number): string {
  const v = dec(boxes[box] ?? "0");
  if (!v.isInteger() || v.isNegative()) fail(`boxes.${box}`, "must be a whole number");
  const s = v.toFixed(0);
  if (s.length > length) fail(`boxes.${box}`, `does not fit ${length} digits`);
  return s.padStart(length, "0");
}

export function checkLength(page: string, length: number, what: string): string {
  if (page.length !== length) throw new Error(`${what} has ${page.length} characters, not ${length}`);
  return page;
}

export const envelope = (model: string, year: number, period: string) => `<T${model}0${year}${period}0000>`;
export const closing = (model: string, year: number, period: string) => `</T${model}0${year}${period}0000>`;

export function aux(): string {
  return checkLength(
    `<AUX>${blanks(70)}${AUX_VERSION}${blanks(4)}${blanks(9)}${blanks(213)}</AUX>`,
    311,
    "AUX block",
  );
}

const SEPA_EEA = new Set(
  "AT BE BG CH CY CZ DE DK EE ES FI FR GB GI GR HR HU IE IS IT LI LT LU LV MC MT NL NO PL PT RO SE SI SK SM VA".split(
    " ",
  ),
);

/** DR303e26 v1.01: header, AUX, page 01, page 03, DID page, closing tag. */
export function dr303File(d: Declarant, h: ReturnHeader, boxes: Boxes): Buffer {
  const monthly = /^\d{2}$/.test(h.period);
  const page01 = [
    "<T30301000>",
    " ", // 12 complementary (blank since 2025: corrections are rectifying returns, page 03)
    h.declarationType, // 13
    nif(d.taxId), // 14
    alpha(d.name, 80), // 23
    String(h.year), // 103
    h.period, // 107
    "2", // 109 foral
    "2", // 110 REDEME (monthly refund register)
    "3", // 111 general regime only
    "2", // 112 joint return
    "2", // 113 cash criterion
    "2", // 114 cash criterion recipient
    "2", // 115 prorrata option
    "2", // 116 prorrata revocation
    "2", // 117 insolvency
    blanks(8), // 118 insolvency date
    " ", // 126 insolvency type
    "2", // 127 voluntary SII
    h.lastPeriod ? "2" : "0", // 128 exempt from 390: 2 = no in the last period (no page 04, ADR 025)
    "0", // 129 non-zero volume
    monthly ? "2" : "0", // 130 fuel wholesaler (monthly filers answer 1/2)
    unsigned(boxes, "150"),
    "00000",
    unsigned(boxes, "152"),
    unsigned(boxes, "165"),
    "00000",
    unsigned(boxes, "167"),
    unsigned(boxes, "01"),
    "00400",
    unsigned(boxes, "03"),
    unsigned(boxes, "153"),
    "00000",
    unsigned(boxes, "155"),
    unsigned(boxes, "04"),
    "01000",
    unsigned(boxes, "06"),
    unsigned(boxes, "07"),
    "02100",
    unsigned(boxes, "09"),
    unsigned(boxes, "10"),
    unsigned(boxes, "11"),
    unsigned(boxes, "12"),
    unsigned(boxes, "13"),
    signed(boxes, "14"),
    signed(boxes, "15"),
    unsigned(boxes, "156"),
    "00175",
    unsigned(boxes, "158"),
    unsigned(boxes, "168"),
    "00050",
    unsigned(boxes, "170"),
    unsigned(boxes, "16"),
    "00000",
    unsigned(boxes, "18"),
    unsigned(boxes, "19"),
    "00140",
    unsigned(boxes, "21"),
    unsigned(boxes, "22"),
    "00520",
    unsigned(boxes, "24"),
    signed(boxes, "25"),
    signed(boxes, "26"),
    signed(boxes, "27"),
    ...Array.from({ length: 19 }, (_, i) => {
      const box = String(28 + i);
      return 28 + i >= 40 ? signed(boxes, box) : unsigned(boxes, box);
    }),
    blanks(521),
    blanks(13), // 1557 electronic stamp
    "</T30301000>",
  ].join("");
  const page03 = [
    "<T30303000>",
    ...["59", "60", "120", "122", "123", "124", "62", "63", "74", "75", "76", "64"].map((b) =>
      signed(boxes, b),
    ),
    unsigned(boxes, "65", 5), // 216 percentage attributable to the State (3 + 2)
    signed(boxes, "66"),
    unsigned(boxes, "77"),
    unsigned(boxes, "110"),
    unsigned(boxes, "78"),
    unsigned(boxes, "87"),
    signed(boxes, "68"),
    signed(boxes, "108"),
    signed(boxes, "69"),
    signed(boxes, "70"),
    signed(boxes, "109"),
    signed(boxes, "112"),
    signed(boxes, "71"),
    " ", // 425 no activity
    h.rectifying ? "X" : " ", // 426 rectifying return
    h.rectifying ? alpha(h.previousReceipt, 13) : blanks(13), // 427 previous receipt
    " ", // 440 cancel direct debit
    unsigned(boxes, "111"), // 441
    h.rectifying ? "X" : " ", // 458 reason: other than the 2nd (a wrong assessment)
    " ", // 459
    blanks(546),
    "</T30303000>",
  ].join("");
  const iban = (h.iban ?? "").replace(/\s+/g, "").toUpperCase();
  const country = iban.slice(0, 2);
  const did = [
    "<T303DID00>",
    blanks(11), // 12 SWIFT (only for accounts outside SEPA)
    iban.padEnd(34), // 23
    blanks(70), // 57 bank name
    blanks(35), // 127 address
    blanks(30), // 162 city
    blanks(2), // 192 country
    !iban ? "0" : country === "ES" ? "1" : SEPA_EEA.has(country) ? "2" : "3", // 194 SEPA
    blanks(617),
    "</T303DID00>",
  ].join("");
  return Buffer.from(
    [
      checkLength(envelope("303", h.year, h.period), 17, "303 header"),
      aux(),
      checkLength(page01, 1581, "303 page 01"),
      checkLength(page03, 1017, "303 page 03"),
      checkLength(did, 823, "303 DID page"),
      checkLength(closing("303", h.year, h.period), 18, "303 closing tag"),
    ].join(""),
    "latin1",
  );
}

/** dr111e16v18: header, AUX, the page (1000 characters), closing tag; OCA ends it with CRLF. */
export function dr111File(d: Declarant, h: ReturnHeader, boxes: Boxes): Buffer {
  const triples = Array.from({ length: 9 }, (_, i) => {
    const n = i * 3 + 1;
    const box = (k: number) => String(k).padStart(2, "0");
    return count(boxes, box(n), 8) + unsigned(boxes, box(n + 1)) + unsigned(boxes, box(n + 2));
  });
  const page = [
    "<T11101000>",
    " ", // 12
    h.declarationType, // 13
    nif(d.taxId),
    alpha(d.name, 60), // 23
    blanks(20), // 83 first name (individuals)
    String(h.year),
    h.period,
    ...triples, // 109-486: 01-27
    unsigned(boxes, "28"),
    unsigned(boxes, "29"),
    signed(boxes, "30"),
    h.rectifying ? "X" : " ", // 538 complementary
    h.rectifying ? alpha(h.previousReceipt, 13) : blanks(13), // 539
    " ", // 552 colegio concertado
    (h.iban ?? "").replace(/\s+/g, "").toUpperCase().padEnd(34), // 553
    blanks(389),
    blanks(13), // 976 stamp
    "</T11101000>",
  ].join("");
  return Buffer.from(
    `${envelope("111", h.year, h.period)}${aux()}${checkLength(page, 1000, "111 page")}${closing("111", h.year, h.period)}\r\n`,
    "latin1",
  );
}

/** DR115e15v11: header, AUX, the page (500 characters), closing tag, CRLF. */
export function dr115File(d: Declarant, h: ReturnHeader, boxes: Boxes): Buffer {
  const page = [
    "<T11501000>",
    h.rectifying ? "C" : " ", // 12 complementary
    h.declarationType, // 13
    nif(d.taxId),
    alpha(d.name, 60),
    blanks(20),
    String(h.year),
    h.period,
    count(boxes, "01", 15), // 109
    unsigned(boxes, "02"), // 124
    unsigned(boxes, "03"), // 141
    unsigned(boxes, "04"), // 158
    signed(boxes, "05"), // 175
    h.rectifying ? "X" : " ", // 192
    h.rectifying ? alpha(h.previousReceipt, 13) : blanks(13), // 193
    (h.iban ?? "").replace(/\s+/g, "").toUpperCase().padEnd(34), // 206
    blanks(236),
    blanks(13), // 476 stamp
    "</T11501000>",
  ].join("");
  return Buffer.from(
    `${envelope("115", h.year, h.period)}${aux()}${checkLength(page, 500, "115 page")}${closing("115", h.year, h.period)}\r\n`,
    "latin1",
  );
}

/** A 349 record (operator or rectification). */
export interface Record349 {
  kind: "operator" | "rectification";
  key: string;
  country: string;
  vatNumber: string;
  name: string;
  /** Operators: the base of the period. */
  base?: string;
  /** Rectifications: the period corrected, the new and the previously declared base. */
  year?: number;
  period?: string;
  newBase?: string;
  previousBase?: string;
}

const amount13 = (value: string | undefined, path: string) => {
  const v = dec(value ?? "0");
  if (v.isNegative() && !v.isZero()) fail(path, "cannot be negative in the 349");
  return cents(v, 13, path);
};

/**
 * Modelo 349, 500-character records back to back: the declarant (type 1), then one type 2 record
 * per operator and key, then the rectification records.
 */
export function dr349File(
  d: Declarant & { phone?: string; contactName?: string },
  h: ReturnHeader & { declarationNumber: string; previousDeclarationNumber?: string | null },
  records: Record349[],
): Buffer {
  const declarant = nif(d.taxId);
  const operators = records.filter((r) => r.kind === "operator");
  const rectifications = records.filter((r) => r.kind === "rectification");
  const total = operators.reduce((acc, r) => acc.plus(r.base ?? "0"), new Dec(0));
  const rectTotal = rectifications.reduce((acc, r) => acc.plus(r.newBase ?? "0"), new Dec(0));
  if (!/^349\d{10}$/.test(h.declarationNumber))
    fail("declaration_number", "must be 13 digits starting with 349");
  const type1 = [
    "1",
    "349",
    String(h.year),
    declarant,
    alpha(d.name, 40), // 18-57
    "T", // 58 telematic
    (d.phone ?? "").replace(/\D/g, "").slice(-9).padStart(9, "0"), // 59-67
    alpha(d.contactName ?? d.name, 40), // 68-107
    h.declarationNumber, // 108-120
    h.rectifying && !h.substitutive ? "C" : " ", // 121 complementary
    h.rectifying && h.substitutive ? "S" : " ", // 122 substitutive
    h.rectifying ? (h.previousDeclarationNumber ?? "").padStart(13, "0") : "0".repeat(13), // 123-135
    h.period, // 136-137
    String(operators.length).padStart(9, "0"), // 138-146
    cents(total, 15, "total"), // 147-161
    String(rectifications.length).padStart(9, "0"), // 162-170
    cents(rectTotal, 15, "rectifications"), // 171-185
    " ", // 186 two-month monthly return
    blanks(204), // 187-390
    blanks(9), // 391-399 legal representative
    blanks(101), // 400-500
  ].join("");
  const type2 = records.map((r, i) => {
    const path = `records.${i}`;
    const head = [
      "2",
      "349",
      String(h.year),
      declarant, // 9-17
      blanks(58), // 18-75
      alpha(r.country, 2), // 76-77
      alpha(r.vatNumber, 15), // 78-92
      alpha(r.name, 40), // 93-132
      r.key, // 133
    ].join("");
    const tail =
      r.kind === "operator"
        ? amount13(r.base, `${path}.base`) + blanks(354) // 134-146, 147-500
        : [
            blanks(13), // 134-146
            String(r.year ?? ""), // 147-150
            alpha(r.period, 2), // 151-152
            amount13(r.newBase, `${path}.new_base`), // 153-165
            amount13(r.previousBase, `${path}.previous_base`), // 166-178
            blanks(322), // 179-500
          ].join("");
    return head + tail;
  });
  const all = [type1, ...type2];
  for (const [i, record] of all.entries()) checkLength(record, 500, `349 record ${i + 1}`);
  return Buffer.from(all.join(""), "latin1");
}
