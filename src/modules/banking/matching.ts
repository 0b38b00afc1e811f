/**
 * Matching bank movements with open customer receipts and supplier payments due, as
 * ../shared/design/documents.md scores it: the exact open amount (40; within tolerance 25), the
 * invoice code or reference found in the movement's texts (30), the contact's tax id in the texts
 * (20; its name 10), the due date within 7 days of the movement (10). 85 or more on one candidate
 * only may reconcile automatically; 50-84 is a suggestion.
 *
 * Set-based and pure: the callers load the movements and the open dues in one query each; here
 * every due is indexed once (by the bank effect of its open amount, by its codes, by its contact's
 * tax id) and each movement looks up its few candidates in those maps — no movement ever scans the
 * dues, so 100,000 x 100,000 costs about what reading them does.
 */

export const AUTO_MATCH_SCORE = 85;
export const SUGGESTION_SCORE = 50;

export const POINTS = {
  amount_exact: 40,
  amount_close: 25,
  reference: 30,
  tax_id: 20,
  name: 10,
  due_date: 10,
} as const;
export type ReasonCode = keyof typeof POINTS;

/** A difference up to max(1.00, 1 % of the open amount) is "within tolerance" (bank fees, rounding). */
const TOLERANCE_FLOOR_CENTS = 100;
const TOLERANCE_RATE = 0.01;
const DUE_DATE_DAYS = 7;
/** Codes and tax ids shorter than this are too common in bank texts to mean anything. */
const MIN_CODE_LENGTH = 4;
/**
 * Dues sharing one exact amount beyond this many are not suggested on the amount alone (40 + name
 * 10 + date 10): a subscription billed to thousands of customers would otherwise score every one
 * of them for every movement. The code or the tax id still finds them.
 */
const MAX_AMOUNT_BUCKET = 200;
/** Suggestions kept per movement, best first. */
const MAX_SUGGESTIONS = 10;

export interface MatchMovement {
  id: string;
  /** Signed, 2 decimals: credits (money in) positive. */
  amount: string;
  operationDate: string;
  valueDate: string;
  /** Every free text of the movement: concepts, references, document number. */
  texts: string[];
}

export interface MatchDue {
  id: string;
  direction: "sale" | "purchase";
  documentCode: string;
  /** The due's own code, e.g. FV2026-000123/1. */
  code: string;
  supplierNumber: string | null;
  dueDate: string;
  /** Still open, 2 decimals, with the due's sign (a credit note's refund is negative). */
  openAmount: string;
  contactName: string;
  contactTaxId: string | null;
}

export interface Reason {
  code: ReasonCode;
  points: number;
  detail: string;
}

export interface Suggestion {
  target: "receipt" | "payment";
  dueId: string;
  score: number;
  reasons: Reason[];
}

/** Cents of a 2-decimal string, as a JS number (exact up to 90 trillion euros). */
export function cents(amount: string): number {
  const negative = amount.startsWith("-");
  const [units = "0", decimals = ""] = (negative ? amount.slice(1) : amount).split(".");
  const value = Number(units) * 100 + Number((decimals + "00").slice(0, 2));
  return negative ? -value : value;
}

const money = (c: number) => {
  const abs = Math.abs(c);
  return `${c < 0 ? "-" : ""}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
};

/** Upper case and accents off (the decomposition only when the text is not plain ASCII). */
function plainUpper(text: string): string {
  const upper = text.toUpperCase();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range test
  return /^[\x00-\x7f]*$/.test(upper) ? upper : upper.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
}

/** Upper case, accents off, anything but letters and digits off. */
export function normalizeCode(text: string): string {
  return plainUpper(text).replace(/[^A-Z0-9]/g, "");
}

/** Tax ids are compared without the ES prefix of the VAT number. */
function normalizeTaxId(text: string): string {
  const code = normalizeCode(text);
  return code.startsWith("ES") && code.length > 9 ? code.slice(2) : code;
}

const LEGAL_FORMS = /\b(S\s?L\s?U?|S\s?A\s?U?|S\s?L\s?L|S\s?C|S\s?COOP|C\s?B|SLNE)\b\.?$/;

/** A name as it shows in bank texts: upper case, no accents or punctuation, without S.L./S.A. */
export function normalizeName(text: string): string {
  return plainUpper(text)
    .replace(/[^A-Z0-9 ]/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .replace(LEGAL_FORMS, "")
    .trim();
}

/**
 * The keys a text may carry a code under: every word, the prefixes of words with - or / inside
 * ("FV2026-000001/1" -> FV2026, FV2026000001, FV20260000011) and each pair of neighbouring words
 * (a code split across the two halves of a Norma 43 record 23, or written "FV2026 000001").
 */
export function textKeys(texts: string[]): Set<string> {
  const keys = new Set<string>();
  let previous = "";
  for (const text of texts) {
    const words = plainUpper(text)
      .split(/[^A-Z0-9\-/]+/)
      .filter(Boolean);
    for (const word of words) {
      const parts = word.split(/[-/]+/).filter(Boolean);
      let prefix = "";
      for (const part of parts) {
        prefix += part;
        if (prefix.length >= MIN_CODE_LENGTH) keys.add(prefix);
      }
      const whole = parts.join("");
      if (previous && whole) keys.add(previous + whole);
      previous = whole;
    }
  }
  return keys;
}

const DAY_MS = 86_400_000;
const dayNumber = (iso: string) => Math.round(Date.parse(`${iso}T00:00:00Z`) / DAY_MS);

interface IndexedDue {
  due: MatchDue;
  /** What the due does to the bank balance when paid in full: receipts add, payments take. */
  effect: number;
  codes: string[];
  taxId: string;
  name: string;
  dueDay: number;
}

export interface DueIndex {
  byEffect: Map<number, IndexedDue[]>;
  byCode: Map<string, IndexedDue[]>;
  /** Per tax id, its dues sorted by bank effect (looked up by amount range). */
  byTaxId: Map<string, IndexedDue[]>;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export function indexDues(dues: Iterable<MatchDue>): DueIndex {
  const byEffect = new Map<number, IndexedDue[]>();
  const byCode = new Map<string, IndexedDue[]>();
  const byTaxId = new Map<string, IndexedDue[]>();
  for (const due of dues) {
    const open = cents(due.openAmount);
    if (open === 0) continue;
    const codes = [...new Set([due.documentCode, due.supplierNumber ?? ""].map(normalizeCode))].filter(
      (c) => c.length >= MIN_CODE_LENGTH,
    );
    const taxId = due.contactTaxId ? normalizeTaxId(due.contactTaxId) : "";
    const item: IndexedDue = {
      due,
      effect: due.direction === "sale" ? open : -open,
      codes,
      taxId,
      name: normalizeName(due.contactName),
      dueDay: dayNumber(due.dueDate),
    };
    push(byEffect, item.effect, item);
    for (const code of codes) push(byCode, code, item);
    if (taxId.length >= MIN_CODE_LENGTH) push(byTaxId, taxId, item);
  }
  for (const list of byTaxId.values()) list.sort((a, b) => a.effect - b.effect);
  return { byEffect, byCode, byTaxId };
}

function tolerance(effect: number): number {
  return Math.max(TOLERANCE_FLOOR_CENTS, Math.round(Math.abs(effect) * TOLERANCE_RATE));
}

interface MovementFacts {
  amount: number;
  keys: Set<string>;
  /** The texts as normalizeName leaves them, computed on the first name comparison. */
  text: () => string;
  operationDay: number;
  valueDay: number;
}

/**
 * The score of a candidate, or null below SUGGESTION_SCORE: the points are added first and the
 * reasons (with their texts) written only for a candidate that is kept, and only when asked for.
 */
function score(
  m: MovementFacts,
  c: IndexedDue,
  withReasons: boolean,
): { score: number; reasons: Reason[] } | null {
  const { amount, keys } = m;
  const diff = Math.abs(amount - c.effect);
  const exact = diff === 0;
  const close = !exact && Math.sign(amount) === Math.sign(c.effect) && diff <= tolerance(c.effect);
  const code = c.codes.find((k) => keys.has(k));
  const taxId = Boolean(c.taxId) && (keys.has(c.taxId) || keys.has(`ES${c.taxId}`));
  const name = !taxId && c.name.length >= MIN_CODE_LENGTH && ` ${m.text()} `.includes(` ${c.name} `);
  const days = Math.min(Math.abs(m.operationDay - c.dueDay), Math.abs(m.valueDay - c.dueDay));
  const dated = days <= DUE_DATE_DAYS;
  const points =
    (exact ? POINTS.amount_exact : close ? POINTS.amount_close : 0) +
    (code !== undefined ? POINTS.reference : 0) +
    (taxId ? POINTS.tax_id : name ? POINTS.name : 0) +
    (dated ? POINTS.due_date : 0);
  if (points < SUGGESTION_SCORE) return null;
  const reasons: Reason[] = [];
  if (!withReasons) return { score: points, reasons };
  if (exact)
    reasons.push({
      code: "amount_exact",
      points: POINTS.amount_exact,
      detail: `the open amount ${money(Math.abs(c.effect))}`,
    });
  else if (close)
    reasons.push({
      code: "amount_close",
      points: POINTS.amount_close,
      detail: `${money(Math.abs(amount))} against ${money(Math.abs(c.effect))} open (${money(diff)} apart)`,
    });
  if (code !== undefined) {
    const shown =
      normalizeCode(c.due.documentCode) === code ? c.due.documentCode : (c.due.supplierNumber ?? code);
    reasons.push({ code: "reference", points: POINTS.reference, detail: `${shown} in the movement's texts` });
  }
  if (taxId)
    reasons.push({
      code: "tax_id",
      points: POINTS.tax_id,
      detail: `tax id ${c.due.contactTaxId} in the texts`,
    });
  else if (name)
    reasons.push({ code: "name", points: POINTS.name, detail: `${c.due.contactName} in the texts` });
  if (dated)
    reasons.push({
      code: "due_date",
      points: POINTS.due_date,
      detail: `due ${c.due.dueDate}, ${days} days away`,
    });
  return { score: points, reasons };
}

/**
 * A contact's dues whose amount is within tolerance of the movement's: without the code, a tax id
 * (20) reaches 50 only with a close or exact amount (25/40) — so a customer with thousands of
 * open receipts costs a binary search, not a scan.
 */
function closeTo(sorted: IndexedDue[], amount: number): IndexedDue[] {
  const span = Math.max(TOLERANCE_FLOOR_CENTS, Math.ceil(Math.abs(amount) * TOLERANCE_RATE * 1.02) + 1);
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]!.effect < amount - span) lo = mid + 1;
    else hi = mid;
  }
  const out: IndexedDue[] = [];
  for (let i = lo; i < sorted.length && sorted[i]!.effect <= amount + span; i++) out.push(sorted[i]!);
  return out;
}

/**
 * The suggestions (score >= 50, best first) for one movement. Only dues that can reach 50 are
 * scored: the same or a close amount, or a code or tax id found in the texts. With `reasons`
 * false each suggestion's reasons are left empty (what is stored needs only the score).
 */
export function suggestFor(movement: MatchMovement, index: DueIndex, reasons = true): Suggestion[] {
  const amount = cents(movement.amount);
  if (amount === 0) return [];
  const keys = textKeys(movement.texts);
  const sameAmount = index.byEffect.get(amount) ?? [];
  const candidates = new Set<IndexedDue>(sameAmount.length <= MAX_AMOUNT_BUCKET ? sameAmount : []);
  for (const key of keys) {
    for (const c of index.byCode.get(key) ?? []) candidates.add(c);
    const noPrefix = key.startsWith("ES") && key.length > 9 ? key.slice(2) : key;
    const ofContact = index.byTaxId.get(noPrefix);
    if (ofContact) for (const c of closeTo(ofContact, amount)) candidates.add(c);
  }
  // A close amount (25) reaches 50 only with the code (30) or the tax id and the date (20 + 10),
  // so the dues found by code or tax id above are all the close ones that can be suggested.
  if (candidates.size === 0) return [];
  let text: string | undefined;
  const facts: MovementFacts = {
    amount,
    keys,
    text: () => {
      text ??= normalizeName(movement.texts.join(" "));
      return text;
    },
    operationDay: dayNumber(movement.operationDate),
    valueDay: dayNumber(movement.valueDate),
  };
  const out: Suggestion[] = [];
  for (const c of candidates) {
    if (Math.sign(c.effect) !== Math.sign(amount)) continue;
    const s = score(facts, c, reasons);
    if (s)
      out.push({
        target: c.due.direction === "sale" ? "receipt" : "payment",
        dueId: c.due.id,
        score: s.score,
        reasons: s.reasons,
      });
  }
  return out.sort((a, b) => b.score - a.score || a.dueId.localeCompare(b.dueId)).slice(0, MAX_SUGGESTIONS);
}

/** suggestFor over many movements against one index of the dues; `reasons` as suggestFor's. */
export function suggestAll(
  movements: Iterable<MatchMovement>,
  dues: Iterable<MatchDue>,
  opts: { reasons?: boolean } = {},
): Map<string, Suggestion[]> {
  const index = indexDues(dues);
  const out = new Map<string, Suggestion[]>();
  for (const m of movements) {
    const s = suggestFor(m, index, opts.reasons ?? true);
    if (s.length) out.set(m.id, s);
  }
  return out;
}

/**
 * The matches auto-match may apply: a movement whose only candidate at 85 or more is one due, and
 * that due the unique 85+ candidate of no other movement (two transfers cannot both settle it).
 */
export function uniqueAutoMatches(
  suggestions: Map<string, Suggestion[]>,
): Array<{ movementId: string; suggestion: Suggestion }> {
  const picks: Array<{ movementId: string; suggestion: Suggestion }> = [];
  const claims = new Map<string, number>();
  for (const [movementId, list] of suggestions) {
    const high = list.filter((s) => s.score >= AUTO_MATCH_SCORE);
    if (high.length !== 1) continue;
    picks.push({ movementId, suggestion: high[0]! });
    claims.set(high[0]!.dueId, (claims.get(high[0]!.dueId) ?? 0) + 1);
  }
  return picks.filter((p) => claims.get(p.suggestion.dueId) === 1);
}
