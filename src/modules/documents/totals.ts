import { Dec } from "../../platform/money.js";
import { money, parseDecimal, percent, round2 } from "./decimal.js";

export interface TotalsLine {
  quantity: string;
  unitPrice: string;
  discount1?: string;
  discount2?: string;
  taxCode: string;
  vatRate: string;
  reRate: string;
  irpfRate: string;
  /** Suplido: an expense paid in the customer's name, passed on untaxed. */
  supplied?: boolean;
}

export interface TotalsInput {
  lines: TotalsLine[];
  /** Document (global) discounts, %. */
  discount1?: string;
  discount2?: string;
  /** Recargo de equivalencia applies (customer's regime on sales, the company's on purchases). */
  applyRe: boolean;
}

/** Rates are written with 2 decimals ("21.00"); amounts with 2 decimals. */
export interface TaxGroup {
  taxCode: string;
  vatRate: string;
  reRate: string;
  base: string;
  vat: string;
  re: string;
}

export interface IrpfGroup {
  irpfRate: string;
  base: string;
  amount: string;
}

export interface DocumentTotals {
  /** Non-supplied line nets before the document discount. */
  grossNet: string;
  /** Sum of the tax groups' bases. */
  net: string;
  vat: string;
  re: string;
  irpf: string;
  supplied: string;
  /** net + vat + re - irpf + supplied. */
  total: string;
  /** VeriFactu's ImporteTotal: net + vat + re (no IRPF, no suplidos). */
  importeTotal: string;
  taxGroups: TaxGroup[];
  irpfGroups: IrpfGroup[];
  /** Each line's net after its own discounts, before the document discount, 6 decimals. */
  lineNets: string[];
}

const HUNDRED = new Dec(100);
const discountFactor = (d1: Dec, d2: Dec) =>
  HUNDRED.minus(d1).div(HUNDRED).times(HUNDRED.minus(d2).div(HUNDRED));

interface GroupAccumulator {
  taxCode: string;
  vatRate: Dec;
  reRate: Dec;
  net: Dec;
}

/**
 * Document totals as FacturaScripts' Calculator computes them, rounding once per tax group
 * (the VeriFactu breakdown): line nets unrounded, times the document discount factor, summed per
 * (tax code, VAT rate, effective RE rate), then base, VAT and RE rounded per group.
 */
export function computeTotals(input: TotalsInput): DocumentTotals {
  const docFactor = discountFactor(
    parseDecimal(input.discount1, "discount1"),
    parseDecimal(input.discount2, "discount2"),
  );
  const groups = new Map<string, GroupAccumulator>();
  const irpfNets = new Map<string, { rate: Dec; net: Dec }>();
  const lineNets: string[] = [];
  let grossNet = new Dec(0);
  let supplied = new Dec(0);

  input.lines.forEach((line, i) => {
    const at = (field: string) => `lines.${i}.${field}`;
    const quantity = parseDecimal(line.quantity, at("quantity"));
    const unitPrice = parseDecimal(line.unitPrice, at("unitPrice"));
    const lineFactor = discountFactor(
      parseDecimal(line.discount1, at("discount1")),
      parseDecimal(line.discount2, at("discount2")),
    );
    const lineNet = quantity.times(unitPrice).times(lineFactor);
    lineNets.push(lineNet.isZero() ? "0.000000" : lineNet.toFixed(6));
    const net = lineNet.times(docFactor);
    if (line.supplied) {
      supplied = supplied.plus(net);
      return;
    }
    grossNet = grossNet.plus(lineNet);

    const vatRate = parseDecimal(line.vatRate, at("vatRate"));
    const reRate = input.applyRe ? parseDecimal(line.reRate, at("reRate")) : new Dec(0);
    const key = `${line.taxCode}\u0000${percent(vatRate)}\u0000${percent(reRate)}`;
    const group = groups.get(key) ?? { taxCode: line.taxCode, vatRate, reRate, net: new Dec(0) };
    group.net = group.net.plus(net);
    groups.set(key, group);

    const irpfRate = parseDecimal(line.irpfRate, at("irpfRate"));
    if (irpfRate.greaterThan(0)) {
      const irpfKey = percent(irpfRate);
      const acc = irpfNets.get(irpfKey) ?? { rate: irpfRate, net: new Dec(0) };
      acc.net = acc.net.plus(net);
      irpfNets.set(irpfKey, acc);
    }
  });

  const ordered = [...groups.values()].sort(
    (a, b) =>
      b.vatRate.comparedTo(a.vatRate) ||
      (a.taxCode < b.taxCode ? -1 : a.taxCode > b.taxCode ? 1 : 0) ||
      b.reRate.comparedTo(a.reRate),
  );
  let net = new Dec(0);
  let vat = new Dec(0);
  let re = new Dec(0);
  const taxGroups = ordered.map((g): TaxGroup => {
    const base = round2(g.net);
    const groupVat = round2(base.times(g.vatRate).div(HUNDRED));
    const groupRe = round2(base.times(g.reRate).div(HUNDRED));
    net = net.plus(base);
    vat = vat.plus(groupVat);
    re = re.plus(groupRe);
    return {
      taxCode: g.taxCode,
      vatRate: percent(g.vatRate),
      reRate: percent(g.reRate),
      base: money(base),
      vat: money(groupVat),
      re: money(groupRe),
    };
  });

  let irpf = new Dec(0);
  const irpfGroups = [...irpfNets.values()]
    .sort((a, b) => b.rate.comparedTo(a.rate))
    .map((g): IrpfGroup => {
      const base = round2(g.net);
      const amount = round2(base.times(g.rate).div(HUNDRED));
      irpf = irpf.plus(amount);
      return { irpfRate: percent(g.rate), base: money(base), amount: money(amount) };
    });

  const suppliedRounded = round2(supplied);
  const importeTotal = net.plus(vat).plus(re);
  return {
    grossNet: money(grossNet),
    net: money(net),
    vat: money(vat),
    re: money(re),
    irpf: money(irpf),
    supplied: money(suppliedRounded),
    total: money(importeTotal.minus(irpf).plus(suppliedRounded)),
    importeTotal: money(importeTotal),
    taxGroups,
    irpfGroups,
    lineNets,
  };
}
