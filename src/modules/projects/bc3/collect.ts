import { isDecimalText, normalizeDecimal } from "./numbers.js";
import type { Bc3Field, Bc3Record, Bc3Sub } from "./records.js";
import type { Bc3LineError, Bc3Measurement, DecompositionType } from "./types.js";

/** First pass of the parser: reads ~C, ~D/~Y, ~M/~N and ~T records into lookup tables. */

export interface Concept {
  code: string;
  /** Number of trailing '#': 2 = root, 1 = chapter, 0 = item or component. */
  hashes: number;
  unit: string;
  summary: string;
  /** Validated decimal text, "0" when blank. */
  price: string;
  /** False when the ~C price field is blank. */
  priceGiven: boolean;
  type: DecompositionType;
  line: number;
}

export interface ChildRef {
  code: string;
  /** Validated decimal texts, null when blank (FIEBDC-3 default: 1). */
  factor: string | null;
  yield: string | null;
  line: number;
}

export interface Decomposition {
  line: number;
  children: ChildRef[];
}

export interface MeasureEntry {
  parent: string | null;
  child: string;
  line: number;
  /** Last element of the position path: 1-based index of the child in the parent's ~D, when given. */
  index: number | null;
  total: string | null;
  lines: Bc3Measurement[];
}

/** ~K | DN\DD\DS\DR\DI\DP\DC\DM\DIVISA | CI\GG\BI\BAJA\IVA | DRC\DC\DRO\DFS\DRS\DFO\DUO\DI\DES\DN\DD\DS\DIVISA | */
export interface CoefficientsRecord {
  line: number;
  /** Subfields of each field, "" when blank. */
  fields: string[][];
}

export interface Collected {
  errors: Bc3LineError[];
  coefficients: CoefficientsRecord | null;
  concepts: Map<string, Concept>;
  decomps: Map<string, Decomposition>;
  measures: MeasureEntry[];
  texts: Map<string, string>;
}

const TYPES: Record<string, DecompositionType> = { "1": "labour", "2": "machinery", "3": "material" };

export const splitCode = (text: string): { code: string; hashes: number } => {
  const trimmed = text.trim();
  const code = trimmed.replace(/#+$/, "");
  return { code, hashes: trimmed.length - code.length };
};

const oneLine = (field: Bc3Field | undefined): string => (field?.raw ?? "").replace(/\s*\n\s*/g, " ").trim();

/** Groups subfields in tuples of `size`, dropping groups where every subfield is blank. */
function groups(field: Bc3Field | undefined, size: number): Bc3Sub[][] {
  const subs = field?.subs ?? [];
  const out: Bc3Sub[][] = [];
  for (let i = 0; i < subs.length; i += size) {
    const group = subs.slice(i, i + size);
    if (group.some((s) => s.text !== "")) out.push(group);
  }
  return out;
}

/**
 * A FIEBDC-3 date: DDMMYYYY, or DDMMYY (years 00-79 are 20xx); the day may be left out (MMYYYY,
 * MMYY) and so may the month (YYYY, YY). Separators / - . between the parts are tolerated. The
 * date must exist: 30/02/26 does not.
 */
export function isBc3Date(text: string): boolean {
  const full = /^(\d{2})[/.-]?(\d{2})[/.-]?(\d{2}|\d{4})$/.exec(text);
  if (full) {
    const [day, month, yy] = [Number(full[1]), Number(full[2]), full[3]];
    const year = yy.length === 4 ? Number(yy) : Number(yy) + (Number(yy) >= 80 ? 1900 : 2000);
    const date = new Date(Date.UTC(year, month - 1, day));
    if (month >= 1 && month <= 12 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day)
      return true;
  }
  const monthYear = /^(\d{2})[/.-]?(\d{2}|\d{4})$/.exec(text);
  if (monthYear && Number(monthYear[1]) >= 1 && Number(monthYear[1]) <= 12) return true;
  return /^(\d{2}|\d{4})$/.test(text);
}

export function collect(records: Bc3Record[]): Collected {
  const ctx: Collected = {
    errors: [],
    coefficients: null,
    concepts: new Map(),
    decomps: new Map(),
    measures: [],
    texts: new Map(),
  };
  const error = (line: number, message: string) => ctx.errors.push({ line, message });
  const byPlacement = new Map<string, number>();

  /** Validated number text; blank -> null; not a number -> error (and null, so parsing goes on). */
  const num = (sub: Bc3Sub | undefined, what: () => string): string | null => {
    if (!sub || sub.text === "") return null;
    if (isDecimalText(sub.text)) return sub.text;
    error(sub.line, `${what()} is not a number: "${sub.text}"`);
    return null;
  };
  const measure = (sub: Bc3Sub | undefined, child: string): string | null => {
    const text = num(sub, () => `measurement of ${child}`);
    return text === null ? null : normalizeDecimal(text);
  };

  /** A unit price the budget can store: NUMERIC(18,4), so 14 integer digits and 4 decimals. */
  const unitPrice = (sub: Bc3Sub | undefined, code: string, chapter: boolean): string => {
    const text = num(sub, () => `price of ${code}`);
    if (text === null || !sub) return "0";
    // A chapter's or the root's price is only compared with what it holds, never stored.
    if (chapter) return text;
    const [int, frac = ""] = text.replace(/^[+-]/, "").split(".");
    if (frac.length > 4) error(sub.line, `price of ${code} has more than 4 decimals: "${text}"`);
    else if (int.replace(/^0+/, "").length > 14)
      error(sub.line, `price of ${code} is too large (at most 14 integer digits): "${text}"`);
    return text;
  };

  const readConcept = (rec: Bc3Record) => {
    const [codeField, unit, summary, price, date, type] = rec.fields;
    const { code, hashes } = splitCode(codeField?.subs[0]?.text ?? "");
    if (code === "") return error(rec.line, "~C record without a code");
    for (const sub of date?.subs ?? []) {
      if (sub.text !== "" && !isBc3Date(sub.text)) {
        error(sub.line, `date of ${code} is not a valid date (DDMMYYYY or DDMMYY): "${sub.text}"`);
      }
    }
    ctx.concepts.set(code, {
      code,
      hashes,
      unit: oneLine(unit),
      summary: oneLine(summary),
      price: unitPrice(price?.subs[0], code, hashes > 0),
      priceGiven: (price?.subs[0]?.text ?? "") !== "",
      type: TYPES[type?.subs[0]?.text ?? ""] ?? "other",
      line: rec.line,
    });
  };

  const readDecomposition = (rec: Bc3Record, append: boolean) => {
    const parent = splitCode(rec.fields[0]?.subs[0]?.text ?? "").code;
    if (parent === "") return error(rec.line, `~${rec.type} record without a parent code`);
    const children: ChildRef[] = [];
    for (const [codeSub, factor, yieldSub] of groups(rec.fields[1], 3)) {
      const code = splitCode(codeSub.text).code;
      if (code === "") continue;
      const f = num(factor, () => `factor of ${code} in ${parent}`);
      const y = num(yieldSub, () => `yield of ${code} in ${parent}`);
      children.push({ code, factor: f, yield: y, line: codeSub.line });
    }
    const previous = ctx.decomps.get(parent);
    // ~D replaces a previous decomposition of the same parent, ~Y appends to it.
    if (append && previous) previous.children.push(...children);
    else ctx.decomps.set(parent, { line: rec.line, children });
  };

  const readMeasurement = (rec: Bc3Record, append: boolean) => {
    const codes = (rec.fields[0]?.subs ?? []).map((s) => splitCode(s.text).code).filter((c) => c !== "");
    if (codes.length === 0) return error(rec.line, `~${rec.type} record without a concept code`);
    const child = codes[codes.length - 1];
    const parent = codes.length > 1 ? codes[0] : null;
    const position = (rec.fields[1]?.subs ?? []).filter((s) => s.text !== "");
    const last = position[position.length - 1]?.text ?? "";
    const entry: MeasureEntry = {
      parent,
      child,
      line: rec.line,
      index: /^\d+$/.test(last) ? Number(last) : null,
      total: num(rec.fields[2]?.subs[0], () => `total measurement of ${child}`),
      lines: [],
    };
    for (const [type, label, units, length, width, height] of groups(rec.fields[3], 6)) {
      const line: Bc3Measurement = {
        label: label?.text ?? "",
        units: measure(units, child),
        length: measure(length, child),
        width: measure(width, child),
        height: measure(height, child),
      };
      // Subtotal lines (type 1 partial, 2 cumulative) are derived values: skip them.
      if (type.text !== "1" && type.text !== "2") entry.lines.push(line);
    }
    // ~M replaces a previous measurement of the same placement, ~N appends lines to it.
    const key = `${parent ?? ""}\\${child}\\${entry.index ?? ""}`;
    const previous = byPlacement.get(key);
    if (previous === undefined) {
      byPlacement.set(key, ctx.measures.length);
      ctx.measures.push(entry);
    } else if (append) {
      ctx.measures[previous].lines.push(...entry.lines);
    } else {
      ctx.measures[previous] = entry;
    }
  };

  for (const rec of records) {
    if (rec.type === "C") readConcept(rec);
    else if (rec.type === "D" || rec.type === "Y") readDecomposition(rec, rec.type === "Y");
    else if (rec.type === "M" || rec.type === "N") readMeasurement(rec, rec.type === "N");
    else if (rec.type === "T") {
      const code = splitCode(rec.fields[0]?.subs[0]?.text ?? "").code;
      if (code !== "") ctx.texts.set(code, (rec.fields[1]?.raw ?? "").trim());
    } else if (rec.type === "K") {
      ctx.coefficients = { line: rec.line, fields: rec.fields.map((f) => f.subs.map((sub) => sub.text)) };
    }
    // ~V is read by detectCharset; any other record type is ignored.
  }
  return ctx;
}
