import type { Decimal } from "decimal.js";
import PDFDocument from "pdfkit";
import { sum, toMoney, toQuantity, toUnitPrice } from "../../../platform/money.js";
import type { CertificationLineView, CertificationView, ChapterLines } from "./view.js";

type Doc = PDFKit.PDFDocument;

const MARGIN = 36;
const ROW = 14;
/** A4 landscape. */
const PAGE = { width: 841.89, height: 595.28 };
const BOTTOM = PAGE.height - MARGIN - 20;
const HEADER_FONT = "Helvetica-Bold";
const BODY_FONT = "Helvetica";

interface Column {
  title: string;
  width: number;
  align: "left" | "right";
  value: (line: CertificationLineView) => string;
}

/** Spanish number format: 1.234,56 */
export function formatEs(fixed: string): string {
  const negative = fixed.startsWith("-");
  const [integer, fraction] = (negative ? fixed.slice(1) : fixed).split(".");
  const grouped = integer.replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return `${negative ? "-" : ""}${grouped}${fraction === undefined ? "" : `,${fraction}`}`;
}

const money = (v: Decimal.Value) => formatEs(toMoney(v));
const quantity = (v: Decimal.Value) => formatEs(toQuantity(v));
const dateEs = (iso: string) => iso.split("-").reverse().join("/");

const COLUMNS: Column[] = [
  { title: "Código", width: 58, align: "left", value: (l) => l.code },
  { title: "Resumen", width: 222, align: "left", value: (l) => l.summary },
  { title: "Ud", width: 30, align: "left", value: (l) => l.unit },
  { title: "Cant. origen", width: 64, align: "right", value: (l) => quantity(l.quantityToOrigin) },
  { title: "Cant. anterior", width: 64, align: "right", value: (l) => quantity(l.quantityPrevious) },
  { title: "Cant. periodo", width: 64, align: "right", value: (l) => quantity(l.quantityThisPeriod) },
  { title: "Precio", width: 62, align: "right", value: (l) => formatEs(toUnitPrice(l.unitPrice)) },
  { title: "Importe origen", width: 72, align: "right", value: (l) => money(l.amountToOrigin) },
  { title: "Importe periodo", width: 72, align: "right", value: (l) => money(l.amountThisPeriod) },
];

export function certificationPdfFileName(view: CertificationView): string {
  const code = view.budget.code.replace(/[^A-Za-z0-9._-]+/g, "_");
  return `certificacion-${code}-${view.certification.number}.pdf`;
}

/** Cuts `text` so it fits in `width` points on one line. */
function fitToWidth(doc: Doc, text: string, width: number): string {
  if (doc.widthOfString(text) <= width) return text;
  let cut = text;
  while (cut.length > 0 && doc.widthOfString(`${cut}…`) > width) cut = cut.slice(0, -1);
  return `${cut}…`;
}

function cell(doc: Doc, text: string, x: number, y: number, width: number, align: "left" | "right") {
  doc.text(fitToWidth(doc, text, width - 4), x + 2, y, { width: width - 4, align, lineBreak: false });
}

function pageHeader(doc: Doc, view: CertificationView, subtitle: string): number {
  const { budget, certification } = view;
  const right = PAGE.width - MARGIN;
  doc.font(HEADER_FONT).fontSize(14).text("Cuadra", MARGIN, MARGIN, { lineBreak: false });
  doc.fontSize(12).text(`Certificación nº ${certification.number}`, MARGIN, MARGIN, {
    width: right - MARGIN,
    align: "right",
    lineBreak: false,
  });
  doc.font(BODY_FONT).fontSize(9);
  const client = budget.clientTaxId ? `${budget.clientName} (NIF ${budget.clientTaxId})` : budget.clientName;
  const period = `Periodo: ${dateEs(certification.periodStart)} a ${dateEs(certification.periodEnd)}`;
  doc.text(fitToWidth(doc, `Obra: ${budget.code} — ${budget.name}`, 480), MARGIN, MARGIN + 22, {
    lineBreak: false,
  });
  doc.text(period, MARGIN, MARGIN + 22, { width: right - MARGIN, align: "right", lineBreak: false });
  doc.text(fitToWidth(doc, `Cliente: ${client || "—"}`, 480), MARGIN, MARGIN + 35, { lineBreak: false });
  doc.text(`Estado: ${certification.estado}`, MARGIN, MARGIN + 35, {
    width: right - MARGIN,
    align: "right",
    lineBreak: false,
  });
  doc
    .moveTo(MARGIN, MARGIN + 50)
    .lineTo(right, MARGIN + 50)
    .stroke();
  doc
    .font(HEADER_FONT)
    .fontSize(11)
    .text(fitToWidth(doc, subtitle, right - MARGIN), MARGIN, MARGIN + 58, {
      lineBreak: false,
    });
  return MARGIN + 80;
}

function tableHeader(doc: Doc, y: number): number {
  doc.font(HEADER_FONT).fontSize(8);
  let x = MARGIN;
  for (const c of COLUMNS) {
    cell(doc, c.title, x, y, c.width, c.align);
    x += c.width;
  }
  doc
    .moveTo(MARGIN, y + ROW - 3)
    .lineTo(x, y + ROW - 3)
    .stroke();
  doc.font(BODY_FONT);
  return y + ROW;
}

function chapterTitle(group: ChapterLines): string {
  return group.chapter ? `${group.chapter.code} ${group.chapter.summary}` : "Partidas sin capítulo";
}

function chapterPage(doc: Doc, view: CertificationView, group: ChapterLines) {
  const title = chapterTitle(group);
  let y = tableHeader(doc, pageHeader(doc, view, title));
  for (const line of group.lines) {
    if (y > BOTTOM - ROW * 2) {
      doc.addPage();
      y = tableHeader(doc, pageHeader(doc, view, `${title} (continuación)`));
    }
    doc.fontSize(8);
    let x = MARGIN;
    for (const c of COLUMNS) {
      cell(doc, c.value(line), x, y, c.width, c.align);
      x += c.width;
    }
    y += ROW;
  }
  const amountsX = MARGIN + COLUMNS.slice(0, -2).reduce((w, c) => w + c.width, 0);
  const [origin, period] = COLUMNS.slice(-2);
  doc
    .moveTo(MARGIN, y)
    .lineTo(amountsX + origin.width + period.width, y)
    .stroke();
  doc.font(HEADER_FONT).fontSize(8);
  cell(doc, "Total capítulo", MARGIN, y + 4, 200, "left");
  const toOrigin = sum(group.lines.map((l) => l.amountToOrigin));
  const thisPeriod = sum(group.lines.map((l) => l.amountThisPeriod));
  cell(doc, money(toOrigin), amountsX, y + 4, origin.width, "right");
  cell(doc, money(thisPeriod), amountsX + origin.width, y + 4, period.width, "right");
}

function totalsPage(doc: Doc, view: CertificationView) {
  const t = view.totals;
  const b = view.budget;
  const pct = (p: string) => `${formatEs(toMoney(p))} %`;
  const rows: [string, string, boolean][] = [
    ["Ejecución material a origen", money(t.pemToOrigin), false],
    ["Ejecución material anterior", money(t.pemPrevious), false],
    ["Ejecución material de esta certificación", money(t.pemThisPeriod), true],
    [`Gastos generales (${pct(b.overheadsPct)})`, money(t.overheads), false],
    [`Beneficio industrial (${pct(b.profitPct)})`, money(t.profit), false],
    ["Suma", money(t.subtotal), true],
    [`Baja (${pct(b.discountPct)})`, money(t.discount.negated()), false],
    ["Base imponible", money(t.taxableBase), true],
    [`IVA (${pct(b.vatPct)})`, money(t.vat), false],
    ["Total certificación", money(t.total), true],
    [`Retención de garantía (${pct(b.retentionPct)})`, money(t.retention.negated()), false],
    ["Líquido a percibir", money(t.netPayable), true],
  ];
  let y = pageHeader(doc, view, "Resumen de la certificación");
  for (const [label, value, bold] of rows) {
    doc.font(bold ? HEADER_FONT : BODY_FONT).fontSize(10);
    cell(doc, label, MARGIN, y, 320, "left");
    cell(doc, `${value} €`, MARGIN + 320, y, 130, "right");
    y += ROW + 4;
  }
  y += 30;
  doc.font(BODY_FONT).fontSize(9);
  cell(doc, "Conforme, la dirección facultativa", MARGIN, y, 300, "left");
  cell(doc, "El contratista", MARGIN + 400, y, 300, "left");
}

/** The certification as a PDF: one page per top-level chapter with its lines, then a totals page. */
export function renderCertificationPdf(view: CertificationView): Promise<Buffer> {
  const doc = new PDFDocument({
    size: "A4",
    layout: "landscape",
    margin: MARGIN,
    bufferPages: true,
    autoFirstPage: false,
    info: {
      Title: `Certificación nº ${view.certification.number} — ${view.budget.code}`,
      Author: "Cuadra",
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  for (const group of view.chapters) {
    doc.addPage();
    chapterPage(doc, view, group);
  }
  doc.addPage();
  totalsPage(doc, view);

  const { count } = doc.bufferedPageRange();
  for (let i = 0; i < count; i++) {
    doc.switchToPage(i);
    doc.font(BODY_FONT).fontSize(8);
    doc.text(`Página ${i + 1} de ${count}`, MARGIN, PAGE.height - MARGIN - 14, {
      width: PAGE.width - 2 * MARGIN,
      align: "right",
      lineBreak: false,
    });
  }
  doc.end();
  return done;
}
