/**
 * The commercial-documents engine: what the sales and purchases modules (and treasury, banking,
 * VeriFactu, tax) use. Other modules import this file only.
 */
export { type ConversionInput, convertDocuments } from "./engine/conversion.js";
export {
  approvePurchaseInvoice,
  generateInvoiceEntry,
  issueSalesInvoice,
  rejectPurchaseInvoice,
  reopenPurchaseInvoice,
} from "./engine/finalize.js";
export { type Modelo347Report, modelo347AeatFile, modelo347Report } from "./engine/modelo347.js";
export { type RectifyInput, rectifyInvoice } from "./engine/rectify.js";
export {
  conversionOptions,
  type DocumentRoutesOptions,
  registerConversionRoute,
  registerDocumentRoutes,
  registerStateRoute,
} from "./engine/routes.js";
export {
  documentOut,
  documentPage,
  documentSummaryOut,
  toDocumentOut,
  toDocumentSummaryOut,
} from "./engine/schemas.js";
export {
  type DocumentListFilters,
  type DocumentScope,
  getDocument,
  getDocumentByCode,
  listDocuments,
} from "./engine/service.js";
export type { DocumentView } from "./engine/view.js";
export type { Direction, DocumentKind } from "./tables.js";
