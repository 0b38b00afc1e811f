import { z } from "zod";
import { apiListQuery, apiPage, queryDate } from "../../../platform/http/pagination.js";
import { toMoney, toPercent } from "../../../platform/money.js";
import type { BookRow } from "./repository.js";

export const vatBookQuery = apiListQuery.extend({
  company_id: z.uuid().optional(),
  date_from: queryDate.optional().describe("First accrual date (operation date, else issue date)"),
  date_to: queryDate.optional().describe("Last accrual date"),
  format: z
    .enum(["json", "csv", "xlsx"])
    .default("json")
    .describe(
      "json (default), or the AEAT common electronic book format as csv (;) or xlsx (the page asked)",
    ),
});

const EU = new Set(
  "AT BE BG CY CZ DE DK EE EL GR ES FI FR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK".split(" "),
);

export const vatBookRowOut = z.object({
  document_id: z.uuid(),
  ejercicio: z.number().int(),
  periodo: z.string().describe("1T-4T of the accrual date"),
  tipo_factura: z.string().describe("F1 invoice, F2 simplified, R1 rectifying"),
  fecha_expedicion: z.string(),
  fecha_operacion: z.string().nullable(),
  fecha_recepcion: z.string().nullable().describe("Received book: when the invoice was approved"),
  serie: z.string(),
  numero: z.string().describe("Issued: our number; received: the supplier's number"),
  numero_recepcion: z.string().nullable().describe("Received book: our registration number"),
  nif_tipo: z.string().nullable().describe("Blank for a Spanish NIF; 02 EU VAT number; 04 foreign id"),
  codigo_pais: z.string().nullable(),
  nif: z.string().nullable(),
  nombre: z.string(),
  tax_code: z.string().nullable(),
  clave_operacion: z.string().describe("01 general, 02 export, 09 intra-EU acquisition... (AEAT key)"),
  calificacion: z
    .string()
    .nullable()
    .describe("S1 subject, S2 reverse charge, N1/N2 not subject; null exempt"),
  exenta: z.string().nullable().describe("E1-E6 when exempt"),
  bien_inversion: z.boolean(),
  inversion_sujeto_pasivo: z.boolean(),
  total: z.string(),
  base: z.string(),
  tipo_iva: z.string(),
  cuota_iva: z.string(),
  tipo_re: z.string(),
  cuota_re: z.string(),
  irpf_tipo: z.string().nullable(),
  irpf_importe: z.string().nullable(),
});
export const vatBookPage = apiPage(vatBookRowOut);
export type VatBookRowOut = z.infer<typeof vatBookRowOut>;

function operationKey(r: BookRow, issued: boolean): string {
  switch (r.operation) {
    case "export":
      return "02";
    case "intra_eu_goods":
    case "intra_eu_services":
      return "09";
    case "import":
      return "13";
    default:
      return issued && r.reRate !== "0.00" && Number(r.reRate) !== 0 ? "18" : "01";
  }
}

function qualification(r: BookRow): string | null {
  if (r.exemptionReason) return null;
  if (r.operation === "not_subject") return "N2";
  if (r.operation === "reverse_charge" || r.selfAssessed) return "S2";
  return "S1";
}

export function toVatBookRowOut(r: BookRow, issued: boolean): VatBookRowOut {
  const country = r.contactCountry.toUpperCase();
  const foreign = country !== "ES";
  return {
    document_id: r.documentId,
    ejercicio: Number(r.accrualDate.slice(0, 4)),
    periodo: `${Math.floor((Number(r.accrualDate.slice(5, 7)) - 1) / 3) + 1}T`,
    tipo_factura: r.rectifying ? "R1" : r.seriesKind === "simplified" ? "F2" : "F1",
    fecha_expedicion: r.issueDate,
    fecha_operacion: r.operationDate,
    fecha_recepcion: issued ? null : r.receivedAt,
    serie: r.series,
    numero: issued ? r.code : (r.supplierNumber ?? r.code),
    numero_recepcion: issued ? null : r.code,
    nif_tipo: !foreign ? null : EU.has(country) ? "02" : "04",
    codigo_pais: foreign ? country : null,
    nif: r.contactTaxId,
    nombre: r.contactName,
    tax_code: r.taxCode,
    clave_operacion: operationKey(r, issued),
    calificacion: qualification(r),
    exenta: r.exemptionReason,
    bien_inversion: r.capitalGoods,
    inversion_sujeto_pasivo: r.selfAssessed || r.operation === "reverse_charge",
    total: toMoney(r.total),
    base: toMoney(r.base),
    tipo_iva: toPercent(r.rate),
    cuota_iva: toMoney(r.amount),
    tipo_re: toPercent(r.reRate),
    cuota_re: toMoney(r.reAmount),
    irpf_tipo: r.irpfRate === null ? null : toPercent(r.irpfRate),
    irpf_importe: r.irpfAmount === null ? null : toMoney(r.irpfAmount),
  };
}
