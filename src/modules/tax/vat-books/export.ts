import { lazyImport } from "../../../platform/lazy.js";
import type { VatBookRowOut } from "./schemas.js";

/** exceljs (~27 MB once loaded): only the XLSX export needs it. */
const exceljs = lazyImport(() => import("exceljs"));

/**
 * The AEAT "formato electrónico común" of the VAT books (LSI.xlsx, tax-returns.md §5): the issued
 * book's 36 columns and the received book's, one row per invoice and rate; dates dd/mm/yyyy,
 * decimal comma, negatives with a leading "-". CSV separated by ";" or XLSX (exceljs).
 */

type Cell = string | null;
type Column = [header: string, value: (r: VatBookRowOut) => Cell];

const date = (iso: string | null) =>
  iso ? `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}` : null;
const num = (v: string | null) => (v === null ? null : v.replace(".", ","));
const blank: (r: VatBookRowOut) => Cell = () => null;

const ISSUED: Column[] = [
  ["Ejercicio", (r) => String(r.ejercicio)],
  ["Periodo", (r) => r.periodo],
  ["Actividad Código", blank],
  ["Actividad Tipo", blank],
  ["Actividad Epígrafe", blank],
  ["Tipo de Factura", (r) => r.tipo_factura],
  ["Concepto de Ingreso", blank],
  ["Ingreso Computable", blank],
  ["Fecha Expedición", (r) => date(r.fecha_expedicion)],
  ["Fecha Operación", (r) => date(r.fecha_operacion)],
  ["Identificación de la Factura Serie", (r) => r.serie],
  ["Identificación de la Factura Número", (r) => r.numero],
  ["Identificación de la Factura Número-Final", blank],
  ["NIF Destinatario Tipo", (r) => r.nif_tipo],
  ["NIF Destinatario Código País", (r) => r.codigo_pais],
  ["NIF Destinatario Identificación", (r) => r.nif],
  ["Nombre Destinatario", (r) => r.nombre],
  ["Clave de Operación", (r) => r.clave_operacion],
  ["Calificación de la Operación", (r) => r.calificacion],
  ["Operación Exenta", (r) => r.exenta],
  ["Total Factura", (r) => num(r.total)],
  ["Base Imponible", (r) => num(r.base)],
  ["Tipo de IVA", (r) => num(r.tipo_iva)],
  ["Cuota IVA Repercutida", (r) => num(r.cuota_iva)],
  ["Tipo de Recargo eq.", (r) => num(r.tipo_re)],
  ["Cuota Recargo eq.", (r) => num(r.cuota_re)],
  ["Cobro Fecha", blank],
  ["Cobro Importe", blank],
  ["Cobro Medio Utilizado", blank],
  ["Cobro Identificación Medio Utilizado", blank],
  ["Tipo Retención IRPF", (r) => num(r.irpf_tipo)],
  ["Importe Retenido IRPF", (r) => num(r.irpf_importe)],
  ["Registro Acuerdo Facturación", blank],
  ["Inmueble Situación", blank],
  ["Inmueble Referencia Catastral", blank],
  ["Referencia Externa", blank],
];

const RECEIVED: Column[] = [
  ["Ejercicio", (r) => String(r.ejercicio)],
  ["Periodo", (r) => r.periodo],
  ["Actividad Código", blank],
  ["Actividad Tipo", blank],
  ["Actividad Epígrafe", blank],
  ["Tipo de Factura", (r) => r.tipo_factura],
  ["Concepto de Gasto", blank],
  ["Gasto Deducible", blank],
  ["Fecha Expedición", (r) => date(r.fecha_expedicion)],
  ["Fecha Operación", (r) => date(r.fecha_operacion)],
  ["Identificación Factura del Expedidor Serie", blank],
  ["Identificación Factura del Expedidor Número", (r) => r.numero],
  ["Identificación Factura del Expedidor Número-Final", blank],
  ["Fecha Recepción", (r) => date(r.fecha_recepcion)],
  ["Número Recepción", (r) => r.numero_recepcion],
  ["Número Recepción Final", blank],
  ["NIF Expedidor Tipo", (r) => r.nif_tipo],
  ["NIF Expedidor Código País", (r) => r.codigo_pais],
  ["NIF Expedidor Identificación", (r) => r.nif],
  ["Nombre Expedidor", (r) => r.nombre],
  ["Clave de Operación", (r) => r.clave_operacion],
  ["Bien de Inversión", (r) => (r.bien_inversion ? "S" : "N")],
  ["Inversión del Sujeto Pasivo", (r) => (r.inversion_sujeto_pasivo ? "S" : "N")],
  ["Deducible en Periodo Posterior", () => "N"],
  ["Ejercicio Deducción", blank],
  ["Periodo Deducción", blank],
  ["Total Factura", (r) => num(r.total)],
  ["Base Imponible", (r) => num(r.base)],
  ["Tipo de IVA", (r) => num(r.tipo_iva)],
  ["Cuota IVA Soportada", (r) => num(r.cuota_iva)],
  ["Cuota Deducible", (r) => num(r.cuota_iva)],
  ["Tipo de Recargo eq.", (r) => num(r.tipo_re)],
  ["Cuota Recargo eq.", (r) => num(r.cuota_re)],
  ["Pago Fecha", blank],
  ["Pago Importe", blank],
  ["Pago Medio Utilizado", blank],
  ["Pago Identificación Medio Utilizado", blank],
  ["Tipo Retención IRPF", (r) => num(r.irpf_tipo)],
  ["Importe Retenido IRPF", (r) => num(r.irpf_importe)],
  ["Registro Acuerdo Facturación", blank],
  ["Inmueble Situación", blank],
  ["Inmueble Referencia Catastral", blank],
  ["Referencia Externa", blank],
];

export const columnsOf = (issued: boolean) => (issued ? ISSUED : RECEIVED);

const csvCell = (v: Cell) => {
  const s = v ?? "";
  return /[";\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

export function vatBookCsv(rows: VatBookRowOut[], issued: boolean): string {
  const columns = columnsOf(issued);
  const lines = [columns.map(([h]) => csvCell(h)).join(";")];
  for (const r of rows) lines.push(columns.map(([, value]) => csvCell(value(r))).join(";"));
  return `${lines.join("\r\n")}\r\n`;
}

export async function vatBookXlsx(rows: VatBookRowOut[], issued: boolean): Promise<Buffer> {
  const columns = columnsOf(issued);
  const { default: ExcelJS } = await exceljs();
  const workbook = new ExcelJS.Workbook();
  workbook.creator = "Cuadra";
  const sheet = workbook.addWorksheet(issued ? "Expedidas" : "Recibidas");
  sheet.addRow(columns.map(([h]) => h));
  for (const r of rows) sheet.addRow(columns.map(([, value]) => value(r) ?? ""));
  sheet.getRow(1).font = { bold: true };
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
