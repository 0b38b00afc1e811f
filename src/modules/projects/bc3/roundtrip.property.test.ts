import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Dec, sum, toQuantity, toUnitPrice } from "../../../platform/money.js";
import { decompositionCosts } from "../items/arithmetic.js";
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

/**
 * Property: writing a random budget and parsing it back gives the same budget, texts sanitized: the
 * same concepts (a code placed several times keeps one price and decomposition), placements,
 * stated quantities, measurement lines, percentage components and ~K CI.
 */

const roundTrip = (budget: Bc3Budget, charset: Bc3Charset) => {
  const result = parseBc3(writeBc3(budget, { charset }));
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  const { code, name, root, coefficients } = result.budget;
  return { code, name, charset: result.budget.charset, root, indirectPct: coefficients?.indirectPct };
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

type Shape =
  | { kind: "chapter"; children: Shape[] }
  | { kind: "item"; measured: boolean; stated: boolean; shared: boolean; parts: number[] };
const itemShape: fc.Arbitrary<Shape> = fc.record({
  kind: fc.constant("item" as const),
  measured: fc.boolean(),
  // The quantity the file states, even where its measurement lines add up to something else.
  stated: fc.boolean(),
  // Placed again: the same concept (code, texts, price, decomposition) as an earlier item.
  shared: fc.boolean(),
  parts: fc.array(fc.nat(5), { maxLength: 4 }),
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
      // ~K CI: with one, prices are declared to 2 decimals (what programs that apply CI write).
      indirect: fc.constantFrom("0", "10", "13"),
      codes: fc.uniqueArray(CODE, { minLength: 120, maxLength: 120 }),
      tree: fc.array(shape(3), { minLength: 1, maxLength: 2 }), // at most 2 x 40 nodes + root + pool <= 120 codes
      texts: fc.array(text(charset), { minLength: 120, maxLength: 120 }),
      longTexts: fc.array(text(charset, true), { minLength: 120, maxLength: 120 }),
      quantities: fc.array(quantity, { minLength: 120, maxLength: 120 }),
      prices: fc.array(price, { minLength: 120, maxLength: 120 }),
      // Small yields: item prices come from their decomposition, and the root total must fit 14 digits.
      yields: fc.array(scaled(6, 0, 10), { minLength: 120, maxLength: 120 }),
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
    .map(({ indirect, codes, tree, texts, longTexts, quantities, prices, yields, lines }) => {
      let next = 5; // codes[0] is the root, codes[1..4] the component pool
      const priceDecimals = indirect === "0" ? 4 : 2;
      const pool: Bc3Decomposition[] = [1, 2, 3, 4].map((i) => ({
        type: TYPES[i % 4],
        code: codes[i],
        unit: texts[i],
        summary: texts[i + 4],
        yield: "1",
        price: prices[i],
      }));
      // Percentage components: "%" alone (every line before it) and a mask (lines whose code starts so).
      pool.push(
        {
          type: "other",
          code: "%MA",
          unit: "%",
          summary: "Medios auxiliares",
          yield: "0.03",
          price: "3.0000",
        },
        {
          type: "other",
          code: `${codes[1].slice(0, 1)}%`,
          unit: "%",
          summary: "Porcentaje con máscara",
          yield: "0.015",
          price: "1.5000",
        },
      );
      const placedItems: Bc3Node[] = [];
      const unitPriceOf = (decomposition: Bc3Decomposition[], i: number) => {
        const direct =
          decomposition.length > 0
            ? sum(decompositionCosts(decomposition, 4))
            : new Dec(prices[i]).toDecimalPlaces(priceDecimals);
        // Items without a decomposition are written at price / (1 + CI): the reader adds it back.
        return toUnitPrice(
          decomposition.length > 0
            ? direct.times(new Dec(100).plus(indirect)).div(100).toDecimalPlaces(priceDecimals)
            : direct,
        );
      };
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
        const previous = placedItems[i % Math.max(1, placedItems.length)];
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
        const statedWins = measurements.length === 0 || (s.stated && !new Dec(quantities[i]).isZero());
        const placement = {
          quantity: statedWins ? quantities[i] : toQuantity(total),
          measurements,
          children: [],
        };
        if (s.shared && previous) return { ...previous, ...placement };
        const decomposition = s.parts.map((p, k) =>
          p < 4 ? { ...pool[p], yield: yields[(i + k) % 120] } : { ...pool[p] },
        );
        const node: Bc3Node = {
          ...base,
          kind: "item",
          ...placement,
          unitPrice: unitPriceOf(decomposition, i),
          decomposition,
        };
        placedItems.push(node);
        return node;
      };
      const children = tree.map(build);
      const input: Bc3Budget = {
        code: codes[0],
        name: texts[0],
        charset,
        coefficients: {
          indirectPct: indirect,
          overheadsPct: "13",
          profitPct: "6",
          discountPct: null,
          vatPct: "21",
          decimals: { quantity: 3, yield: 6, line: 4, price: priceDecimals, amount: 2 },
        },
        root: { code: codes[0], summary: texts[0], children },
      };
      return input;
    });

/** What the writer promises: texts sanitized (separators replaced, trimmed), everything else unchanged. */
const sanitized = (b: Bc3Budget) => {
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
  return {
    code: b.code,
    name: summary,
    charset: b.charset,
    root: { ...b.root, summary, children: b.root.children.map(clean) },
    indirectPct: b.coefficients?.indirectPct,
  };
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
