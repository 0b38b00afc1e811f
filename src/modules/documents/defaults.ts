import type { Db } from "../../platform/db/client.js";
import { inTransaction } from "../../platform/db/sql.js";
import { forgetLookups } from "../../platform/db/tx-lookups.js";
import {
  documentSeries,
  documentSettings,
  type EXEMPTION_REASONS,
  type IrpfKind,
  type PaymentTermLine,
  paymentTerms,
  type SeriesKind,
  type TaxKind,
  taxCodes,
  type VatOperation,
} from "./tables.js";

/**
 * What every company starts with (created with the company, and by migration 0003 for companies
 * that existed before the engine): series A/R/S, the cash and 30-day terms, the Spanish tax codes
 * and its document settings. Drizzle-free data, so tests and the migration can be checked against it.
 */

export interface DefaultSeries {
  code: string;
  name: string;
  kind: SeriesKind;
}

export const DEFAULT_SERIES: readonly DefaultSeries[] = [
  { code: "A", name: "General", kind: "general" },
  { code: "R", name: "Rectificativas", kind: "rectifying" },
  { code: "S", name: "Simplificadas", kind: "simplified" },
];

export interface DefaultPaymentTerm {
  code: string;
  name: string;
  lines: PaymentTermLine[];
}

export const DEFAULT_PAYMENT_TERMS: readonly DefaultPaymentTerm[] = [
  { code: "CONTADO", name: "Contado", lines: [{ kind: "balance", days: 0 }] },
  { code: "30D", name: "30 días", lines: [{ kind: "balance", days: 30 }] },
];

export type ExemptionReason = (typeof EXEMPTION_REASONS)[number];

export interface DefaultTaxCode {
  code: string;
  name: string;
  kind: TaxKind;
  /** Percent, decimal string. */
  rate: string;
  reRate: string;
  operation: VatOperation | null;
  exemptionReason: ExemptionReason | null;
  irpfKind: IrpfKind | null;
  capitalGoods: boolean;
}

const vat = (
  code: string,
  name: string,
  rate: string,
  reRate: string,
  operation: VatOperation,
  extra: { exemptionReason?: ExemptionReason; capitalGoods?: boolean } = {},
): DefaultTaxCode => ({
  code,
  name,
  kind: "vat",
  rate,
  reRate,
  operation,
  exemptionReason: extra.exemptionReason ?? null,
  irpfKind: null,
  capitalGoods: extra.capitalGoods ?? false,
});

const irpf = (code: string, name: string, rate: string, irpfKind: IrpfKind): DefaultTaxCode => ({
  code,
  name,
  kind: "irpf",
  rate,
  reRate: "0",
  operation: null,
  exemptionReason: null,
  irpfKind,
  capitalGoods: false,
});

/**
 * Spanish VAT (with the recargo de equivalencia that goes with each rate, charged only to
 * customers under that regime), self-assessed purchases, sales without Spanish VAT, and IRPF.
 */
export const DEFAULT_TAX_CODES: readonly DefaultTaxCode[] = [
  vat("IVA21", "IVA 21 %", "21", "5.2", "domestic"),
  vat("IVA10", "IVA 10 %", "10", "1.4", "domestic"),
  vat("IVA4", "IVA 4 %", "4", "0.5", "domestic"),
  vat("IVA0", "IVA 0 %", "0", "0", "domestic"),
  vat("EXENTO", "Exento de IVA (art. 20 LIVA)", "0", "0", "exempt", { exemptionReason: "E1" }),
  vat("IVA21BI", "IVA 21 % bienes de inversión", "21", "5.2", "domestic", { capitalGoods: true }),
  vat("IC21", "Adquisición intracomunitaria de bienes 21 %", "21", "0", "intra_eu_goods"),
  vat("IC10", "Adquisición intracomunitaria de bienes 10 %", "10", "0", "intra_eu_goods"),
  vat("IC4", "Adquisición intracomunitaria de bienes 4 %", "4", "0", "intra_eu_goods"),
  vat("ICS21", "Adquisición intracomunitaria de servicios 21 %", "21", "0", "intra_eu_services"),
  vat("ISP21", "Inversión del sujeto pasivo 21 %", "21", "0", "reverse_charge"),
  vat("IMP21", "Importación 21 %", "21", "0", "import"),
  vat("IMP10", "Importación 10 %", "10", "0", "import"),
  vat("IMP4", "Importación 4 %", "4", "0", "import"),
  vat("EXP", "Exportación exenta (art. 21 LIVA)", "0", "0", "export", { exemptionReason: "E2" }),
  vat("EIC", "Entrega intracomunitaria exenta (art. 25 LIVA)", "0", "0", "exempt_intra_eu", {
    exemptionReason: "E5",
  }),
  vat("NS", "No sujeto a IVA", "0", "0", "not_subject"),
  irpf("IRPF1", "Retención IRPF 1 %", "1", "activities"),
  irpf("IRPF2", "Retención IRPF 2 %", "2", "activities"),
  irpf("IRPF7", "Retención IRPF 7 %", "7", "activities"),
  irpf("IRPF15", "Retención IRPF 15 %", "15", "activities"),
  irpf("IRPF19", "Retención IRPF 19 %", "19", "activities"),
  irpf("IRPF21", "Retención IRPF 21 %", "21", "activities"),
  irpf("IRPF19A", "Retención arrendamientos 19 %", "19", "rent"),
  // Added with the tax returns (migration tax_codes_for_returns gives them to older companies).
  vat("IVA10BI", "IVA 10 % bienes de inversión", "10", "1.4", "domestic", { capitalGoods: true }),
  vat("IVA4BI", "IVA 4 % bienes de inversión", "4", "0.5", "domestic", { capitalGoods: true }),
  vat("IC21BI", "Adquisición intracomunitaria de bienes de inversión 21 %", "21", "0", "intra_eu_goods", {
    capitalGoods: true,
  }),
  vat("ICS10", "Adquisición intracomunitaria de servicios 10 %", "10", "0", "intra_eu_services"),
  vat("ICS4", "Adquisición intracomunitaria de servicios 4 %", "4", "0", "intra_eu_services"),
  vat("ISP10", "Inversión del sujeto pasivo 10 %", "10", "0", "reverse_charge"),
  vat("ISP4", "Inversión del sujeto pasivo 4 %", "4", "0", "reverse_charge"),
  vat(
    "ISPEX21",
    "Servicios de empresarios no establecidos (fuera de la UE) 21 %",
    "21",
    "0",
    "reverse_charge",
  ),
  vat(
    "ISPEX10",
    "Servicios de empresarios no establecidos (fuera de la UE) 10 %",
    "10",
    "0",
    "reverse_charge",
  ),
  vat("IMP21BI", "Importación de bienes de inversión 21 %", "21", "0", "import", { capitalGoods: true }),
  vat("EICS", "Prestación intracomunitaria de servicios (no sujeta, art. 69 LIVA)", "0", "0", "not_subject"),
  irpf("IRPF15T", "Retención IRPF rendimientos del trabajo 15 %", "15", "work"),
];

/** A company's document settings until someone changes them (the table's column defaults). */
export const DEFAULT_DOCUMENT_SETTINGS = {
  taxRegime: "general",
  autoPosting: true,
  salesAccount: "700",
  purchasesAccount: "600",
  salesReturnsAccount: null,
  suppliedAccount: "555",
} as const;

/**
 * Creates what a company is missing of its defaults; what exists (even edited or deactivated) is
 * left alone, so it is safe to run any number of times.
 */
export async function ensureDocumentDefaults(db: Db, companyId: string): Promise<void> {
  await inTransaction(db, async (tx) => {
    await tx
      .insert(documentSettings)
      .values({ companyId, ...DEFAULT_DOCUMENT_SETTINGS })
      .onConflictDoNothing();
    forgetLookups(tx, "document_settings");
    await tx
      .insert(documentSeries)
      .values(DEFAULT_SERIES.map((s) => ({ ...s, companyId })))
      .onConflictDoNothing();
    await tx
      .insert(paymentTerms)
      .values(DEFAULT_PAYMENT_TERMS.map((t) => ({ ...t, lines: t.lines.map((l) => ({ ...l })), companyId })))
      .onConflictDoNothing();
    await tx
      .insert(taxCodes)
      .values(DEFAULT_TAX_CODES.map((t) => ({ ...t, companyId })))
      .onConflictDoNothing();
  });
}
