import type { AuthedCtx } from "../../../platform/http/context.js";
import type { PdfQr } from "./pdf.js";
import type { DocumentHeader } from "./repository.js";
import type { DocumentView } from "./view.js";

/**
 * Extension points of the engine for modules that build on it without the engine importing them
 * (VeriFactu records issued invoices and puts its QR on their PDF).
 */

/** An invoice just issued (sales) or approved (purchases), as stored, with its number and code. */
export type FinalizedInvoice = DocumentHeader & { code: string; number: number; year: number };

/** Runs inside the transaction that finalizes the invoice: if it throws, nothing is finalized. */
export type InvoiceFinalizedHook = (tx: AuthedCtx, invoice: FinalizedInvoice) => Promise<void>;

/** What to draw in the PDF's reserved QR square for a document, or null. */
export type PdfQrProvider = (ctx: AuthedCtx, document: DocumentView) => Promise<PdfQr | null>;

const finalizedHooks = new Set<InvoiceFinalizedHook>();
let qrProvider: PdfQrProvider | null = null;

export function onInvoiceFinalized(fn: InvoiceFinalizedHook): void {
  finalizedHooks.add(fn);
}

export async function runInvoiceFinalizedHooks(tx: AuthedCtx, invoice: FinalizedInvoice): Promise<void> {
  for (const hook of finalizedHooks) await hook(tx, invoice);
}

export function setPdfQrProvider(fn: PdfQrProvider): void {
  qrProvider = fn;
}

export function pdfQrOf(ctx: AuthedCtx, document: DocumentView): Promise<PdfQr | null> {
  return qrProvider ? qrProvider(ctx, document) : Promise.resolve(null);
}
