import { dec } from "../../../platform/money.js";
import type { Direction } from "../../documents/index.js";
import type { BoxSide, MappedModel } from "../tables.js";

/**
 * The default box map (tax-returns.md §1 "Box map", §3 mapping, §4 keys), derived from what a tax
 * code is (kind, operation, rate, recargo, capital goods, IRPF kind) so that a code a company
 * creates later gets sensible boxes too; the company edits them at /api/tax/box-map.
 */

export interface MappableTaxCode {
  id: string;
  code: string;
  kind: "vat" | "irpf";
  rate: string;
  reRate: string;
  operation: string | null;
  irpfKind: string | null;
  capitalGoods: boolean;
}

export interface BoxRow {
  model: MappedModel;
  direction: Direction;
  rectifying: boolean;
  side: BoxSide;
  baseBox: string | null;
  quotaBox: string | null;
  reBaseBox: string | null;
  reQuotaBox: string | null;
}

/** 303 boxes of domestic sales by VAT rate: [base, quota] (the 2026 layout; 0 % is box 150). */
const SALES_BY_RATE: Record<string, [string, string]> = {
  "0": ["150", "152"],
  "4": ["01", "03"],
  "10": ["04", "06"],
  "21": ["07", "09"],
};

/** 303 boxes of the recargo de equivalencia by its rate: RE 0.5 % is 168/170 since 2025. */
const RE_BY_RATE: Record<string, [string, string]> = {
  "0.5": ["168", "170"],
  "1.4": ["19", "21"],
  "1.75": ["156", "158"],
  "5.2": ["22", "24"],
};

const key = (rate: string) => dec(rate).toString();

function row(
  model: MappedModel,
  direction: Direction,
  rectifying: boolean,
  side: BoxSide,
  boxes: Partial<Pick<BoxRow, "baseBox" | "quotaBox" | "reBaseBox" | "reQuotaBox">>,
): BoxRow {
  return {
    model,
    direction,
    rectifying,
    side,
    baseBox: boxes.baseBox ?? null,
    quotaBox: boxes.quotaBox ?? null,
    reBaseBox: boxes.reBaseBox ?? null,
    reQuotaBox: boxes.reQuotaBox ?? null,
  };
}

/** Sales of a VAT code: ordinary and rectifying rows (credit notes go to 14/15 and 25/26). */
function salesRows(code: MappableTaxCode): BoxRow[] {
  const both = (boxes: Partial<BoxRow>) => [
    row("303", "sale", false, "accrued", boxes),
    row("303", "sale", true, "accrued", boxes),
  ];
  switch (code.operation) {
    case "domestic": {
      const re = RE_BY_RATE[key(code.reRate)];
      const [base, quota] = SALES_BY_RATE[key(code.rate)] ?? [null, null];
      if (!base) return [];
      return [
        row("303", "sale", false, "accrued", {
          baseBox: base,
          quotaBox: quota,
          reBaseBox: re?.[0],
          reQuotaBox: re?.[1],
        }),
        row("303", "sale", true, "accrued", {
          baseBox: "14",
          quotaBox: "15",
          reBaseBox: re ? "25" : null,
          reQuotaBox: re ? "26" : null,
        }),
      ];
    }
    case "exempt_intra_eu":
      return [...both({ baseBox: "59" }), ...key349("sale", "E")];
    case "export":
      return both({ baseBox: "60" });
    case "not_subject":
      // Intra-EU services supplied are not subject here but declared in 59 and in the 349 (key S).
      return code.code === "EICS"
        ? [...both({ baseBox: "59" }), ...key349("sale", "S")]
        : both({ baseBox: "120" });
    case "reverse_charge":
      // The customer reverse-charges (art. 84.1.2º): declared by us in 122, base only.
      return both({ baseBox: "122" });
    default:
      return [];
  }
}

function key349(direction: Direction, letter: string): BoxRow[] {
  return [
    row("349", direction, false, "accrued", { baseBox: letter }),
    row("349", direction, true, "accrued", { baseBox: letter }),
  ];
}

/** Purchases of a VAT code: the deductible side, and the accrued side of self-assessed VAT. */
function purchaseRows(code: MappableTaxCode): BoxRow[] {
  const capital = code.capitalGoods;
  const deductible = (base: string, quota: string) => [
    row("303", "purchase", false, "deductible", { baseBox: base, quotaBox: quota }),
    row("303", "purchase", true, "deductible", { baseBox: "40", quotaBox: "41" }),
  ];
  const accrued = (base: string, quota: string) => [
    row("303", "purchase", false, "accrued", { baseBox: base, quotaBox: quota }),
    row("303", "purchase", true, "accrued", { baseBox: "14", quotaBox: "15" }),
  ];
  switch (code.operation) {
    case "domestic":
      return capital ? deductible("30", "31") : deductible("28", "29");
    case "import":
      return capital ? deductible("34", "35") : deductible("32", "33");
    case "intra_eu_goods":
      return [
        ...accrued("10", "11"),
        ...(capital ? deductible("38", "39") : deductible("36", "37")),
        ...key349("purchase", "A"),
      ];
    case "intra_eu_services":
      return [...accrued("10", "11"), ...deductible("36", "37"), ...key349("purchase", "I")];
    case "reverse_charge":
      return [...accrued("12", "13"), ...(capital ? deductible("30", "31") : deductible("28", "29"))];
    default:
      return [];
  }
}

/** IRPF withheld on purchase invoices: 111 (work 02/03, activities 08/09) or 115 (rent 02/03). */
function irpfRows(code: MappableTaxCode): BoxRow[] {
  const [model, base, quota]: [MappedModel, string, string] =
    code.irpfKind === "rent"
      ? ["115", "02", "03"]
      : code.irpfKind === "work"
        ? ["111", "02", "03"]
        : ["111", "08", "09"];
  return [false, true].map((rectifying) =>
    row(model, "purchase", rectifying, "accrued", { baseBox: base, quotaBox: quota }),
  );
}

export function defaultBoxRows(code: MappableTaxCode): BoxRow[] {
  if (code.kind === "irpf") return irpfRows(code);
  return [...salesRows(code), ...purchaseRows(code)];
}

/** The boxes a 303 map row may name (pages 01 and 03 of DR303e26). */
export const BOXES_303 = new Set([
  ...["150", "152", "165", "167", "153", "155", "156", "158", "168", "170"],
  ...Array.from({ length: 46 }, (_, i) => String(i + 1).padStart(2, "0")),
  ...["59", "60", "120", "122", "123", "124", "62", "63", "74", "75", "76"],
]);
export const BOXES_111 = new Set([
  "02",
  "03",
  "05",
  "06",
  "08",
  "09",
  "11",
  "12",
  "14",
  "15",
  "17",
  "18",
  "20",
  "21",
  "23",
  "24",
  "26",
  "27",
]);
export const BOXES_115 = new Set(["02", "03"]);
export const KEYS_349 = new Set(["E", "M", "H", "A", "T", "S", "I", "R", "D", "C"]);
