import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Dec, sum } from "../../platform/money.js";
import { computeTotals, type TotalsInput, type TotalsLine } from "./totals.js";

const decimal = (maxInt: number, decimals: number) =>
  fc
    .tuple(fc.integer({ min: 0, max: maxInt }), fc.integer({ min: 0, max: 10 ** decimals - 1 }))
    .map(([int, frac]) => `${int}.${String(frac).padStart(decimals, "0")}`);
const signed = (maxInt: number, decimals: number) =>
  fc.tuple(decimal(maxInt, decimals), fc.boolean()).map(([v, negative]) => (negative ? `-${v}` : v));

const VAT: [string, string][] = [
  ["21", "5.2"],
  ["10", "1.4"],
  ["4", "0.5"],
  ["0", "0"],
];
const IRPF = ["0", "0", "1", "2", "7", "15", "19", "21"];

const lineArb: fc.Arbitrary<TotalsLine> = fc
  .record({
    quantity: signed(999, 3),
    unitPrice: decimal(9_999, 4),
    discount1: fc.oneof(fc.constant("0"), decimal(99, 2)),
    discount2: fc.oneof(fc.constant("0"), decimal(99, 2)),
    vat: fc.constantFrom(...VAT),
    reOff: fc.boolean(),
    irpfRate: fc.constantFrom(...IRPF),
    supplied: fc.integer({ min: 0, max: 9 }).map((n) => n < 2),
  })
  .map((l) => ({
    quantity: l.quantity,
    unitPrice: l.unitPrice,
    discount1: l.discount1,
    discount2: l.discount2,
    taxCode: `IVA${l.vat[0]}`,
    vatRate: l.vat[0],
    reRate: l.reOff ? "0" : l.vat[1],
    irpfRate: l.irpfRate,
    supplied: l.supplied,
  }));

const documentArb: fc.Arbitrary<TotalsInput> = fc.record({
  lines: fc.array(lineArb, { maxLength: 12 }),
  discount1: fc.oneof(fc.constant("0"), decimal(50, 2)),
  discount2: fc.oneof(fc.constant("0"), decimal(50, 2)),
  applyRe: fc.boolean(),
});

const negate = (s: string) => (s === "0.00" ? s : s.startsWith("-") ? s.slice(1) : `-${s}`);

describe("computeTotals properties", () => {
  it("total = bases + VAT + RE - IRPF + supplied, and each group's figures are its own rounding", () => {
    fc.assert(
      fc.property(documentArb, (input) => {
        const t = computeTotals(input);
        const bases = sum(t.taxGroups.map((g) => g.base));
        expect(bases.toFixed(2)).toBe(new Dec(t.net).toFixed(2));
        expect(sum(t.taxGroups.map((g) => g.vat)).eq(t.vat)).toBe(true);
        expect(sum(t.taxGroups.map((g) => g.re)).eq(t.re)).toBe(true);
        expect(sum(t.irpfGroups.map((g) => g.amount)).eq(t.irpf)).toBe(true);
        expect(bases.plus(t.vat).plus(t.re).minus(t.irpf).plus(t.supplied).eq(t.total)).toBe(true);
        expect(bases.plus(t.vat).plus(t.re).eq(t.importeTotal)).toBe(true);
        for (const g of t.taxGroups) {
          expect(new Dec(g.base).times(g.vatRate).div(100).toDecimalPlaces(2).eq(g.vat)).toBe(true);
          expect(new Dec(g.base).times(g.reRate).div(100).toDecimalPlaces(2).eq(g.re)).toBe(true);
          if (!input.applyRe) expect(g.reRate).toBe("0.00");
        }
        for (const g of t.irpfGroups) {
          expect(new Dec(g.base).times(g.irpfRate).div(100).toDecimalPlaces(2).eq(g.amount)).toBe(true);
        }
        expect(t.lineNets).toHaveLength(input.lines.length);
      }),
      { numRuns: 300 },
    );
  });

  it("negating every quantity negates every figure", () => {
    fc.assert(
      fc.property(documentArb, (input) => {
        const t = computeTotals(input);
        const n = computeTotals({
          ...input,
          lines: input.lines.map((l) => ({
            ...l,
            quantity: l.quantity.startsWith("-") ? l.quantity.slice(1) : `-${l.quantity}`,
          })),
        });
        for (const key of [
          "grossNet",
          "net",
          "vat",
          "re",
          "irpf",
          "supplied",
          "total",
          "importeTotal",
        ] as const) {
          expect(n[key], key).toBe(negate(t[key]));
        }
        expect(n.taxGroups).toEqual(
          t.taxGroups.map((g) => ({ ...g, base: negate(g.base), vat: negate(g.vat), re: negate(g.re) })),
        );
        expect(n.irpfGroups).toEqual(
          t.irpfGroups.map((g) => ({ ...g, base: negate(g.base), amount: negate(g.amount) })),
        );
      }),
      { numRuns: 300 },
    );
  });
});
