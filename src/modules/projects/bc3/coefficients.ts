import type { CoefficientsRecord } from "./collect.js";
import { isDecimalText, normalizeDecimal } from "./numbers.js";
import type { Bc3Coefficients, Bc3Decimals, Bc3LineError } from "./types.js";

/**
 * Reads a ~K record (FIEBDC-3):
 *   ~K | DN\DD\DS\DR\DI\DP\DC\DM\DIVISA\ | CI\GG\BI\BAJA\IVA | DRC\DC\DRO\DFS\DRS\DFO\DUO\DI\DES\DN\DD\DS\DIVISA\ | n |
 * Field 2 gives the percentages (CI = indirect costs, applied to the unit prices of the items;
 * GG = overheads; BI = profit; BAJA = discount; IVA = VAT). Decimals come from field 3 (2007 and
 * later) when it carries any, otherwise from field 1.
 */
export function readCoefficients(
  record: CoefficientsRecord | null,
  warnings: Bc3LineError[],
): Bc3Coefficients {
  if (!record)
    return {
      indirectPct: null,
      overheadsPct: null,
      profitPct: null,
      discountPct: null,
      vatPct: null,
      decimals: {},
    };
  const [legacy = [], percents = [], levels = []] = record.fields;
  const pct = (i: number, name: string): string | null => {
    const text = percents[i] ?? "";
    if (text === "") return null;
    if (!isDecimalText(text) || Number(text) < 0 || Number(text) >= 100000) {
      warnings.push({ line: record.line, message: `~K ${name} "${text}" is not a percentage: ignored` });
      return null;
    }
    return normalizeDecimal(text);
  };
  const digits = (list: string[], i: number): number | undefined => {
    const text = list[i] ?? "";
    return /^\d{1,2}$/.test(text) && Number(text) <= 10 ? Number(text) : undefined;
  };
  const pick = (d: Bc3Decimals): Bc3Decimals =>
    Object.fromEntries(Object.entries(d).filter(([, v]) => v !== undefined)) as Bc3Decimals;
  const fromLevels = pick({
    quantity: digits(levels, 11),
    yield: digits(levels, 4),
    line: digits(levels, 7),
    price: digits(levels, 6),
    amount: digits(levels, 1),
  });
  const fromLegacy = pick({
    quantity: digits(legacy, 2),
    yield: digits(legacy, 3),
    line: digits(legacy, 4),
    price: digits(legacy, 6),
    amount: digits(legacy, 7),
  });
  return {
    indirectPct: pct(0, "CI"),
    overheadsPct: pct(1, "GG"),
    profitPct: pct(2, "BI"),
    discountPct: pct(3, "BAJA"),
    vatPct: pct(4, "IVA"),
    decimals: Object.keys(fromLevels).length > 0 ? { ...fromLegacy, ...fromLevels } : fromLegacy,
  };
}
