import type PDFDocument from "pdfkit";
import { lazyImport } from "./lazy.js";

/**
 * pdfkit's document class, imported on first use: with fontkit, brotli and its font tables it
 * costs ~24 MB of memory, which only PDF rendering and the logo check need (issue 21).
 */
export const loadPdfKit: () => Promise<typeof PDFDocument> = lazyImport(
  async () => (await import("pdfkit")).default,
);
