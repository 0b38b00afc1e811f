import type { AuthedCtx } from "../../../platform/http/context.js";
import { BadRequestError, type FieldError } from "../../../platform/http/errors.js";
import { Dec, dec, sum, toMoney } from "../../../platform/money.js";
import type { TaxRegime } from "../../clients/index.js";
import { getProductsForDocuments } from "../../products/index.js";
import type { Direction, IrpfKind } from "../tables.js";
import { computeTotals, type DocumentTotals } from "../totals.js";
import { findTaxCodes, type TaxCodeRow } from "./config.js";

/** A document line as a caller gives it (wire fields mapped to camelCase). */
export interface LineInput {
  /** Updates only: an existing line of the document, kept (and its conversion links) by id. */
  id?: string;
  productId?: string | null;
  reference?: string;
  description?: string;
  quantity: string;
  unitPrice?: string;
  discount1?: string;
  discount2?: string;
  /** VAT code (IVA21, EXENTO, IC21...); the product's rate or the contact's regime decides when absent. */
  taxCode?: string | null;
  /** IRPF code (IRPF15...), none when absent. */
  irpfCode?: string | null;
  supplied?: boolean;
  accountCode?: string | null;
  /** Rectifying invoices: the corrected invoice's line. */
  correctsLineId?: string | null;
}

/** A line ready to store: everything resolved and frozen (rates, texts, accounts). */
export interface ResolvedLine {
  id?: string;
  productId: string | null;
  reference: string;
  description: string;
  quantity: string;
  unitPrice: string;
  discount1: string;
  discount2: string;
  taxCodeId: string | null;
  taxCode: string | null;
  vatRate: string;
  reRate: string;
  irpfCodeId: string | null;
  irpfCode: string | null;
  irpfRate: string;
  irpfKind: IrpfKind | null;
  supplied: boolean;
  accountCode: string | null;
  /** The account the line's net posts to (override, product, family or company default). */
  postingAccount: string;
  selfAssessed: boolean;
  correctsLineId: string | null;
}

export interface LineContext {
  companyId: string;
  direction: Direction;
  rectifying: boolean;
  /** Sales: the customer's regime; purchases: the supplier's (decides default codes). */
  contactRegime: TaxRegime;
  /** RE is charged: customer under RE (sales) or the company under RE (purchases). */
  applyRe: boolean;
  defaultAccount: string;
}

/** Operations that are not charged on a sale (customer reverse-charges, box 122). */
const SALE_UNCHARGED = new Set(["reverse_charge"]);
/** Operations a sale may not use: they describe acquisitions. */
const PURCHASE_ONLY = new Set(["intra_eu_goods", "intra_eu_services", "import"]);
const SELF_ASSESSED = new Set(["intra_eu_goods", "intra_eu_services", "reverse_charge"]);

const ACCOUNT_PATTERN = { sale: /^7\d{2,3}$/, purchase: /^[26]\d{2,3}$/ } as const;

function defaultTaxCode(direction: Direction, regime: TaxRegime, rate: string): string {
  const r = dec(rate).toString();
  if (regime === "exento") return "EXENTO";
  if (direction === "sale") {
    if (regime === "intracomunitario") return "EIC";
    if (regime === "exportacion") return "EXP";
    return `IVA${r}`;
  }
  if (regime === "intracomunitario") return `IC${r}`;
  if (regime === "exportacion") return `IMP${r}`;
  return `IVA${r}`;
}

const decimalPattern = (decimals: number) => new RegExp(`^-?\\d{1,12}(\\.\\d{1,${decimals}})?$`);
const QUANTITY = decimalPattern(4);
const PRICE = decimalPattern(6);
const PERCENT = /^\d{1,3}(\.\d{1,2})?$/;

/**
 * Resolves and validates a document's lines: products (texts, price, VAT rate, accounts), tax
 * codes of the company, signs, and the account each line posts to. Every problem is reported at
 * once, named by its field (`lines.2.quantity`).
 */
export async function resolveLines(
  ctx: AuthedCtx,
  c: LineContext,
  inputs: LineInput[],
): Promise<ResolvedLine[]> {
  const errors: FieldError[] = [];
  const fail = (i: number, field: string, message: string) =>
    errors.push({ path: `lines.${i}.${field}`, message });
  const productIds = inputs.flatMap((l) => (l.productId ? [l.productId] : []));
  const products = await getProductsForDocuments(ctx, productIds);
  const wantedCodes = inputs.flatMap((l) => {
    const product = l.productId ? products.get(l.productId) : undefined;
    return [
      l.taxCode ?? defaultTaxCode(c.direction, c.contactRegime, product?.vatRate ?? "21"),
      ...(l.irpfCode ? [l.irpfCode] : []),
    ];
  });
  const codes = await findTaxCodes(ctx.db, c.companyId, wantedCodes);

  const resolved = inputs.map((l, i): ResolvedLine | null => {
    const product = l.productId ? products.get(l.productId) : undefined;
    if (l.productId && (!product || product.companyId !== c.companyId))
      fail(i, "product_id", "is not a product of the document's company");
    if (!QUANTITY.test(l.quantity)) fail(i, "quantity", "must be a decimal string with at most 4 decimals");
    else if (dec(l.quantity).isZero()) fail(i, "quantity", "must not be 0");
    else if (dec(l.quantity).isNegative() && !c.rectifying)
      fail(i, "quantity", "must be positive: negative quantities only appear in rectifying invoices");
    const price =
      l.unitPrice ?? (product ? (c.direction === "sale" ? product.salePrice : product.costPrice) : undefined);
    if (price === undefined) fail(i, "unit_price", "is required when the line has no product");
    else if (!PRICE.test(price)) fail(i, "unit_price", "must be a decimal string with at most 6 decimals");
    for (const field of ["discount1", "discount2"] as const) {
      const v = l[field];
      if (v !== undefined && (!PERCENT.test(v) || dec(v).gt(100)))
        fail(i, field, "must be a percentage from 0 to 100");
    }
    const description = (l.description ?? product?.description ?? "").trim();
    if (!description) fail(i, "description", "is required when the line has no product");
    if (l.accountCode && !ACCOUNT_PATTERN[c.direction].test(l.accountCode))
      fail(
        i,
        "account_code",
        c.direction === "sale"
          ? "must be a PGC income account of group 7 (3 or 4 digits, e.g. 705)"
          : "must be a PGC account of group 6 or 2 (3 or 4 digits, e.g. 621)",
      );

    let vat: TaxCodeRow | undefined;
    let irpf: TaxCodeRow | undefined;
    if (!l.supplied) {
      const code = l.taxCode ?? defaultTaxCode(c.direction, c.contactRegime, product?.vatRate ?? "21");
      vat = codes.get(code);
      if (vat?.kind !== "vat" || !vat.isActive)
        fail(i, "tax_code", `${code} is not an active VAT code of the company (see GET /api/taxes)`);
      else if (c.direction === "sale" && PURCHASE_ONLY.has(vat.operation ?? ""))
        fail(i, "tax_code", `${code} describes an acquisition and cannot be used on a sale`);
      if (l.irpfCode) {
        irpf = codes.get(l.irpfCode);
        if (irpf?.kind !== "irpf" || !irpf.isActive)
          fail(i, "irpf_code", `${l.irpfCode} is not an active IRPF code of the company`);
      }
    } else if (l.taxCode || l.irpfCode) {
      fail(i, l.taxCode ? "tax_code" : "irpf_code", "a supplied line (suplido) carries no tax");
    }
    if (errors.length) return null;
    const operation = vat?.operation ?? null;
    const uncharged = c.direction === "sale" && SALE_UNCHARGED.has(operation ?? "");
    const postingAccount =
      l.accountCode ??
      (c.direction === "sale" ? product?.salesAccount : product?.purchasesAccount) ??
      c.defaultAccount;
    return {
      id: l.id,
      productId: l.productId ?? null,
      reference: (l.reference ?? product?.reference ?? "").trim(),
      description,
      quantity: dec(l.quantity).toFixed(4),
      unitPrice: dec(price as string).toFixed(6),
      discount1: dec(l.discount1 ?? "0").toFixed(2),
      discount2: dec(l.discount2 ?? "0").toFixed(2),
      taxCodeId: vat?.id ?? null,
      taxCode: vat?.code ?? null,
      vatRate: vat && !uncharged ? dec(vat.rate).toFixed(2) : "0.00",
      reRate: vat && !uncharged && c.applyRe ? dec(vat.reRate).toFixed(2) : "0.00",
      irpfCodeId: irpf?.id ?? null,
      irpfCode: irpf?.code ?? null,
      irpfRate: irpf ? dec(irpf.rate).toFixed(2) : "0.00",
      irpfKind: irpf?.irpfKind ?? null,
      supplied: Boolean(l.supplied),
      accountCode: l.accountCode ?? null,
      postingAccount,
      selfAssessed: c.direction === "purchase" && SELF_ASSESSED.has(operation ?? ""),
      correctsLineId: l.correctsLineId ?? null,
    };
  });
  if (errors.length) throw new BadRequestError("Some lines are not valid", errors);
  return resolved as ResolvedLine[];
}

export interface DocumentFigures extends DocumentTotals {
  /** VAT groups with their tax code id and whether the VAT is self-assessed (not invoiced). */
  groups: Array<DocumentTotals["taxGroups"][number] & { taxCodeId: string | null; selfAssessed: boolean }>;
  /** IRPF per code (111 and 115 tell rent from activities even at the same rate). */
  irpfByCode: Array<{ irpfCodeId: string; rate: string; kind: IrpfKind; base: string; amount: string }>;
  /** Each line's net after the document discount (posting allocates the group bases by them). */
  postingNets: Dec[];
}

/**
 * Totals of resolved lines (FacturaScripts' calculator through computeTotals), then two rules of
 * the engine: self-assessed VAT is declared but not invoiced, and IRPF is grouped by code.
 */
export function documentFigures(
  lines: ResolvedLine[],
  discounts: { discount1: string; discount2: string },
): DocumentFigures {
  const totals = computeTotals({
    lines: lines.map((l) => ({
      quantity: l.quantity,
      unitPrice: l.unitPrice,
      discount1: l.discount1,
      discount2: l.discount2,
      taxCode: l.taxCode ?? "",
      vatRate: l.vatRate,
      reRate: l.reRate,
      irpfRate: "0",
      supplied: l.supplied,
    })),
    discount1: discounts.discount1,
    discount2: discounts.discount2,
    applyRe: true,
  });
  const factor = new Dec(1)
    .minus(dec(discounts.discount1).div(100))
    .times(new Dec(1).minus(dec(discounts.discount2).div(100)));
  const postingNets = totals.lineNets.map((n) => dec(n).times(factor));
  const codeOf = new Map(lines.map((l) => [l.taxCode ?? "", l]));
  const groups = totals.taxGroups.map((g) => {
    const line = codeOf.get(g.taxCode);
    return { ...g, taxCodeId: line?.taxCodeId ?? null, selfAssessed: Boolean(line?.selfAssessed) };
  });
  const irpfBases = new Map<string, { line: ResolvedLine; base: Dec }>();
  lines.forEach((l, i) => {
    if (!l.irpfCodeId || l.supplied) return;
    const current = irpfBases.get(l.irpfCodeId);
    irpfBases.set(l.irpfCodeId, { line: l, base: (current?.base ?? new Dec(0)).plus(postingNets[i]) });
  });
  const irpfByCode = [...irpfBases.entries()].map(([irpfCodeId, { line, base }]) => {
    const rounded = base.toDecimalPlaces(2);
    return {
      irpfCodeId,
      rate: line.irpfRate,
      kind: line.irpfKind ?? "activities",
      base: toMoney(rounded),
      amount: toMoney(rounded.times(line.irpfRate).div(100)),
    };
  });
  const selfAssessedVat = sum(groups.filter((g) => g.selfAssessed).map((g) => g.vat));
  const vat = dec(totals.vat).minus(selfAssessedVat);
  const irpf = sum(irpfByCode.map((g) => g.amount));
  const net = dec(totals.net);
  const importeTotal = net.plus(vat).plus(totals.re);
  return {
    ...totals,
    vat: toMoney(vat),
    irpf: toMoney(irpf),
    importeTotal: toMoney(importeTotal),
    total: toMoney(importeTotal.minus(irpf).plus(totals.supplied)),
    groups,
    irpfByCode,
    postingNets,
  };
}
