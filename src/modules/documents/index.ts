/**
 * The documents engine's surface for the app, the CLI, MCP and other modules (sales, purchases,
 * treasury). Importing it registers the company hook that gives every new company its defaults.
 */
import { onCompanyCreated } from "../companies/index.js";
import { ensureDocumentDefaults } from "./defaults.js";

onCompanyCreated(ensureDocumentDefaults);

export { registerAttachmentRoutes } from "./attachments/routes.js";
export {
  DEFAULT_DOCUMENT_SETTINGS,
  DEFAULT_PAYMENT_TERMS,
  DEFAULT_SERIES,
  DEFAULT_TAX_CODES,
  type DefaultPaymentTerm,
  type DefaultSeries,
  type DefaultTaxCode,
  type ExemptionReason,
  ensureDocumentDefaults,
} from "./defaults.js";
export {
  type AgingRow,
  addDue,
  addDuePayment,
  addDuePayments,
  agingByContact,
  changeDueDate,
  type DueForMatching,
  type DueListFilters,
  type DueStatusFilter,
  type DueView,
  getDue,
  getDues,
  listDues,
  openDueSumsByDate,
  openDuesForMatching,
  splitDue,
} from "./dues/service.js";
export { type ConversionInput, convertDocuments } from "./engine/conversion.js";
export {
  approvePurchaseInvoice,
  approvePurchaseInvoiceInTransaction,
  generateInvoiceEntry,
  issueSalesInvoice,
  issueSalesInvoiceInTransaction,
  rejectPurchaseInvoice,
  reopenPurchaseInvoice,
} from "./engine/finalize.js";
export {
  type FinalizedInvoice,
  type InvoiceFinalizedHook,
  onInvoiceFinalized,
  type PdfQrProvider,
  setPdfQrProvider,
} from "./engine/hooks.js";
export type { LineInput } from "./engine/lines.js";
export { type Modelo347Report, modelo347AeatFile, modelo347Report } from "./engine/modelo347.js";
export type { PdfQr } from "./engine/pdf.js";
export { type RectifyInput, rectifyInvoice } from "./engine/rectify.js";
export {
  conversionOptions,
  type DocumentRoutesOptions,
  registerConversionRoute,
  registerDocumentRoutes,
  registerEstimateAndOrderRoutes,
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
  createDocument,
  type DocumentInput,
  type DocumentListFilters,
  type DocumentScope,
  getDocument,
  getDocumentByCode,
  insertDocumentInTransaction,
  listDocuments,
  setDocumentState,
} from "./engine/service.js";
export type { DocumentView } from "./engine/view.js";
export { normalizeAeatText } from "./modelo347/aeat-file.js";
export {
  createPaymentTerm,
  findPaymentTermOfCompany,
  getPaymentTerm,
  listPaymentTerms,
  type NewPaymentTerm,
  type PaymentTermFields,
  type PaymentTermListFilters,
  type PaymentTermRow,
  updatePaymentTerm,
  validateTermLines,
} from "./payment-terms/service.js";
export { documentRoutes } from "./routes.js";
export {
  createSeries,
  findSeriesOfCompany,
  getSeries,
  listSeries,
  type NewSeries,
  type SeriesChanges,
  type SeriesListFilters,
  type SeriesRow,
  updateSeries,
} from "./series/service.js";
export {
  type DocumentSettingsChanges,
  type DocumentSettingsRow,
  getDocumentSettings,
  updateDocumentSettings,
} from "./settings/service.js";
export type { Direction, DocumentKind } from "./tables.js";
export {
  createTaxCode,
  findTaxCodeByCode,
  findTaxCodeOfCompany,
  getTaxCode,
  listTaxCodes,
  type NewTaxCode,
  type TaxCodeFields,
  type TaxCodeListFilters,
  type TaxCodeRow,
  taxCodeProblems,
  updateTaxCode,
} from "./taxes/service.js";
