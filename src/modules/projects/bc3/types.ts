/** FIEBDC-3 (BC3) budget model shared by the parser and the writer. All amounts are decimal strings. */

export type Bc3Kind = "chapter" | "item";
export type DecompositionType = "labour" | "machinery" | "material" | "other";
export type Bc3Charset = "850" | "437" | "ANSI" | "UTF-8";

/** Rounding decimals declared by ~K; a missing key: not declared. */
export interface Bc3Decimals {
  /** DS: total measurement of a placement. */
  quantity?: number;
  /** DR / DRS: yields and factors. */
  yield?: number;
  /** DI: each yield x price line of a decomposition and the sums percentages apply to. */
  line?: number;
  /** DC / DUO: the unit price of an item (direct cost + CI). */
  price?: number;
  /** DM / DC: quantity x price and chapter totals. */
  amount?: number;
}

/** The ~K record: percentages as normalized decimal strings, null when the file leaves them blank. */
export interface Bc3Coefficients {
  indirectPct: string | null;
  overheadsPct: string | null;
  profitPct: string | null;
  discountPct: string | null;
  vatPct: string | null;
  decimals: Bc3Decimals;
}

/**
 * One line of a ~M measurement. Values are normalized decimal strings (no exponent, no trailing zeros),
 * null = blank. Subtotal lines (~M line type 1 or 2) are derived data and are not kept.
 */
export interface Bc3Measurement {
  label: string;
  units: string | null;
  length: string | null;
  width: string | null;
  height: string | null;
}

/** One line of an item's decomposition. yield = factor x yield of the ~D line, normalized decimal string. */
export interface Bc3Decomposition {
  type: DecompositionType;
  code: string;
  unit: string;
  summary: string;
  yield: string;
  /** Unit price of the component (its ~C price), 4 decimals. */
  price: string;
}

export interface Bc3Node {
  /** Code without the trailing # / ##. */
  code: string;
  /** chapter when the ~C code ends with '#', item otherwise. */
  kind: Bc3Kind;
  unit: string;
  summary: string;
  /** From ~T, "" when none. Line breaks are "\n". */
  longText: string;
  /**
   * 3 decimals: the quantity the file states (the ~M total, else factor x yield of the parent's ~D
   * line). Measurement lines that add up to something else are a warning, never a correction.
   */
  quantity: string;
  /**
   * 4 decimals. Items: the direct cost (from the decomposition when there is one, else the ~C price)
   * plus the ~K CI, rounded to the ~K price decimals. Chapters: as the file states it.
   */
  unitPrice: string;
  measurements: Bc3Measurement[];
  /** Components of an item (labour/machinery/material/other), from the item's ~D. Empty for chapters. */
  decomposition: Bc3Decomposition[];
  /** For chapters: sub-chapters and items, in ~D order. Empty for items. */
  children: Bc3Node[];
}

export interface Bc3Budget {
  /** Root code without ##. */
  code: string;
  /** Root summary. */
  name: string;
  charset: Bc3Charset;
  /** Set by the parser; the writer writes no percentages when left out. */
  coefficients?: Bc3Coefficients;
  /** The root's ~C price (null when blank): what the file says the whole budget costs. Parser only. */
  declaredPrice?: string | null;
  /** What was imported as the file says but is worth a look (charset used, lines that don't add up...). Parser only. */
  warnings?: Bc3LineError[];
  /** ~T records read. Parser only. */
  texts?: number;
  root: { code: string; summary: string; children: Bc3Node[] };
}

/** 1-based line of the offending record (or field); file-level problems (no ~V, no root) use line 1. */
export interface Bc3LineError {
  line: number;
  message: string;
}

export type ParseResult = { ok: true; budget: Bc3Budget } | { ok: false; errors: Bc3LineError[] };
