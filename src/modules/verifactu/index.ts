/**
 * VeriFactu: chained registration records of issued sales invoices, their QR on the PDF, the AEAT
 * XML, the event log and the submission queue. Importing it hooks into the documents engine (the
 * engine never imports VeriFactu): every issued sales invoice of a company with VeriFactu on gets
 * its record in the issuing transaction, and its PDF the QR.
 */
import { onInvoiceFinalized, setPdfQrProvider } from "../documents/index.js";
import { pdfQr, qrUrl } from "./qr.js";
import { qrFieldsOf, registerIssuedInvoice } from "./service.js";

onInvoiceFinalized(registerIssuedInvoice);
setPdfQrProvider(async (ctx, document) => {
  if (document.direction !== "sale" || document.kind !== "invoice" || document.estado !== "emitida")
    return null;
  const fields = await qrFieldsOf(ctx.db, document.id);
  return fields ? pdfQr(qrUrl(fields)) : null;
});

export { type VerifactuRoutesOptions, verifactuRoutes } from "./routes.js";
