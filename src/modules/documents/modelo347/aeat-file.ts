import { BadRequestError } from "../../../platform/http/errors.js";
import { Dec } from "../../../platform/money.js";
import { parseDecimal, round2 } from "../decimal.js";

/**
 * Modelo 347 (annual declaration of operations with third parties) as the AEAT's fixed-width file:
 * Orden EHA/3012/2008 Anexo II, the positions OCA's l10n_es_aeat_mod347 export uses. One type 1
 * record (declarant) then one type 2 record per declared party and key; 500 ISO-8859-1 bytes each.
 */
export interface Declarant {
  year: number;
  taxId: string;
  name: string;
  phone?: string;
  contactName?: string;
  /** 13 digits starting with 347; default "347" + year + "000001". */
  declarationId?: string;
  /** A second presentation: complementaria (C, adds parties) or sustitutiva (S, replaces). */
  statementType?: "complementaria" | "sustitutiva";
  /** The declaration it complements or replaces (13 digits); required with statementType. */
  previousDeclarationId?: string;
}

export interface PartyRecord {
  taxId: string;
  name: string;
  /** Province code 01-52 of the party's tax address; "99" for non-residents. */
  province: string;
  /** ISO 3166 alpha-2. */
  country: string;
  /** A purchases, B sales. */
  key: "A" | "B";
  annual: string;
  q1: string;
  q2: string;
  q3: string;
  q4: string;
  /** Cash received over 6,000 (reported apart), "0" when none. */
  cash?: string;
  /** Year of the operations the cash was received for; the declaration's year by default. */
  cashYear?: number;
}

/**
 * The record separator. The AEAT layout defines 500-character records and says nothing of line
 * ends; OCA's exporter for the AEAT writes them back to back and only adds CRLF in the optional
 * module for the foral administrations (Navarra, Gipuzkoa). Back to back is the default here too.
 */
export type RecordSeparator = "" | "\r\n";

const RECORD_LENGTH = 500;
const EU_COUNTRIES = new Set([
  "AT",
  "BE",
  "BG",
  "CY",
  "CZ",
  "DE",
  "DK",
  "EE",
  "EL",
  "ES",
  "FI",
  "FR",
  "HR",
  "HU",
  "IE",
  "IT",
  "LT",
  "LU",
  "LV",
  "MT",
  "NL",
  "PL",
  "PT",
  "RO",
  "SE",
  "SI",
  "SK",
]);
const SPECIAL_LETTERS: Record<string, string> = {
  ª: "A",
  º: "O",
  Æ: "AE",
  Œ: "OE",
  Ø: "O",
  Ł: "L",
  Đ: "D",
  Þ: "TH",
  "–": "-",
  "—": "-",
  "‐": "-",
};
const ALLOWED = /[A-Z0-9 ÑÇ.,\-&'/()]/;

function fail(path: string, message: string): never {
  throw new BadRequestError(`${path}: ${message}`, [{ path, message }]);
}

/**
 * Text as the AEAT wants it: uppercase, no accents or other special characters except Ñ and Ç
 * (ISO-8859-1 D1 and C7), single spaces, trimmed, and cut to `length` when given.
 */
export function normalizeAeatText(s: string, length?: number): string {
  let out = "";
  for (const char of s.toUpperCase()) {
    if (char === "Ñ" || char === "Ç") {
      out += char;
      continue;
    }
    const plain = SPECIAL_LETTERS[char] ?? char.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
    for (const c of plain) {
      if (/\s/.test(c)) out += " ";
      else if (ALLOWED.test(c)) out += c;
    }
  }
  const text = out.replace(/ {2,}/g, " ").trim();
  return length === undefined ? text : text.slice(0, length).trimEnd();
}

const alpha = (value: string | undefined, length: number) =>
  normalizeAeatText(value ?? "", length).padEnd(length);
const blanks = (length: number) => " ".repeat(length);
const zeros = (length: number) => "0".repeat(length);

function numeric(digits: string, length: number, path: string): string {
  if (!/^\d*$/.test(digits) || digits.length > length) fail(path, `must be at most ${length} digits`);
  return digits.padStart(length, "0");
}

/** NIF right-aligned, zero-filled, the control character last; a leading "ES" country prefix is dropped. */
function nif(value: string, path: string): string {
  let id = value.toUpperCase().replace(/[^A-Z0-9]/g, "");
  if (id.length > 9 && id.startsWith("ES")) id = id.slice(2);
  if (id.length === 0 || id.length > 9) fail(path, `"${value}" is not a Spanish tax id (NIF)`);
  return id.padStart(9, "0");
}

/** 13 integer digits and 2 decimals, no sign, no decimal point. */
function unsignedAmount(value: Dec, path: string): string {
  const cents = round2(value.abs()).times(100);
  if (cents.gte(new Dec(10).pow(15))) fail(path, "the amount does not fit 13 integer digits");
  return cents.toFixed(0).padStart(15, "0");
}

/** Sign (space, or N when negative) then 13 integer digits and 2 decimals. */
function signedAmount(value: Dec, path: string): string {
  const rounded = round2(value);
  return (rounded.isNegative() && !rounded.isZero() ? "N" : " ") + unsignedAmount(rounded, path);
}

const ZERO_AMOUNT = ` ${zeros(15)}`;

function declarationNumber(value: string | undefined, fallback: string, path: string): string {
  const id = value ?? fallback;
  if (!/^347\d{10}$/.test(id)) fail(path, "must be 13 digits starting with 347");
  return id;
}

function declarantRecord(d: Declarant, partyCount: number, total: Dec): string {
  if (!Number.isInteger(d.year) || d.year < 1000 || d.year > 9999)
    fail("declarant.year", "must be a 4-digit year");
  const id = declarationNumber(d.declarationId, `347${d.year}000001`, "declarant.declarationId");
  const previous = d.statementType
    ? declarationNumber(d.previousDeclarationId, "", "declarant.previousDeclarationId")
    : zeros(13);
  const phone = (d.phone ?? "").replace(/\D/g, "").slice(-9);
  return [
    "1",
    "347",
    String(d.year),
    nif(d.taxId, "declarant.taxId"), // 9-17
    alpha(d.name, 40), // 18-57
    "T", // 58 telematic
    numeric(phone, 9, "declarant.phone"), // 59-67
    alpha(d.contactName, 40), // 68-107
    id, // 108-120
    d.statementType === "complementaria" ? "C" : " ", // 121
    d.statementType === "sustitutiva" ? "S" : " ", // 122
    previous, // 123-135
    numeric(String(partyCount), 9, "parties"), // 136-144
    signedAmount(total, "parties"), // 145-160
    zeros(9), // 161-169 properties
    ZERO_AMOUNT, // 170-185 business rentals
    blanks(205), // 186-390
    blanks(9), // 391-399 legal representative
    blanks(88), // 400-487
    blanks(13), // 488-500 electronic stamp
  ].join("");
}

function partyRecord(d: Declarant, declarantNif: string, p: PartyRecord, i: number): string {
  const at = (field: string) => `parties.${i}.${field}`;
  if (p.key !== "A" && p.key !== "B") fail(at("key"), "must be A (purchases) or B (sales)");
  const province = p.province.trim();
  const nonResident = province === "99";
  if (!nonResident && !/^(0[1-9]|[1-4]\d|5[0-2])$/.test(province)) {
    fail(at("province"), "must be a province code 01-52, or 99 for non-residents");
  }
  const iso = p.country.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(iso)) fail(at("country"), "must be a 2-letter country code");
  const country = iso === "GR" ? "EL" : iso;
  const euOperator = nonResident && EU_COUNTRIES.has(country) && country !== "ES";
  let communityVat = blanks(17);
  if (euOperator) {
    let number = p.taxId.toUpperCase().replace(/[^A-Z0-9]/g, "");
    if (number.startsWith(country) || (country === "EL" && number.startsWith("GR"))) number = number.slice(2);
    if (number.length === 0 || number.length > 15) fail(at("taxId"), "is not a valid EU VAT number");
    communityVat = country + number.padEnd(15);
  }

  const cash = parseDecimal(p.cash, at("cash"));
  if (cash.isNegative()) fail(at("cash"), "cash received cannot be negative");
  const cashYear = cash.isZero() ? "0000" : String(p.cashYear ?? d.year);
  if (!/^\d{4}$/.test(cashYear)) fail(at("cashYear"), "must be a 4-digit year");
  const amount = (field: "annual" | "q1" | "q2" | "q3" | "q4") =>
    signedAmount(parseDecimal(p[field], at(field)), at(field));

  return [
    "2",
    "347",
    String(d.year),
    declarantNif, // 9-17
    nonResident ? blanks(9) : nif(p.taxId, at("taxId")), // 18-26
    blanks(9), // 27-35 legal representative
    alpha(p.name, 40), // 36-75
    "D", // 76
    province, // 77-78
    nonResident ? country : blanks(2), // 79-80
    " ", // 81
    p.key, // 82
    amount("annual"), // 83-98
    " ", // 99 insurance
    " ", // 100 business rental
    unsignedAmount(cash, at("cash")), // 101-115
    ZERO_AMOUNT, // 116-131 property transfers subject to VAT
    cashYear, // 132-135
    amount("q1"), // 136-151
    ZERO_AMOUNT, // 152-167
    amount("q2"), // 168-183
    ZERO_AMOUNT, // 184-199
    amount("q3"), // 200-215
    ZERO_AMOUNT, // 216-231
    amount("q4"), // 232-247
    ZERO_AMOUNT, // 248-263
    communityVat, // 264-280
    blanks(3), // 281-283 cash-basis, reverse charge, customs deposit
    ZERO_AMOUNT, // 284-299 cash-basis annual amount
    blanks(201), // 300-500
  ].join("");
}

/** The whole file: the declarant record, then one record per party, ISO-8859-1. */
export function modelo347File(
  declarant: Declarant,
  parties: PartyRecord[],
  opts: { separator?: RecordSeparator } = {},
): Buffer {
  const total = parties.reduce(
    (acc, p, i) => acc.plus(round2(parseDecimal(p.annual, `parties.${i}.annual`))),
    new Dec(0),
  );
  const declarantNif = nif(declarant.taxId, "declarant.taxId");
  const records = [
    declarantRecord(declarant, parties.length, total),
    ...parties.map((p, i) => partyRecord(declarant, declarantNif, p, i)),
  ];
  for (const record of records) {
    if (record.length !== RECORD_LENGTH) throw new Error(`347 record of ${record.length} characters`);
  }
  const separator = opts.separator ?? "";
  return Buffer.from(records.map((r) => r + separator).join(""), "latin1");
}

export {
  aggregate347,
  CASH_THRESHOLD_347,
  type Row347,
  THRESHOLD_347,
  type Totals347,
} from "./aggregate.js";
