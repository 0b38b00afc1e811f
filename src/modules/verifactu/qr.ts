import type { VerifactuConfig } from "../../config.js";
import { lazyImport } from "../../platform/lazy.js";
import type { PdfQr } from "../documents/index.js";
import { aeatDate } from "./hash.js";
import { qrBaseUrl } from "./runtime-config.js";

/**
 * The invoice's QR (Orden HAC/1177/2024 art. 21): the AEAT's ValidarQR URL with the issuer's NIF,
 * the invoice number, its date and ImporteTotal as registered, drawn from the QR's module matrix
 * as vector squares (crisp at any zoom, unlike a 1-bit PNG), with "VERI*FACTU" under it.
 */

export interface QrFields {
  issuerNif: string;
  invoiceNumber: string;
  /** yyyy-mm-dd */
  invoiceDate: string;
  importeTotal: string;
}

export function qrUrl(f: QrFields, config?: VerifactuConfig): string {
  const params = new URLSearchParams({
    nif: f.issuerNif,
    numserie: f.invoiceNumber,
    fecha: aeatDate(f.invoiceDate),
    importe: f.importeTotal,
  });
  return `${qrBaseUrl(config)}?${params.toString()}`;
}

/** qrcode (with pngjs) is imported when the first VeriFactu PDF is drawn, not at start. */
const qrcode = lazyImport(() => import("qrcode"));

/** The QR's modules, row by row (true = dark), error correction M as the AEAT asks. */
export async function qrMatrix(text: string): Promise<boolean[][]> {
  const { default: QRCode } = await qrcode();
  const qr = QRCode.create(text, { errorCorrectionLevel: "M" });
  const { size, data } = qr.modules;
  return Array.from({ length: size }, (_, r) =>
    Array.from({ length: size }, (_, c) => data[r * size + c] === 1),
  );
}

/** What pdfkit needs of a document to draw the squares. */
export interface RectCanvas {
  rect(x: number, y: number, w: number, h: number): unknown;
  fill(color?: string): unknown;
}

/** Draws the matrix inside a square of `size` points at (x, y), with a 2-module quiet zone. */
export function drawQr(canvas: RectCanvas, matrix: boolean[][], x: number, y: number, size: number): void {
  const quiet = 2;
  const cell = size / (matrix.length + 2 * quiet);
  matrix.forEach((row, r) => {
    row.forEach((dark, c) => {
      if (dark) canvas.rect(x + (c + quiet) * cell, y + (r + quiet) * cell, cell, cell);
    });
  });
  canvas.fill("#000000");
}

export const QR_CAPTION = "VERI*FACTU";

export async function pdfQr(url: string): Promise<PdfQr> {
  const matrix = await qrMatrix(url);
  return {
    caption: QR_CAPTION,
    draw: (doc, x, y, size) => drawQr(doc as unknown as RectCanvas, matrix, x, y, size),
  };
}
