import { toQuantity, toUnitPrice } from "../../../platform/money.js";
import { decodeBc3, detectCharset } from "./charset.js";
import { type ChildRef, type Collected, type Concept, collect, type MeasureEntry } from "./collect.js";
import { measurementsTotal, normalizeDecimal, product } from "./numbers.js";
import { splitRecords } from "./records.js";
import type { Bc3Budget, Bc3Charset, Bc3Decomposition, Bc3LineError, Bc3Node, ParseResult } from "./types.js";

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

class TreeBuilder {
  constructor(
    private readonly ctx: Collected,
    private readonly measures: Map<string, MeasureEntry[]>,
  ) {}

  children(parent: string): Bc3Node[] {
    const refs = this.ctx.decomps.get(parent)?.children ?? [];
    return refs.map((ref, i) => this.node(parent, ref, i));
  }

  private node(parent: string, ref: ChildRef, index: number): Bc3Node {
    const concept = this.ctx.concepts.get(ref.code) as Concept;
    const entries = this.measures.get(pairKey(parent, ref.code)) ?? [];
    // The position path disambiguates a child listed twice in the same ~D; otherwise the first ~M wins.
    const measure = entries.find((e) => e.index === index + 1) ?? entries[0];
    const measured = measure ? (measurementsTotal(measure.lines) ?? measure.total) : null;
    const kind = concept.hashes > 0 ? "chapter" : "item";
    return {
      code: concept.code,
      kind,
      unit: concept.unit,
      summary: concept.summary,
      longText: this.ctx.texts.get(concept.code) ?? "",
      quantity: toQuantity(measured ?? product(ref.factor, ref.yield)),
      unitPrice: toUnitPrice(concept.price),
      measurements: (measure?.lines ?? []).map((m) => ({ ...m })),
      decomposition: kind === "item" ? this.decomposition(concept.code) : [],
      children: kind === "chapter" ? this.children(concept.code) : [],
    };
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
        price: toUnitPrice(c.price),
      };
    });
  }
}

function parseUnsafe(buf: Buffer): ParseResult {
  if (buf.toString("latin1").trim() === "")
    return { ok: false, errors: [{ line: 1, message: "empty file" }] };
  const early: Bc3LineError[] = [];
  const detected = detectCharset(buf);
  let charset: Bc3Charset = "850";
  if (!detected) early.push({ line: 1, message: "no ~V record" });
  else if (!detected.charset)
    early.push({ line: detected.line, message: `unknown charset "${detected.label}"` });
  else charset = detected.charset;

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

  const budget: Bc3Budget = {
    code: root.code,
    name: root.summary,
    charset,
    root: {
      code: root.code,
      summary: root.summary,
      children: new TreeBuilder(ctx, measures).children(root.code),
    },
  };
  return { ok: true, budget };
}

/**
 * Parses a FIEBDC-3 (BC3) file. Pure; never throws: every problem found is returned with its 1-based line.
 * Unknown record types are ignored. Numbers go through decimal.js.
 */
export function parseBc3(buf: Buffer): ParseResult {
  try {
    return parseUnsafe(buf);
  } catch (err) {
    // Last resort for pathological input (e.g. a tree deep enough to exhaust the stack).
    return { ok: false, errors: [{ line: 1, message: `unreadable BC3 file: ${(err as Error).message}` }] };
  }
}
