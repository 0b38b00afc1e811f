import type { Decimal } from "decimal.js";
import type { Contractor } from "../service.js";
import type { CertificationView } from "../view.js";

export type Doc = PDFKit.PDFDocument;

/** The fonts registered on every certification document (TrueType, embedded). */
export const FONT = { regular: "Body", bold: "Body-Bold", italic: "Body-Italic" } as const;
export const COLOR = {
  text: "#1f2328",
  muted: "#57606a",
  accent: "#1f3a5f",
  band: "#e7edf4",
  rule: "#c9d1d9",
};
export const MARGIN = 40;

/** What every part of the document draws from. */
export interface DocContext {
  doc: Doc;
  view: CertificationView;
  contractor: Contractor | null;
  price: (v: Decimal.Value) => string;
  quantity: (v: Decimal.Value) => string;
}

export const contentWidth = (doc: Doc): number => doc.page.width - 2 * MARGIN;
/** The lowest y the body may reach: the footer lives below it. */
export const bottomOf = (doc: Doc): number => doc.page.height - MARGIN - 18;

export function rule(doc: Doc, y: number, color: string = COLOR.rule, width = 0.6) {
  doc
    .save()
    .lineWidth(width)
    .strokeColor(color)
    .moveTo(MARGIN, y)
    .lineTo(MARGIN + contentWidth(doc), y)
    .stroke()
    .restore();
}

/** A heading band: accent text on a light band across the page. */
export function sectionTitle(doc: Doc, title: string, y: number): number {
  doc.save().rect(MARGIN, y, contentWidth(doc), 16).fill(COLOR.band).restore();
  doc
    .font(FONT.bold)
    .fontSize(9)
    .fillColor(COLOR.accent)
    .text(title, MARGIN + 6, y + 4, { width: contentWidth(doc) - 12, lineBreak: false });
  doc.fillColor(COLOR.text);
  return y + 22;
}

/** The contractor's lines under its name: tax id, street, postal code and town. */
export function contractorLines(c: Contractor): string[] {
  const town = [c.postalCode, c.city].filter(Boolean).join(" ");
  const place = c.province && c.province !== c.city ? `${town} (${c.province})` : town;
  return [`CIF/NIF: ${c.taxId}`, c.address, place].filter((l) => l.trim() !== "");
}
