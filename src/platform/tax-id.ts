import { z } from "zod";

/**
 * Validation of Spanish tax identifiers (NIF/DNI, NIE, CIF) and EU VAT numbers.
 *
 * Pure functions: no I/O, no VIES lookups. EU VAT numbers are checked for shape only
 * (country prefix + per-country format); Spanish identifiers are checked down to the
 * control character.
 */

export type SpanishTaxIdKind = "NIF" | "NIE" | "CIF";

export type SpanishTaxIdResult =
  | { valid: true; kind: SpanishTaxIdKind; normalized: string }
  | { valid: false; reason: string };

export interface EuVatResult {
  valid: boolean;
  /** Two-letter VAT prefix (EL for Greece, XI for Northern Ireland). */
  country?: string;
  /** Prefix + number, uppercase, without separators. */
  normalized?: string;
  reason?: string;
}

export interface TaxIdResult {
  valid: boolean;
  /** Spanish identifiers without the ES prefix; EU VAT numbers with their country prefix. */
  normalized?: string;
  /** "ES" for Spanish identifiers, else the VAT prefix. */
  country?: string;
  kind?: SpanishTaxIdKind | "VAT";
  reason?: string;
}

export interface TaxIdOptions {
  /** Also accept (shape-checked) VAT numbers of other EU member states. Default false. */
  allowEuVat?: boolean;
}

/** DNI/NIE control letters, indexed by number % 23. */
const DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE";
/** CIF letter controls, indexed by the control digit. */
const CIF_LETTERS = "JABCDEFGHI";
/**
 * CIF organisation letters whose control is a letter. The other organisation letters
 * (A B C D E F G H J U V) take a digit.
 */
const CIF_LETTER_CONTROL = new Set(["N", "P", "Q", "R", "S", "W"]);

const NIE_PREFIX: Record<string, string> = { X: "0", Y: "1", Z: "2" };

/** Uppercase and drop whitespace, dots and dashes. */
export const normalizeTaxIdInput = (raw: string): string => raw.toUpperCase().replace(/[\s.-]/g, "");

/** The DNI/NIE control letter for a number (given as its digits). */
export const dniControlLetter = (digits: string): string => DNI_LETTERS[Number(digits) % 23];

/** The CIF control digit (0-9) for the 7 central digits. */
export const cifControlDigit = (digits: string): number => {
  let sum = 0;
  for (let i = 0; i < 7; i++) {
    const d = Number(digits[i]);
    if (i % 2 === 1) {
      // Positions 2, 4, 6 (1-based): added as they are.
      sum += d;
    } else {
      // Positions 1, 3, 5, 7: doubled, then the digits of the result added.
      const doubled = d * 2;
      sum += Math.floor(doubled / 10) + (doubled % 10);
    }
  }
  return (10 - (sum % 10)) % 10;
};

const stripEsPrefix = (value: string): string => (value.startsWith("ES") ? value.slice(2) : value);

/**
 * Validates a Spanish NIF (DNI and the special K/L/M NIFs), NIE or CIF.
 * Accepts lowercase, spaces, dots, dashes and an optional "ES" prefix; `normalized` has none of them.
 */
export const validateSpanishTaxId = (raw: string): SpanishTaxIdResult => {
  const value = stripEsPrefix(normalizeTaxIdInput(raw));
  if (value === "") return { valid: false, reason: "empty tax identifier" };
  if (/[^A-Z0-9]/.test(value)) {
    return { valid: false, reason: "contains characters other than letters and digits" };
  }

  // DNI: 8 digits + letter.
  let m = /^(\d{8})([A-Z])$/.exec(value);
  if (m) return checkLetter(value, "NIF", m[1], m[2]);

  // Special NIFs (K: Spaniards under 14, L: non-residents, M: foreigners without NIE): letter + 7 digits + letter.
  m = /^[KLM](\d{7})([A-Z])$/.exec(value);
  if (m) return checkLetter(value, "NIF", m[1], m[2]);

  // NIE: X/Y/Z + 7 digits + letter, the prefix standing for 0/1/2.
  m = /^([XYZ])(\d{7})([A-Z])$/.exec(value);
  if (m) return checkLetter(value, "NIE", NIE_PREFIX[m[1]] + m[2], m[3]);

  // CIF: organisation letter + 7 digits + control digit or letter.
  m = /^([ABCDEFGHJNPQRSUVW])(\d{7})([0-9A-Z])$/.exec(value);
  if (m) {
    const [, org, digits, control] = m;
    const digit = cifControlDigit(digits);
    const letter = CIF_LETTERS[digit];
    const expected = CIF_LETTER_CONTROL.has(org) ? letter : String(digit);
    if (control === expected) return { valid: true, kind: "CIF", normalized: value };
    return { valid: false, reason: `wrong control character, expected ${expected}` };
  }

  if (/^\d{1,7}[A-Z]$/.test(value)) {
    return { valid: false, reason: "a DNI has 8 digits before the letter (pad with leading zeros)" };
  }
  if (/^\d{8}$/.test(value)) return { valid: false, reason: "missing control letter" };
  return { valid: false, reason: "not a NIF, NIE or CIF" };
};

const checkLetter = (
  value: string,
  kind: SpanishTaxIdKind,
  digits: string,
  letter: string,
): SpanishTaxIdResult => {
  const expected = dniControlLetter(digits);
  if (letter === expected) return { valid: true, kind, normalized: value };
  return { valid: false, reason: `wrong control letter, expected ${expected}` };
};

/** VAT number shape per prefix (the part after the prefix), as published for VIES. ES is checked separately. */
const EU_VAT_PATTERNS: Record<string, RegExp> = {
  AT: /^U\d{8}$/,
  BE: /^[01]\d{9}$/,
  BG: /^\d{9,10}$/,
  CY: /^\d{8}[A-Z]$/,
  CZ: /^\d{8,10}$/,
  DE: /^\d{9}$/,
  DK: /^\d{8}$/,
  EE: /^\d{9}$/,
  EL: /^\d{9}$/,
  FI: /^\d{8}$/,
  FR: /^[0-9A-HJ-NP-Z]{2}\d{9}$/,
  HR: /^\d{11}$/,
  HU: /^\d{8}$/,
  IE: /^(\d{7}[A-W][A-IW]?|\d[A-Z+*]\d{5}[A-W])$/,
  IT: /^\d{11}$/,
  LT: /^(\d{9}|\d{12})$/,
  LU: /^\d{8}$/,
  LV: /^\d{11}$/,
  MT: /^\d{8}$/,
  NL: /^\d{9}B\d{2}$/,
  PL: /^\d{10}$/,
  PT: /^\d{9}$/,
  RO: /^[1-9]\d{1,9}$/,
  SE: /^\d{10}01$/,
  SI: /^\d{8}$/,
  SK: /^\d{10}$/,
  XI: /^(\d{9}|\d{12}|GD[0-4]\d{2}|HA[5-9]\d{2})$/,
};

/** VAT prefixes accepted by {@link validateEuVat}: the EU member states (Greece as EL) plus XI. */
export const EU_VAT_PREFIXES: readonly string[] = [...Object.keys(EU_VAT_PATTERNS), "ES"].sort();

/**
 * Checks the shape of an EU VAT number (prefix + per-country format). Spanish numbers (ES prefix)
 * are fully validated as NIF/NIE/CIF. Does not check that the number is registered in VIES.
 */
export const validateEuVat = (raw: string): EuVatResult => {
  const value = normalizeTaxIdInput(raw);
  if (value === "") return { valid: false, reason: "empty VAT number" };
  const prefix = value.slice(0, 2);
  const number = value.slice(2);
  if (!/^[A-Z]{2}$/.test(prefix)) {
    return { valid: false, reason: "a VAT number starts with a two-letter country prefix" };
  }
  if (prefix === "ES") {
    const es = validateSpanishTaxId(number);
    if (!es.valid) return { valid: false, country: "ES", reason: es.reason };
    return { valid: true, country: "ES", normalized: `ES${es.normalized}` };
  }
  const pattern = EU_VAT_PATTERNS[prefix];
  if (!pattern) {
    if (prefix === "GR") return { valid: false, reason: "Greek VAT numbers use the EL prefix, not GR" };
    if (prefix === "GB") return { valid: false, reason: "GB VAT numbers are not EU VAT numbers since 2021" };
    return { valid: false, reason: `${prefix} is not an EU VAT prefix` };
  }
  if (!pattern.test(number)) {
    return { valid: false, country: prefix, reason: `not a valid ${prefix} VAT number format` };
  }
  return { valid: true, country: prefix, normalized: value };
};

/**
 * Validates a Spanish NIF/NIE/CIF and, with `allowEuVat`, also an EU VAT number of another member state.
 * A Spanish identifier is always returned without the ES prefix.
 */
export const validateTaxId = (raw: string, opts: TaxIdOptions = {}): TaxIdResult => {
  const es = validateSpanishTaxId(raw);
  if (es.valid) return { valid: true, normalized: es.normalized, country: "ES", kind: es.kind };
  if (opts.allowEuVat) {
    const value = normalizeTaxIdInput(raw);
    const prefix = value.slice(0, 2);
    // Spanish identifiers never have two letters in front, so a non-ES letter pair means a foreign VAT number.
    if (/^[A-Z]{2}/.test(value) && prefix !== "ES") {
      const vat = validateEuVat(value);
      if (vat.valid) return { valid: true, normalized: vat.normalized, country: vat.country, kind: "VAT" };
      return { valid: false, reason: vat.reason };
    }
  }
  return { valid: false, reason: es.reason };
};

/**
 * Zod schema for a tax identifier: normalizes it (see {@link validateTaxId}) and rejects invalid ones
 * with a message that says what is wrong.
 */
export const taxIdSchema = (opts: TaxIdOptions = {}) =>
  z.string().transform((value, ctx) => {
    const result = validateTaxId(value, opts);
    if (!result.valid || result.normalized === undefined) {
      ctx.addIssue({ code: "custom", message: `invalid tax ID: ${result.reason ?? "unknown reason"}` });
      return z.NEVER;
    }
    return result.normalized;
  });
