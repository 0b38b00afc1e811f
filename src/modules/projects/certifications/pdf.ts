import { loadPdfKit } from "../../../platform/pdfkit.js";
import { chapterSummary, closing, settlement } from "./document/certificate.js";
import { detailPages } from "./document/detail.js";
import { loadDocumentFonts } from "./document/fonts.js";
import { decimalsFormatter } from "./document/format.js";
import { COLOR, contentWidth, type Doc, type DocContext, FONT, MARGIN } from "./document/layout.js";
import { contractData, letterhead } from "./document/letterhead.js";
import type { Contractor } from "./service.js";
import type { CertificationView } from "./view.js";

export { formatEs } from "./document/format.js";

export function certificationPdfFileName(view: CertificationView): string {
  const code = view.budget.code.replace(/[^A-Za-z0-9._-]+/g, "_");
  return `certificacion-${code}-${view.certification.number}.pdf`;
}

/** "Certificación nº 3 · OBRA-25" on the left and "Página 1 de 4" on the right of every page. */
function footers(doc: Doc, view: CertificationView) {
  const { start, count } = doc.bufferedPageRange();
  for (let i = start; i < start + count; i++) {
    doc.switchToPage(i);
    const y = doc.page.height - MARGIN - 8;
    // The footer sits in the bottom margin: no automatic page break while writing it.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font(FONT.regular).fontSize(7).fillColor(COLOR.muted);
    doc.text(`Certificación nº ${view.certification.number} · ${view.budget.code}`, MARGIN, y, {
      width: contentWidth(doc) - 80,
      lineBreak: false,
    });
    doc.text(`Página ${i + 1} de ${count}`, MARGIN, y, {
      width: contentWidth(doc),
      align: "right",
      lineBreak: false,
    });
    doc.page.margins.bottom = bottom;
  }
}

/**
 * The certificación de obra: page 1 (contractor, work and owner, chapter summary, settlement, the
 * "a buena cuenta" clause and the signatures), then the relación valorada in landscape.
 */
export async function renderCertificationPdf(
  view: CertificationView,
  contractor: Contractor | null,
): Promise<Buffer> {
  const [PDFDocument, fonts] = await Promise.all([loadPdfKit(), loadDocumentFonts()]);
  const doc = new PDFDocument({
    size: "A4",
    margin: MARGIN,
    bufferPages: true,
    autoFirstPage: false,
    info: {
      Title: `Certificación nº ${view.certification.number} — ${view.budget.name}`,
      Author: contractor ? contractor.legalName || contractor.name : "",
      Subject: `Certificación de obra ${view.budget.code}`,
    },
  });
  doc.registerFont(FONT.regular, fonts.regular);
  doc.registerFont(FONT.bold, fonts.bold);
  doc.registerFont(FONT.italic, fonts.italic);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  const decimals = view.budget.decimals ?? {};
  const ctx: DocContext = {
    doc,
    view,
    contractor,
    price: decimalsFormatter(
      decimals.price,
      2,
      4,
      view.lines.map((l) => l.unitPrice),
    ),
    quantity: decimalsFormatter(
      decimals.quantity,
      2,
      3,
      view.lines.flatMap((l) => [l.quantityToOrigin, l.quantityPrevious]),
    ),
  };
  doc.addPage({ size: "A4", layout: "portrait", margin: MARGIN });
  let y = letterhead(ctx);
  y = contractData(ctx, y);
  y = chapterSummary(ctx, y);
  y = settlement(ctx, y);
  closing(ctx, y);
  detailPages(ctx);
  footers(doc, view);
  doc.end();
  return done;
}
