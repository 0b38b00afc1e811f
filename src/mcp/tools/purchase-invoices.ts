import { invoiceTools } from "./invoices.js";

const purchases = invoiceTools({
  direction: "purchase",
  access: { scope: "mcp:purchase_invoices", permission: "purchases:leer" },
  list: {
    name: "list_purchase_invoices",
    title: "Supplier invoices",
    description:
      "Lists the supplier invoices (facturas recibidas, credit notes included) of the companies this token " +
      "can see, newest date first, one page at a time: our registration code (e.g. FC2026-000012; null " +
      "until approved), the supplier's own number (supplier_number), the supplier as frozen on the " +
      "invoice, status, totals (net, vat, re, irpf, total), paid amount and payment_status (pendiente, " +
      "parcial, pagada, vencida). Filter by status, a date range, supplier_id and paid. Returns {items, " +
      "total, limit, offset}; call again with offset + limit for the next page. Use get_purchase_invoice " +
      "for lines, tax breakdown and payments due. Amounts are decimal strings.",
  },
  get: {
    name: "get_purchase_invoice",
    title: "Supplier invoice detail",
    description:
      "One supplier invoice by invoice_id or by document_number (give exactly one): our registration code " +
      "(e.g. FC2026-000012) or the supplier's own invoice number. Returns header, supplier, lines, tax " +
      "breakdown per rate (base, VAT, RE, IRPF withheld), payments due with due dates and what is paid of " +
      "each, payment_status, the rejection reason and the ledger entry id. When a supplier number matches " +
      "invoices of several suppliers, the error lists them: use the invoice_id.",
  },
  states: ["pendiente", "aprobada", "rechazada"],
  statesHelp: "pendiente (waiting for approval), aprobada (approved and booked) or rechazada (rejected)",
  contactArg: { name: "supplier_id", help: "list_contacts" },
  documentNumberHelp:
    "Our registration code (e.g. FC2026-000012) or the number printed on the supplier's invoice",
});

export const listPurchaseInvoices = purchases.list;
export const getPurchaseInvoice = purchases.get;
