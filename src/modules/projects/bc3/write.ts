import { Dec, sum, toMoney, toQuantity, toUnitPrice } from "../../../platform/money.js";
import { decompositionCosts } from "../items/arithmetic.js";
import { encodeBc3 } from "./charset.js";
import { normalizeDecimal } from "./numbers.js";
import type {
  Bc3Budget,
  Bc3Charset,
  Bc3Coefficients,
  Bc3Decomposition,
  Bc3Node,
  DecompositionType,
} from "./types.js";

/**
 * Text fields must not contain the FIEBDC-3 separators. Our choice: "|" and "\" become "/" and "~" becomes
 * "-" (the closest look-alikes available in every charset). Line breaks become spaces in single-line fields
 * (codes, units, summaries, labels) and "\n" in long texts; everything is trimmed, as the parser trims.
 */
export function sanitizeText(text: string, multiline = false): string {
  const lines = text.replace(/\r\n?/g, "\n").replace(/[|\\]/g, "/").replace(/~/g, "-");
  return (multiline ? lines : lines.replace(/\n/g, " ")).trim();
}

/** A code is sanitized like a text and loses any trailing '#': the writer adds the chapter/root marks. */
export const sanitizeCode = (code: string): string => sanitizeText(code).replace(/#+$/, "").trim();

const TYPE_DIGIT: Record<DecompositionType, string> = {
  other: "0",
  labour: "1",
  machinery: "2",
  material: "3",
};

const optional = (value: string | null): string => (value === null ? "" : normalizeDecimal(value));

class Bc3Writer {
  readonly lines: string[] = [];
  constructor(private readonly k: Bc3Coefficients | undefined) {}

  /**
   * FIEBDC-3 prices are direct costs: the reader adds the ~K CI. A decomposed item's is its lines'
   * sum; any other item's is its unit price without the CI.
   */
  directCost(node: Bc3Node): string {
    const lineDecimals = this.k?.decimals.line;
    if (node.decomposition.length > 0)
      return toUnitPrice(sum(decompositionCosts(node.decomposition, lineDecimals)));
    const ci = new Dec(this.k?.indirectPct ?? 0);
    return ci.isZero() ? node.unitPrice : toUnitPrice(new Dec(node.unitPrice).times(100).div(ci.plus(100)));
  }

  private readonly concepts = new Set<string>();
  private readonly decompositions = new Set<string>();
  private readonly texts = new Set<string>();

  concept(ref: string, unit: string, summary: string, price: string, type: string): void {
    if (this.concepts.has(ref)) return;
    this.concepts.add(ref);
    const fields = [ref, sanitizeText(unit), sanitizeText(summary), toUnitPrice(price), "", type];
    this.lines.push(`~C|${fields.join("|")}|`);
  }

  longText(ref: string, text: string): void {
    const clean = sanitizeText(text, true);
    if (clean === "" || this.texts.has(ref)) return;
    this.texts.add(ref);
    this.lines.push(`~T|${ref}|${clean.replace(/\n/g, "\r\n")}|`);
  }

  decomposition(ref: string, children: { ref: string; yield: string }[]): void {
    if (children.length === 0 || this.decompositions.has(ref)) return;
    this.decompositions.add(ref);
    this.lines.push(`~D|${ref}|${children.map((c) => `${c.ref}\\1\\${c.yield}\\`).join("")}|`);
  }

  measurements(parentRef: string, node: Bc3Node, path: number[]): void {
    const lines = node.measurements.filter(
      (m) => sanitizeText(m.label) !== "" || [m.units, m.length, m.width, m.height].some((v) => v !== null),
    );
    if (lines.length === 0) return;
    // Each line: TYPE\COMMENT\UNITS\LENGTH\WIDTH\HEIGHT\ (type blank = normal line).
    const body = lines
      .flatMap((m) => [
        "",
        sanitizeText(m.label),
        optional(m.units),
        optional(m.length),
        optional(m.width),
        optional(m.height),
      ])
      .map((f) => `${f}\\`)
      .join("");
    const position = path.map((i) => `${i}\\`).join("");
    const head = `~M|${parentRef}\\${sanitizeCode(node.code)}|${position}|${toQuantity(node.quantity)}|`;
    this.lines.push(`${head}${body}|`);
  }

  component(c: Bc3Decomposition): void {
    this.concept(sanitizeCode(c.code), c.unit, c.summary, c.price, TYPE_DIGIT[c.type]);
  }

  /** Writes a placed node: its concept, long text, decomposition or children, and its ~M in the parent. */
  node(parentRef: string, node: Bc3Node, path: number[]): void {
    const ref = sanitizeCode(node.code) + (node.kind === "chapter" ? "#" : "");
    const price = node.kind === "chapter" ? node.unitPrice : this.directCost(node);
    this.concept(ref, node.unit, node.summary, price, "0");
    this.longText(ref, node.longText);
    if (node.kind === "chapter") {
      this.decomposition(ref, node.children.map(childRef));
      for (const [i, child] of node.children.entries()) this.node(ref, child, [...path, i + 1]);
    } else {
      const parts = node.decomposition.map((c) => ({
        ref: sanitizeCode(c.code),
        yield: normalizeDecimal(c.yield),
      }));
      this.decomposition(ref, parts);
      for (const c of node.decomposition) this.component(c);
    }
    this.measurements(parentRef, node, path);
  }
}

const childRef = (n: Bc3Node) => ({
  ref: sanitizeCode(n.code) + (n.kind === "chapter" ? "#" : ""),
  yield: toQuantity(n.quantity),
});

/**
 * What the budget adds up to, as a reader computes it: each item's quantity x price to cents, chapters
 * the sum of what they hold. Iterative: trees may be deep.
 */
function treeTotal(children: Bc3Node[]): Dec {
  let total = new Dec(0);
  const stack = [...children];
  while (stack.length > 0) {
    const n = stack.pop() as Bc3Node;
    if (n.kind === "item") total = total.plus(new Dec(n.quantity).times(n.unitPrice).toDecimalPlaces(2));
    else stack.push(...n.children);
  }
  return total;
}

/**
 * ~K with the budget's percentages (CI\GG\BI\BAJA\IVA) and the decimals its figures are written with,
 * both in the 2002 field (DN\DD\DS\DR\DI\DP\DC\DM) and the 2007+ one (DRC\DC\DRO\DFS\DRS\DFO\DUO\DI\DES\DN\DD\DS).
 */
function coefficientsRecord(k: Bc3Coefficients | undefined): string {
  const d = { quantity: 3, yield: 6, line: 4, price: 4, amount: 2, ...(k?.decimals ?? {}) };
  const pct = (v: string | null | undefined) => (v === null || v === undefined ? "" : normalizeDecimal(v));
  const legacy = ["", "2", d.quantity, d.yield, d.line, d.line, d.price, d.amount, "EUR"];
  const percents = [k?.indirectPct, k?.overheadsPct, k?.profitPct, k?.discountPct, k?.vatPct].map(pct);
  const levels = [
    "",
    d.amount,
    "",
    d.yield,
    d.yield,
    "",
    d.price,
    d.line,
    d.price,
    "",
    "2",
    d.quantity,
    "EUR",
  ];
  return `~K|${legacy.join("\\")}\\|${percents.join("\\")}|${levels.join("\\")}\\||`;
}

/**
 * Writes a FIEBDC-3/2016 file (CRLF line endings) in the given charset, ANSI (windows-1252) by default.
 *
 * - ~K carries the budget's CI, GG, BI, BAJA and IVA and the decimals (defaults: what Cuadra stores).
 * - The root is written from root.code/root.summary (budget.code/name when those are empty) with a price
 *   equal to what its items add up to (each quantity x price to cents).
 * - Each child is listed in its parent's ~D with factor 1 and yield = quantity (or the component yield).
 *   Measurements go to one ~M per placement, whose total is the node's quantity (the stated one, kept
 *   by the parser even when the lines add up to something else).
 * - Items are written at their direct cost: the decomposition's sum, else unitPrice without the CI.
 * - A code placed several times is one concept: one ~C/~D/~T (the first occurrence's), one ~M per place.
 * - Chapters write their children, items their decomposition; the other list is ignored. Fully blank
 *   measurement lines are dropped. Characters the charset cannot represent become "?" (iconv-lite).
 * - Amounts must be decimal strings: decimal.js throws on anything else.
 */
export function writeBc3(budget: Bc3Budget, opts: { charset?: Bc3Charset } = {}): Buffer {
  const charset = opts.charset ?? "ANSI";
  const w = new Bc3Writer(budget.coefficients);
  w.lines.push(`~V|CUADRA|FIEBDC-3/2016|Cuadra|\\|${charset}||`, coefficientsRecord(budget.coefficients));
  const rootRef = `${sanitizeCode(budget.root.code || budget.code)}##`;
  const children = budget.root.children;
  w.concept(rootRef, "", budget.root.summary || budget.name, toMoney(treeTotal(children)), "0");
  w.decomposition(rootRef, children.map(childRef));
  for (const [i, child] of children.entries()) w.node(rootRef, child, [i + 1]);
  return encodeBc3(`${w.lines.join("\r\n")}\r\n`, charset);
}
