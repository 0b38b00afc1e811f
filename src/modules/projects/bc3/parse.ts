import { Dec, sum, toQuantity, toUnitPrice } from "../../../platform/money.js";
import { decompositionCosts, isPercentCode } from "../items/arithmetic.js";
import { decodeBc3, detectCharset, looksLikeUtf8 } from "./charset.js";
import { readCoefficients } from "./coefficients.js";
import { type ChildRef, type Collected, type Concept, collect, type MeasureEntry } from "./collect.js";
import { measurementsTotal, normalizeDecimal, product } from "./numbers.js";
import { splitRecords } from "./records.js";
import type {
  Bc3Budget,
  Bc3Charset,
  Bc3Coefficients,
  Bc3Decomposition,
  Bc3LineError,
  Bc3Node,
  ParseResult,
} from "./types.js";

const pairKey = (parent: string, child: string) => `${parent}\\${child}`;

/** Resolves every ~M to a parent\child pair present in some ~D; reports the ones that match none. */
function indexMeasures(ctx: Collected): Map<string, MeasureEntry[]> {
  const pairs = new Set<string>();
  const firstParent = new Map<string, string>();
  for (const [parent, d] of ctx.decomps) {
    for (const child of d.children) {
      pairs.add(pairKey(parent, child.code));
      if (!firstParent.has(child.code)) firstParent.set(child.code, parent);
    }
  }
  const byPair = new Map<string, MeasureEntry[]>();
  for (const entry of ctx.measures) {
    // ~M|CHILD| without a parent: take the first parent whose ~D lists the child.
    const parent = entry.parent ?? firstParent.get(entry.child) ?? "";
    const key = pairKey(parent, entry.child);
    if (!pairs.has(key)) {
      ctx.errors.push({ line: entry.line, message: `~M refers to unknown pair ${key}` });
      continue;
    }
    const list = byPair.get(key);
    if (list) list.push(entry);
    else byPair.set(key, [entry]);
  }
  return byPair;
}

/** Iterative DFS over the ~D graph; every back edge is reported at the line of the ~D child that closes it. */
function findCycles(ctx: Collected): void {
  const state = new Map<string, "open" | "done">();
  for (const start of ctx.decomps.keys()) {
    if (state.has(start)) continue;
    const stack: { code: string; next: number }[] = [{ code: start, next: 0 }];
    state.set(start, "open");
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const children = ctx.decomps.get(top.code)?.children ?? [];
      if (top.next >= children.length) {
        state.set(top.code, "done");
        stack.pop();
        continue;
      }
      const child = children[top.next++];
      const seen = state.get(child.code);
      if (seen === "open") {
        const path = [
          ...stack.slice(stack.findIndex((s) => s.code === child.code)).map((s) => s.code),
          child.code,
        ];
        ctx.errors.push({ line: child.line, message: `cycle in ~D: ${path.join(" -> ")}` });
      } else if (seen === undefined) {
        state.set(child.code, "open");
        stack.push({ code: child.code, next: 0 });
      }
    }
  }
}

function checkReferences(ctx: Collected): void {
  for (const [parent, d] of ctx.decomps) {
    if (!ctx.concepts.has(parent))
      ctx.errors.push({ line: d.line, message: `~D parent ${parent} has no ~C` });
    for (const child of d.children) {
      if (!ctx.concepts.has(child.code)) {
        ctx.errors.push({
          line: child.line,
          message: `~D of ${parent} refers to ${child.code}, which has no ~C`,
        });
      }
    }
  }
}

/** NUMERIC(18,3) quantities and NUMERIC(18,2) amounts: what a budget item can hold. */
const MAX_QUANTITY = new Dec("1e15");
const MAX_AMOUNT = new Dec("1e16");

class TreeBuilder {
  /** Direct cost of each decomposed concept, computed once (the same concept may be placed many times). */
  private readonly costs = new Map<string, Dec>();
  private readonly priceChecked = new Set<string>();

  constructor(
    private readonly ctx: Collected,
    private readonly measures: Map<string, MeasureEntry[]>,
    private readonly maxDepth: number,
    private readonly k: Bc3Coefficients,
    private readonly warnings: Bc3LineError[],
  ) {}

  /**
   * The tree under `root`, built without recursion (a chain of thousands of chapters must not
   * exhaust the stack): each chapter's children are made in one go, in order, then its chapters
   * are queued. A chapter deeper than maxDepth is reported at the line of the ~D that places it.
   */
  build(root: string): Bc3Node[] {
    const top: Bc3Node[] = [];
    const work: { parent: string; into: Bc3Node[]; depth: number }[] = [
      { parent: root, into: top, depth: 1 },
    ];
    while (work.length > 0) {
      const { parent, into, depth } = work.pop() as (typeof work)[number];
      const refs = this.ctx.decomps.get(parent)?.children ?? [];
      for (let i = 0; i < refs.length; i++) {
        if (depth > this.maxDepth) {
          this.ctx.errors.push({
            line: refs[i].line,
            message: `${refs[i].code} is nested deeper than ${this.maxDepth} levels`,
          });
          return top;
        }
        const node = this.node(parent, refs[i], i);
        into.push(node);
        if (node.kind === "chapter") work.push({ parent: node.code, into: node.children, depth: depth + 1 });
      }
    }
    return top;
  }

  private node(parent: string, ref: ChildRef, index: number): Bc3Node {
    const concept = this.ctx.concepts.get(ref.code) as Concept;
    const entries = this.measures.get(pairKey(parent, ref.code)) ?? [];
    // The position path tells apart a child listed twice in the same ~D; a ~M without one serves any.
    const measure = entries.find((e) => e.index === index + 1) ?? entries.find((e) => e.index === null);
    const kind = concept.hashes > 0 ? "chapter" : "item";
    const quantity = this.statedQuantity(ref, measure);
    if (kind === "item") this.checkSize(ref, measure, quantity, concept);
    return {
      code: concept.code,
      kind,
      unit: concept.unit,
      summary: concept.summary,
      longText: this.ctx.texts.get(concept.code) ?? "",
      quantity: toQuantity(quantity),
      unitPrice: kind === "item" ? this.itemPrice(concept) : toUnitPrice(concept.price),
      measurements: (measure?.lines ?? []).map((m) => ({ ...m })),
      decomposition: kind === "item" ? this.decomposition(concept.code) : [],
      children: [],
    };
  }

  /**
   * The quantity the file states: the ~M total when there is one, else factor x yield of the ~D line.
   * Lines that add up to something else (or a ~D that disagrees with its ~M) are warned about, not fixed.
   */
  private statedQuantity(ref: ChildRef, measure: MeasureEntry | undefined): Dec {
    const fromD = product(ref.factor, ref.yield);
    if (!measure) return fromD;
    const lines = measurementsTotal(measure.lines);
    // A blank or zero ~M total states nothing (files leave it 0 and let the lines speak).
    const total = measure.total !== null && !new Dec(measure.total).isZero() ? new Dec(measure.total) : null;
    const stated = total ?? lines ?? fromD;
    const places = this.k.decimals.quantity ?? 3;
    if (total && lines !== null && !lines.toDecimalPlaces(places).eq(total.toDecimalPlaces(places))) {
      this.warnings.push({
        line: measure.line,
        message: `the measurement lines of ${ref.code} add up to ${lines.toFixed()}, the file states ${total.toFixed()}: the stated quantity is kept`,
      });
    }
    if (ref.yield !== null && !fromD.eq(stated)) {
      this.warnings.push({
        line: ref.line,
        message: `~D gives ${ref.code} a quantity of ${fromD.toFixed()} but its ~M measures ${stated.toFixed()}: the ~M is kept`,
      });
    }
    return stated;
  }

  /**
   * A concept's direct cost: FIEBDC-3 gives the decomposition precedence over the ~C price (the price is
   * there "to allow checking it"), so a decomposed concept costs what its lines add up to, and a
   * ~C price that disagrees is a warning at the ~C line.
   */
  private directCost(code: string): Dec {
    const cached = this.costs.get(code);
    if (cached) return cached;
    const concept = this.ctx.concepts.get(code) as Concept;
    const refs = this.ctx.decomps.get(code)?.children ?? [];
    if (refs.length === 0 || concept.hashes > 0) return new Dec(concept.price);
    const lines = refs.map((r) => ({
      code: r.code,
      yield: product(r.factor, r.yield).toFixed(),
      price: isPercentCode(r.code) ? "0" : this.directCost(r.code).toFixed(),
    }));
    const cost = sum(decompositionCosts(lines, this.k.decimals.line));
    this.costs.set(code, cost);
    const places = this.k.decimals.line ?? 4;
    if (
      !this.priceChecked.has(code) &&
      !cost.toDecimalPlaces(places).eq(new Dec(concept.price).toDecimalPlaces(places))
    ) {
      this.priceChecked.add(code);
      this.warnings.push({
        line: concept.line,
        message: `${code} costs ${cost.toDecimalPlaces(places).toFixed()} by its decomposition, its ~C states ${concept.price}: the decomposition prevails`,
      });
    }
    return cost;
  }

  /** An item's unit price: direct cost plus the ~K CI, rounded to the ~K price decimals (4 when not declared). */
  private itemPrice(concept: Concept): string {
    const direct = this.directCost(concept.code);
    const withCi = direct.times(new Dec(100).plus(this.k.indirectPct ?? 0)).div(100);
    return toUnitPrice(withCi.toDecimalPlaces(this.k.decimals.price ?? 4));
  }

  /** A quantity or an amount the budget cannot store, reported where it comes from. */
  private checkSize(ref: ChildRef, measure: MeasureEntry | undefined, quantity: Dec, concept: Concept) {
    const line = measure?.line ?? ref.line;
    if (quantity.abs().gte(MAX_QUANTITY)) {
      this.ctx.errors.push({
        line,
        message: `quantity of ${ref.code} (${quantity.toFixed()}) is too large: at most 15 integer digits`,
      });
    } else if (quantity.times(concept.price).abs().gte(MAX_AMOUNT)) {
      this.ctx.errors.push({
        line,
        message: `amount of ${ref.code} (quantity x price) is too large: at most 16 integer digits`,
      });
    }
  }

  /** Every ~D child of an item is a component; auxiliary composites (items) become "other" at their price. */
  private decomposition(item: string): Bc3Decomposition[] {
    return (this.ctx.decomps.get(item)?.children ?? []).map((ref) => {
      const c = this.ctx.concepts.get(ref.code) as Concept;
      return {
        type: c.type,
        code: c.code,
        unit: c.unit,
        summary: c.summary,
        yield: normalizeDecimal(product(ref.factor, ref.yield)),
        // A percentage line keeps its ~C price for show (its cost is yield x the lines before it).
        price: toUnitPrice(isPercentCode(c.code) ? c.price : this.directCost(c.code).toDecimalPlaces(4)),
      };
    });
  }
}

/**
 * Each chapter's total (its items' quantity x price, to cents, summed) against the price its ~C
 * declares: where the file's own figures disagree, the warning names the chapter and its line.
 */
function checkChapterTotals(ctx: Collected, children: Bc3Node[], warnings: Bc3LineError[]): void {
  const checked = new Set<string>();
  const totalOf = (nodes: Bc3Node[]): Dec => {
    let total = new Dec(0);
    // Depth is bounded by maxDepth (the builder stops deeper chapters), so recursion is safe here.
    for (const n of nodes) {
      if (n.kind === "item") {
        total = total.plus(new Dec(n.quantity).times(n.unitPrice).toDecimalPlaces(2));
        continue;
      }
      const sub = totalOf(n.children);
      const c = ctx.concepts.get(n.code) as Concept;
      if (c.priceGiven && !checked.has(n.code) && !sub.eq(new Dec(c.price).toDecimalPlaces(2))) {
        checked.add(n.code);
        warnings.push({
          line: c.line,
          message: `chapter ${n.code} adds up to ${sub.toFixed(2)}, its ~C declares ${c.price}`,
        });
      }
      total = total.plus(sub);
    }
    return total;
  };
  totalOf(children);
}

function parseUnsafe(buf: Buffer, maxDepth: number): ParseResult {
  if (buf.toString("latin1").trim() === "")
    return { ok: false, errors: [{ line: 1, message: "empty file" }] };
  const early: Bc3LineError[] = [];
  const warnings: Bc3LineError[] = [];
  const detected = detectCharset(buf);
  let charset: Bc3Charset = "850";
  if (!detected) early.push({ line: 1, message: "no ~V record" });
  else if (!detected.charset)
    early.push({ line: detected.line, message: `unknown charset "${detected.label}"` });
  else charset = detected.charset;
  // Programs write UTF-8 whatever their ~V says: valid multi-byte sequences decide.
  if (charset !== "UTF-8" && looksLikeUtf8(buf)) {
    warnings.push({
      line: detected?.line ?? 1,
      message: `the file is labelled ${detected?.label || "850"} but holds UTF-8 text: read as UTF-8`,
    });
    charset = "UTF-8";
  } else if (detected?.charset) {
    warnings.push({ line: detected.line, message: `read as ${charset}, as its ~V says` });
  }

  const ctx = collect(splitRecords(decodeBc3(buf, charset)));
  ctx.errors.unshift(...early);
  checkReferences(ctx);
  const measures = indexMeasures(ctx);
  findCycles(ctx);
  const root = [...ctx.concepts.values()].find((c) => c.hashes >= 2);
  if (!root) ctx.errors.push({ line: 1, message: "no root concept (a ~C code ending with ##)" });
  if (ctx.errors.length > 0 || !root) {
    return { ok: false, errors: [...ctx.errors].sort((a, b) => a.line - b.line) };
  }

  const coefficients = readCoefficients(ctx.coefficients, warnings);
  const children = new TreeBuilder(ctx, measures, maxDepth, coefficients, warnings).build(root.code);
  if (ctx.errors.length > 0) return { ok: false, errors: [...ctx.errors].sort((a, b) => a.line - b.line) };
  if (Number.isFinite(maxDepth)) checkChapterTotals(ctx, children, warnings);
  const budget: Bc3Budget = {
    code: root.code,
    name: root.summary,
    charset,
    coefficients,
    declaredPrice: root.priceGiven ? root.price : null,
    warnings: warnings.sort((a, b) => a.line - b.line),
    texts: ctx.texts.size,
    root: { code: root.code, summary: root.summary, children },
  };
  return { ok: true, budget };
}

export interface ParseOptions {
  /** Chapters deeper than this are an error at the line of the ~D that places them (default: no limit). */
  maxDepth?: number;
}

/**
 * Parses a FIEBDC-3 (BC3) file. Pure; never throws: every problem found is returned with its 1-based line.
 * Unknown record types are ignored. Numbers go through decimal.js.
 */
export function parseBc3(buf: Buffer, options: ParseOptions = {}): ParseResult {
  try {
    return parseUnsafe(buf, options.maxDepth ?? Number.POSITIVE_INFINITY);
  } catch (err) {
    // Last resort for pathological input (e.g. a tree deep enough to exhaust the stack).
    return { ok: false, errors: [{ line: 1, message: `unreadable BC3 file: ${(err as Error).message}` }] };
  }
}
