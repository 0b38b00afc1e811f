import { Dec, toQuantity, toUnitPrice } from "../../../platform/money.js";
import { encodeBc3 } from "./charset.js";
import { normalizeDecimal } from "./numbers.js";
import type { Bc3Budget, Bc3Charset, Bc3Decomposition, Bc3Node, DecompositionType } from "./types.js";

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
    this.concept(ref, node.unit, node.summary, node.unitPrice, "0");
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
 * Writes a FIEBDC-3/2016 file (CRLF line endings) in the given charset, ANSI (windows-1252) by default.
 *
 * - The root is written from root.code/root.summary (budget.code/name when those are empty) with a price
 *   equal to the sum of its children's quantity x unit price.
 * - Each child is listed in its parent's ~D with factor 1 and yield = quantity (or the component yield).
 *   Measurements go to one ~M per placement; the parser then takes the quantity from their sum, so a node's
 *   quantity should equal the sum of its measurement lines.
 * - A code placed several times gets one ~C/~D/~T: the first occurrence wins.
 * - Chapters write their children, items their decomposition; the other list is ignored. Fully blank
 *   measurement lines are dropped. Characters the charset cannot represent become "?" (iconv-lite).
 * - Amounts must be decimal strings: decimal.js throws on anything else.
 */
export function writeBc3(budget: Bc3Budget, opts: { charset?: Bc3Charset } = {}): Buffer {
  const charset = opts.charset ?? "ANSI";
  const w = new Bc3Writer();
  w.lines.push(`~V|CUADRA|FIEBDC-3/2016|Cuadra|\\|${charset}||`, "~K|\\2\\2\\3\\2\\2\\2\\2\\EUR\\|0|");
  const rootRef = `${sanitizeCode(budget.root.code || budget.code)}##`;
  const children = budget.root.children;
  const total = children.reduce((acc, n) => acc.plus(new Dec(n.quantity).times(n.unitPrice)), new Dec(0));
  w.concept(rootRef, "", budget.root.summary || budget.name, total.toFixed(), "0");
  w.decomposition(rootRef, children.map(childRef));
  for (const [i, child] of children.entries()) w.node(rootRef, child, [i + 1]);
  return encodeBc3(`${w.lines.join("\r\n")}\r\n`, charset);
}
