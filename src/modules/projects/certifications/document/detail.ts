import type { Dec } from "../../../../platform/money.js";
import { sum } from "../../../../platform/money.js";
import type { CertificationLineView, ChapterLines } from "../view.js";
import { dateEs, moneyEs } from "./format.js";
import { bottomOf, COLOR, contentWidth, type DocContext, FONT, MARGIN, rule } from "./layout.js";
import { type Column, drawHeader, drawRow, rowHeight } from "./table.js";

interface DetailRow {
  code: string;
  unit: string;
  summary: string;
  price: string;
  quantityToOrigin: string;
  quantityPrevious: string;
  quantityThisPeriod: string;
  amountToOrigin: string;
  amountPrevious: string;
  amountThisPeriod: string;
}

function detailColumns(width: number): Column<DetailRow>[] {
  const quantity = 56;
  const amount = 66;
  const fixed = 64 + 28 + 56 + 3 * quantity + 3 * amount;
  return [
    { title: "Código", width: 64, align: "left", value: (r) => r.code },
    { title: "Ud", width: 28, align: "left", value: (r) => r.unit },
    { title: "Descripción", width: width - fixed, align: "left", value: (r) => r.summary },
    { title: "Precio", width: 56, align: "right", value: (r) => r.price },
    { title: "Cant. origen", width: quantity, align: "right", value: (r) => r.quantityToOrigin },
    { title: "Cant. anterior", width: quantity, align: "right", value: (r) => r.quantityPrevious },
    { title: "Cant. periodo", width: quantity, align: "right", value: (r) => r.quantityThisPeriod },
    { title: "Importe origen", width: amount, align: "right", value: (r) => r.amountToOrigin },
    { title: "Importe anterior", width: amount, align: "right", value: (r) => r.amountPrevious },
    { title: "Importe periodo", width: amount, align: "right", value: (r) => r.amountThisPeriod },
  ];
}

const blank: DetailRow = {
  code: "",
  unit: "",
  summary: "",
  price: "",
  quantityToOrigin: "",
  quantityPrevious: "",
  quantityThisPeriod: "",
  amountToOrigin: "",
  amountPrevious: "",
  amountThisPeriod: "",
};

function lineRow(ctx: DocContext, l: CertificationLineView): DetailRow {
  return {
    code: l.code,
    unit: l.unit,
    summary: l.summary,
    price: ctx.price(l.unitPrice),
    quantityToOrigin: ctx.quantity(l.quantityToOrigin),
    quantityPrevious: ctx.quantity(l.quantityPrevious),
    quantityThisPeriod: ctx.quantity(l.quantityThisPeriod),
    amountToOrigin: moneyEs(l.amountToOrigin),
    amountPrevious: moneyEs(l.amountPrevious),
    amountThisPeriod: moneyEs(l.amountThisPeriod),
  };
}

function totalRow(label: string, lines: readonly CertificationLineView[]): DetailRow {
  const total = (pick: (l: CertificationLineView) => Dec) => moneyEs(sum(lines.map(pick)));
  return {
    ...blank,
    summary: label,
    amountToOrigin: total((l) => l.amountToOrigin),
    amountPrevious: total((l) => l.amountPrevious),
    amountThisPeriod: total((l) => l.amountThisPeriod),
  };
}

function pageTop(ctx: DocContext, columns: Column<DetailRow>[], continued: boolean): number {
  const { doc, view, contractor } = ctx;
  doc.addPage({ size: "A4", layout: "landscape", margin: MARGIN });
  const width = contentWidth(doc);
  const title = `RELACIÓN VALORADA — CERTIFICACIÓN Nº ${view.certification.number}${continued ? " (continuación)" : ""}`;
  doc
    .font(FONT.bold)
    .fontSize(11)
    .fillColor(COLOR.accent)
    .text(title, MARGIN, MARGIN, { width, lineBreak: false });
  doc
    .font(FONT.regular)
    .fontSize(8.5)
    .fillColor(COLOR.text)
    .text(contractor ? contractor.legalName || contractor.name : "", MARGIN, MARGIN, {
      width,
      align: "right",
      lineBreak: false,
    });
  const period = `Periodo: del ${dateEs(view.certification.periodStart)} al ${dateEs(view.certification.periodEnd)}`;
  doc.text(`Obra: ${view.budget.name} (${view.budget.code})`, MARGIN, MARGIN + 16, { width: width - 200 });
  const workBottom = doc.y;
  doc.text(period, MARGIN, MARGIN + 16, { width, align: "right", lineBreak: false });
  const y = Math.max(workBottom, MARGIN + 28) + 4;
  rule(doc, y, COLOR.accent, 1);
  return drawHeader(doc, columns, MARGIN, y + 6);
}

/**
 * The lines of the chapters with work this period (a chapter with nothing this period is only in the
 * summary), each with its previous amount, descriptions wrapped, and a total per chapter.
 */
export function detailPages(ctx: DocContext) {
  const { doc, view } = ctx;
  const moving = view.chapters.filter((g) => g.lines.some((l) => !l.amountThisPeriod.isZero()));
  if (moving.length === 0) return;
  let columns: Column<DetailRow>[] = [];
  let y = 0;
  const fits = (height: number) => y + height <= bottomOf(doc);
  const newPage = (continued: boolean) => {
    y = pageTop(ctx, columns, continued);
  };
  columns = detailColumns(841.89 - 2 * MARGIN);
  newPage(false);
  for (const group of moving) {
    const heading = chapterHeading(group);
    const first = group.lines[0] ? lineRow(ctx, group.lines[0]) : blank;
    if (!fits(rowHeight(doc, columns, heading, { bold: true }) + rowHeight(doc, columns, first)))
      newPage(true);
    y = drawRow(doc, columns, heading, MARGIN, y, { bold: true, fill: "#f3f6f9" });
    for (const line of group.lines) {
      const row = lineRow(ctx, line);
      if (!fits(rowHeight(doc, columns, row))) {
        newPage(true);
        const again = { ...heading, summary: `${heading.summary} (continuación)` };
        y = drawRow(doc, columns, again, MARGIN, y, { bold: true, fill: "#f3f6f9" });
      }
      y = drawRow(doc, columns, row, MARGIN, y);
    }
    const total = totalRow(`Total capítulo ${group.chapter?.code ?? ""}`.trim(), group.lines);
    if (!fits(rowHeight(doc, columns, total, { bold: true }))) newPage(true);
    y = drawRow(doc, columns, total, MARGIN, y, { bold: true, under: "strong" }) + 6;
  }
  const all = totalRow(
    "Total relación valorada",
    moving.flatMap((g) => g.lines),
  );
  if (!fits(rowHeight(doc, columns, all, { bold: true }))) newPage(true);
  drawRow(doc, columns, all, MARGIN, y, { bold: true, fill: COLOR.band, under: "strong" });
}

function chapterHeading(group: ChapterLines): DetailRow {
  return group.chapter
    ? { ...blank, code: group.chapter.code, summary: group.chapter.summary.toUpperCase() }
    : { ...blank, summary: "PARTIDAS SIN CAPÍTULO" };
}
