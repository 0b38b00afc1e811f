import { describe, expect, it } from "vitest";
import { AppError } from "../../platform/http/errors.js";
import { computeTotals, type DocumentTotals, type TotalsInput, type TotalsLine } from "./totals.js";

const line = (
  quantity: string,
  unitPrice: string,
  vatRate: string,
  extra: Partial<TotalsLine> = {},
): TotalsLine => ({
  quantity,
  unitPrice,
  taxCode: `IVA${vatRate}`,
  vatRate,
  reRate: "0",
  irpfRate: "0",
  ...extra,
});

const headline = (t: DocumentTotals) => ({
  grossNet: t.grossNet,
  net: t.net,
  vat: t.vat,
  re: t.re,
  irpf: t.irpf,
  supplied: t.supplied,
  total: t.total,
  importeTotal: t.importeTotal,
});

// FacturaScripts Test/Core/Lib/CalculatorTest.php (documents.md "Totals").
describe("computeTotals: FacturaScripts' calculator vectors", () => {
  it("lines: 1 x 100 @ 21 % and 2 x 10 @ 4 %", () => {
    const t = computeTotals({ applyRe: false, lines: [line("1", "100", "21"), line("2", "10", "4")] });
    expect(headline(t)).toEqual({
      grossNet: "120.00",
      net: "120.00",
      vat: "21.80",
      re: "0.00",
      irpf: "0.00",
      supplied: "0.00",
      total: "141.80",
      importeTotal: "141.80",
    });
    expect(t.taxGroups).toEqual([
      { taxCode: "IVA21", vatRate: "21.00", reRate: "0.00", base: "100.00", vat: "21.00", re: "0.00" },
      { taxCode: "IVA4", vatRate: "4.00", reRate: "0.00", base: "20.00", vat: "0.80", re: "0.00" },
    ]);
    expect(t.irpfGroups).toEqual([]);
    expect(t.lineNets).toEqual(["100.000000", "20.000000"]);
  });

  it("discounts: document 5 % and 3 %, a line with 10 % and 5 %", () => {
    const t = computeTotals({
      applyRe: false,
      discount1: "5",
      discount2: "3",
      lines: [line("1", "100", "21"), line("2", "10", "4", { discount1: "10", discount2: "5" })],
    });
    expect(t.net).toBe("107.91");
    expect(t.grossNet).toBe("117.10");
    expect(t.vat).toBe("19.98");
    expect(t.total).toBe("127.89");
    // 100 x 0.95 x 0.97 = 92.15; 17.10 x 0.9215 = 15.75765 -> 15.76
    expect(t.taxGroups.map((g) => [g.base, g.vat])).toEqual([
      ["92.15", "19.35"],
      ["15.76", "0.63"],
    ]);
    expect(t.lineNets).toEqual(["100.000000", "17.100000"]);
  });

  it("retention: IRPF 15 % on two lines, one line without", () => {
    const t = computeTotals({
      applyRe: false,
      lines: [
        line("1", "100", "21", { irpfRate: "15" }),
        line("2", "10", "4", { irpfRate: "15" }),
        line("5", "11", "21"),
      ],
    });
    expect(t.net).toBe("175.00");
    expect(t.vat).toBe("33.35");
    expect(t.irpf).toBe("18.00");
    expect(t.total).toBe("190.35");
    expect(t.importeTotal).toBe("208.35");
    expect(t.irpfGroups).toEqual([{ irpfRate: "15.00", base: "120.00", amount: "18.00" }]);
  });

  it("RE customer: 100 and 20 @ 21 with RE 5.2, 55 @ 21 without RE", () => {
    const t = computeTotals({
      applyRe: true,
      lines: [
        line("1", "100", "21", { reRate: "5.2" }),
        line("1", "20", "21", { reRate: "5.2" }),
        line("1", "55", "21", { reRate: "0" }),
      ],
    });
    expect(t.vat).toBe("36.75");
    expect(t.re).toBe("6.24");
    expect(t.total).toBe("217.99");
    expect(t.taxGroups).toEqual([
      { taxCode: "IVA21", vatRate: "21.00", reRate: "5.20", base: "120.00", vat: "25.20", re: "6.24" },
      { taxCode: "IVA21", vatRate: "21.00", reRate: "0.00", base: "55.00", vat: "11.55", re: "0.00" },
    ]);
  });

  it("RE supplier: 2 x 100 @ 21 RE 5.2 bought by a company under recargo de equivalencia", () => {
    const t = computeTotals({ applyRe: true, lines: [line("2", "100", "21", { reRate: "5.2" })] });
    expect(t.vat).toBe("42.00");
    expect(t.re).toBe("10.40");
    expect(t.total).toBe("252.40");
  });

  it("supplied: 3 x 50 @ 21 plus suplidos 20 and 30, untaxed and outside every group", () => {
    const t = computeTotals({
      applyRe: false,
      lines: [
        line("3", "50", "21"),
        line("1", "20", "21", { supplied: true }),
        line("1", "30", "0", { supplied: true, irpfRate: "15" }),
      ],
    });
    expect(t.net).toBe("150.00");
    expect(t.vat).toBe("31.50");
    expect(t.supplied).toBe("50.00");
    expect(t.irpf).toBe("0.00");
    expect(t.total).toBe("231.50");
    expect(t.importeTotal).toBe("181.50");
    expect(t.grossNet).toBe("150.00");
    expect(t.taxGroups).toHaveLength(1);
  });
});

describe("computeTotals: rules and edges", () => {
  it("applies the document discount to suplidos too, as FacturaScripts does", () => {
    const t = computeTotals({
      applyRe: false,
      discount1: "10",
      lines: [line("1", "200", "21"), line("1", "100.05", "0", { supplied: true })],
    });
    // 100.05 x 0.9 = 90.045 -> 90.05
    expect(t.supplied).toBe("90.05");
    expect(t.net).toBe("180.00");
    expect(t.total).toBe("307.85");
    expect(t.lineNets).toEqual(["200.000000", "100.050000"]);
  });

  it("an empty document is all zeros", () => {
    const t = computeTotals({ applyRe: true, lines: [] });
    expect(headline(t)).toEqual({
      grossNet: "0.00",
      net: "0.00",
      vat: "0.00",
      re: "0.00",
      irpf: "0.00",
      supplied: "0.00",
      total: "0.00",
      importeTotal: "0.00",
    });
    expect(t.taxGroups).toEqual([]);
    expect(t.irpfGroups).toEqual([]);
    expect(t.lineNets).toEqual([]);
  });

  it("a fully negated document (rectifying invoice) gives exactly the negated totals", () => {
    const lines: TotalsLine[] = [
      line("3", "10.125", "21", { reRate: "5.2", irpfRate: "15" }),
      line("1", "0.005", "10", { reRate: "1.4" }),
      line("7", "2.335", "4", { reRate: "0.5", discount1: "12.5" }),
      line("1", "20.005", "21", { supplied: true }),
    ];
    const input: TotalsInput = { applyRe: true, discount1: "2.5", lines };
    const original = computeTotals(input);
    const negated = computeTotals({
      ...input,
      lines: lines.map((l) => ({ ...l, quantity: `-${l.quantity}` })),
    });
    const neg = (s: string) => (s === "0.00" ? s : s.startsWith("-") ? s.slice(1) : `-${s}`);
    for (const key of Object.keys(headline(original)) as (keyof ReturnType<typeof headline>)[]) {
      expect(negated[key], key).toBe(neg(original[key]));
    }
    expect(negated.taxGroups).toEqual(
      original.taxGroups.map((g) => ({ ...g, base: neg(g.base), vat: neg(g.vat), re: neg(g.re) })),
    );
    expect(negated.irpfGroups).toEqual(
      original.irpfGroups.map((g) => ({ ...g, base: neg(g.base), amount: neg(g.amount) })),
    );
    // 3 x 10.125 x 0.975 = 29.615625 -> 29.62 and -29.62 (half away from zero on both sides)
    expect(original.taxGroups[0].base).toBe("29.62");
    expect(negated.taxGroups[0].base).toBe("-29.62");
  });

  it("rounds half away from zero for negative amounts", () => {
    // base 0.50 @ 21 % = 0.105 -> 0.11; -0.105 -> -0.11
    expect(computeTotals({ applyRe: false, lines: [line("1", "0.5", "21")] }).vat).toBe("0.11");
    expect(computeTotals({ applyRe: false, lines: [line("-1", "0.5", "21")] }).vat).toBe("-0.11");
  });

  it("0 % lines form their own group with zero VAT", () => {
    const t = computeTotals({
      applyRe: true,
      lines: [line("1", "100", "0", { taxCode: "EXENTO" }), line("1", "50", "21", { reRate: "5.2" })],
    });
    expect(t.taxGroups).toEqual([
      { taxCode: "IVA21", vatRate: "21.00", reRate: "5.20", base: "50.00", vat: "10.50", re: "2.60" },
      { taxCode: "EXENTO", vatRate: "0.00", reRate: "0.00", base: "100.00", vat: "0.00", re: "0.00" },
    ]);
    expect(t.total).toBe("163.10");
  });

  it("several IRPF rates give one rounded group each", () => {
    const t = computeTotals({
      applyRe: false,
      lines: [
        line("1", "333.33", "21", { irpfRate: "15" }),
        line("1", "333.33", "21", { irpfRate: "7" }),
        line("1", "100.005", "21", { irpfRate: "7" }),
        line("1", "50", "21", { irpfRate: "19" }),
      ],
    });
    expect(t.irpfGroups).toEqual([
      { irpfRate: "19.00", base: "50.00", amount: "9.50" },
      { irpfRate: "15.00", base: "333.33", amount: "50.00" },
      // 433.335 -> 433.34; x 7 % = 30.3338 -> 30.33
      { irpfRate: "7.00", base: "433.34", amount: "30.33" },
    ]);
    expect(t.irpf).toBe("89.83");
    // one VAT group of 816.665 -> 816.67, VAT 171.5007 -> 171.50
    expect(t.net).toBe("816.67");
    expect(t.vat).toBe("171.50");
    expect(t.total).toBe("898.34");
  });

  it("ignores the lines' RE rate when RE does not apply", () => {
    const t = computeTotals({ applyRe: false, lines: [line("2", "100", "21", { reRate: "5.2" })] });
    expect(t.re).toBe("0.00");
    expect(t.taxGroups[0].reRate).toBe("0.00");
    expect(t.total).toBe("242.00");
  });

  it("groups by tax code too, and treats 21 and 21.00 as the same rate", () => {
    const t = computeTotals({
      applyRe: false,
      lines: [
        line("1", "10", "21", { taxCode: "IVA21" }),
        line("1", "10", "21.00", { taxCode: "IVA21" }),
        line("1", "10", "21", { taxCode: "IVA21-ISP" }),
      ],
    });
    expect(t.taxGroups.map((g) => [g.taxCode, g.base])).toEqual([
      ["IVA21", "20.00"],
      ["IVA21-ISP", "10.00"],
    ]);
  });

  it("rounds each group once, not each line", () => {
    // three lines of 0.333 @ 21: per group 0.999 -> 1.00, VAT 0.21 (per line it would be 0.99 and 0.21)
    const t = computeTotals({
      applyRe: false,
      lines: [line("1", "0.333", "21"), line("1", "0.333", "21"), line("1", "0.333", "21")],
    });
    expect(t.net).toBe("1.00");
    expect(t.vat).toBe("0.21");
    expect(t.lineNets).toEqual(["0.333000", "0.333000", "0.333000"]);
  });

  it("refuses a malformed decimal with a 400 naming the line field", () => {
    let error: unknown;
    try {
      computeTotals({ applyRe: false, lines: [line("1", "10", "21"), line("1,5", "10", "21")] });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    expect((error as AppError).options.errors?.[0].path).toBe("lines.1.quantity");
  });
});
