import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Dec, toQuantity, toUnitPrice } from "../../../platform/money.js";
import { normalizeDecimal } from "./numbers.js";
import { parseBc3 } from "./parse.js";
import type {
  Bc3Budget,
  Bc3Charset,
  Bc3Decomposition,
  Bc3Measurement,
  Bc3Node,
  DecompositionType,
} from "./types.js";
import { sanitizeText, writeBc3 } from "./write.js";

/** Property: writing a random budget and parsing it back gives the same budget, texts sanitized. */

const roundTrip = (budget: Bc3Budget, charset: Bc3Charset) => {
  const result = parseBc3(writeBc3(budget, { charset }));
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.budget;
};

const CODE = fc.stringMatching(/^[A-Z0-9]{1,8}$/);
const text = (charset: Bc3Charset, multiline = false) => {
  const chars = `abcxyzABCXYZ019 .,;:()/-ñÑáéíóúÁÉüÜçÇºª¿¡|\\~${multiline ? "\n" : ""}${charset === "ANSI" ? "€" : ""}`;
  return fc.array(fc.constantFrom(...chars), { maxLength: 24 }).map((a) => a.join(""));
};
const scaled = (maxScale: number, min = -1e7, max = 1e7) =>
  fc
    .tuple(fc.integer({ min, max }), fc.integer({ min: 0, max: maxScale }))
    .map(([n, s]) => normalizeDecimal(new Dec(n).div(new Dec(10).pow(s))));
const quantity = fc.integer({ min: -1e7, max: 1e8 }).map((n) => toQuantity(new Dec(n).div(1000)));
const price = fc.integer({ min: 0, max: 1e9 }).map((n) => toUnitPrice(new Dec(n).div(10000)));
// Measurement values stay small enough that 4 lines of 4 factors, times the largest price, fit an
// item's NUMERIC(18,2) amount (the parser refuses larger ones).
const measure = scaled(3, -300, 300);
const optionalValue = fc.option(measure, { nil: null });

type Shape = { kind: "chapter"; children: Shape[] } | { kind: "item"; measured: boolean; parts: number[] };
const itemShape: fc.Arbitrary<Shape> = fc.record({
  kind: fc.constant("item" as const),
  measured: fc.boolean(),
  parts: fc.array(fc.nat(4), { maxLength: 3 }),
});
const shape = (depth: number): fc.Arbitrary<Shape> =>
  depth === 0
    ? itemShape
    : fc.oneof(
        { arbitrary: itemShape, weight: 1 },
        {
          arbitrary: fc.record({
            kind: fc.constant("chapter" as const),
            children: fc.array(shape(depth - 1), { maxLength: 3 }),
          }),
          weight: 2,
        },
      );

const TYPES: DecompositionType[] = ["labour", "machinery", "material", "other"];

/** Random budget (codes unique, components shared through a pool) and what parsing must give back. */
const randomBudget = (charset: Bc3Charset) =>
  fc
    .record({
      codes: fc.uniqueArray(CODE, { minLength: 120, maxLength: 120 }),
      tree: fc.array(shape(3), { minLength: 1, maxLength: 2 }), // at most 2 x 40 nodes + root + pool <= 120 codes
      texts: fc.array(text(charset), { minLength: 120, maxLength: 120 }),
      longTexts: fc.array(text(charset, true), { minLength: 120, maxLength: 120 }),
      quantities: fc.array(quantity, { minLength: 120, maxLength: 120 }),
      prices: fc.array(price, { minLength: 120, maxLength: 120 }),
      yields: fc.array(scaled(6, 0), { minLength: 120, maxLength: 120 }),
      lines: fc.array(
        fc.record({
          label: text(charset),
          units: measure,
          length: optionalValue,
          width: optionalValue,
          height: optionalValue,
        }),
        { maxLength: 4 },
      ),
    })
    .map(({ codes, tree, texts, longTexts, quantities, prices, yields, lines }) => {
      let next = 5; // codes[0] is the root, codes[1..4] the component pool
      const pool: Bc3Decomposition[] = [1, 2, 3, 4].map((i) => ({
        type: TYPES[i % 4],
        code: codes[i],
        unit: texts[i],
        summary: texts[i + 4],
        yield: "1",
        price: prices[i],
      }));
      const build = (s: Shape): Bc3Node => {
        const i = next++;
        const base = {
          code: codes[i],
          unit: texts[i],
          summary: texts[(i + 7) % 120],
          longText: longTexts[i],
        };
        if (s.kind === "chapter") {
          const children = s.children.map(build);
          return {
            ...base,
            kind: "chapter",
            quantity: quantities[i],
            unitPrice: prices[i],
            measurements: [],
            decomposition: [],
            children,
          };
        }
        const measurements: Bc3Measurement[] = s.measured ? lines.map((l) => ({ ...l })) : [];
        const total = measurements.reduce(
          (acc, m) =>
            acc.plus(
              [m.units, m.length, m.width, m.height].reduce(
                (p, v) => (v === null ? p : p.times(v)),
                new Dec(1),
              ),
            ),
          new Dec(0),
        );
        return {
          ...base,
          kind: "item",
          quantity: measurements.length > 0 ? toQuantity(total) : quantities[i],
          unitPrice: prices[i],
          measurements,
          decomposition: s.parts.map((p, k) => ({ ...pool[p % 4], yield: yields[(i + k) % 120] })),
          children: [],
        };
      };
      const children = tree.map(build);
      const input: Bc3Budget = {
        code: codes[0],
        name: texts[0],
        charset,
        root: { code: codes[0], summary: texts[0], children },
      };
      return input;
    });

/** What the writer promises: texts sanitized (separators replaced, trimmed), everything else unchanged. */
const sanitized = (b: Bc3Budget): Bc3Budget => {
  const clean = (n: Bc3Node): Bc3Node => ({
    ...n,
    unit: sanitizeText(n.unit),
    summary: sanitizeText(n.summary),
    longText: sanitizeText(n.longText, true),
    measurements: n.measurements.map((m) => ({ ...m, label: sanitizeText(m.label) })),
    decomposition: n.decomposition.map((d) => ({
      ...d,
      unit: sanitizeText(d.unit),
      summary: sanitizeText(d.summary),
    })),
    children: n.children.map(clean),
  });
  const summary = sanitizeText(b.root.summary);
  return { ...b, name: summary, root: { ...b.root, summary, children: b.root.children.map(clean) } };
};

describe("writeBc3 / parseBc3 round trip on random trees", () => {
  it.each(["ANSI", "850"] as const)("parse(write(budget)) equals the sanitized budget (%s)", (charset) => {
    fc.assert(
      fc.property(randomBudget(charset), (b) => {
        expect(roundTrip(b, charset)).toEqual(sanitized(b));
      }),
      { numRuns: 150 },
    );
  });
});
