import type { AuthedCtx } from "../../../platform/http/context.js";
import { getCompany } from "../../companies/index.js";
import { type InvoicePdfView, renderInvoicePdf } from "../pdf/invoice-pdf.js";
import type { DocumentView } from "./view.js";

const TITLES = {
  sale: { estimate: "Presupuesto", order: "Pedido", delivery_note: "Albarán", invoice: "Factura" },
  purchase: {
    estimate: "Presupuesto de proveedor",
    order: "Pedido a proveedor",
    delivery_note: "Albarán de proveedor",
    invoice: "Factura de proveedor",
  },
} as const;

/** Something to draw in the PDF's reserved QR square (VeriFactu). */
export type PdfQr = NonNullable<InvoicePdfView["qr"]>;

/** The document as the PDF renderer sees it: the company sells (or buys) from the frozen contact. */
export async function renderDocumentPdf(ctx: AuthedCtx, d: DocumentView, qr?: PdfQr | null): Promise<Buffer> {
  const company = await getCompany(ctx, d.companyId);
  const us = {
    name: company.legalName || company.name,
    taxId: company.taxId,
    address: company.address,
    postalCode: company.postalCode,
    city: company.city,
    province: company.province,
    country: company.country,
  };
  const them = {
    name: d.contactName,
    taxId: d.contactTaxId,
    address: d.contactAddress,
    postalCode: d.contactPostalCode,
    city: d.contactCity,
    province: d.contactProvince,
    country: d.contactCountry,
  };
  const sale = d.direction === "sale";
  const rectifying = Boolean(d.correctsDocumentId);
  const invoice = d.kind === "invoice";
  // A supplier's invoice is known by the supplier's number; ours is the registration number.
  const supplierInvoice = invoice && !sale && d.supplierNumber;
  return renderInvoicePdf({
    title: rectifying ? "Factura rectificativa" : TITLES[d.direction][d.kind],
    code: supplierInvoice ? d.supplierNumber : d.code,
    references: supplierInvoice ? [["Nº de registro", d.code ?? "pendiente de aprobación"]] : [],
    issueDate: d.issueDate,
    operationDate: d.operationDate,
    dueDate: invoice ? d.dues.at(-1)?.dueDate : d.validUntil,
    dueDateLabel: invoice ? "Vencimiento" : "Válido hasta",
    seller: sale ? us : them,
    customer: sale ? them : us,
    lines: d.lines.map((l) => ({
      reference: l.reference,
      description: l.description,
      quantity: l.quantity,
      unitPrice: l.unitPrice,
      discount1: l.discount1,
      discount2: l.discount2,
      vatRate: l.vatRate,
      supplied: l.supplied,
      net: l.net,
    })),
    taxGroups: d.taxes
      .filter((t) => t.kind === "vat" && !t.selfAssessed)
      .map((t) => ({
        taxCode: "",
        vatRate: t.rate,
        reRate: t.reRate,
        base: t.base,
        vat: t.amount,
        re: t.reAmount,
      })),
    irpfGroups: d.taxes
      .filter((t) => t.kind === "irpf")
      .map((t) => ({ irpfRate: t.rate, base: t.base, amount: t.amount })),
    totals: {
      grossNet: d.grossNet,
      net: d.net,
      vat: d.vat,
      re: d.re,
      irpf: d.irpf,
      supplied: d.supplied,
      total: d.total,
    },
    rectifies:
      rectifying && d.corrects?.code
        ? {
            code: d.corrects.code,
            issueDate: d.corrects.issueDate,
            reason: d.rectificationReason,
            type: d.rectificationType,
          }
        : null,
    // The instalments as issued: an invoice's PDF does not change when it is paid.
    dueDates: d.dues.map((u) => ({ dueDate: u.dueDate, amount: u.amount })),
    // A rectifying invoice's notes start as its reason, already printed in the rectification box.
    notes: rectifying && d.notes === d.rectificationReason ? null : d.notes,
    qr: qr ?? null,
  });
}

/** File name of a document's PDF: its code, or "borrador" with its id for drafts. */
export function pdfFileName(d: DocumentView): string {
  return `${d.code ?? `borrador-${d.id}`}.pdf`;
}
