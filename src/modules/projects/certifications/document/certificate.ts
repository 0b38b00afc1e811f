import { type Dec, dec, sum } from "../../../../platform/money.js";
import { type ChapterSummary, executed } from "../view.js";
import { dateEs, longDateEs, moneyEs, percentEs } from "./format.js";
import { bottomOf, COLOR, contentWidth, type DocContext, FONT, MARGIN, sectionTitle } from "./layout.js";
import { type Column, drawHeader, drawRow, rowHeight } from "./table.js";

/** Payments on account (LCSP art. 240 wording): what the owner signs is not the final measurement. */
export const ON_ACCOUNT_CLAUSE =
  "La presente certificación tiene el carácter de abono a buena cuenta: queda sujeta a las rectificaciones " +
  "y variaciones que resulten de la medición final y de la liquidación de las obras, y no supone en forma " +
  "alguna aprobación ni recepción de las obras que comprende.";

interface SummaryRow {
  code: string;
  title: string;
  budget: Dec;
  toOrigin: Dec;
  previous: Dec;
  thisPeriod: Dec;
  executedPct: Dec | null;
}

const pctCell = (p: Dec | null) => (p === null ? "—" : percentEs(p));

function summaryColumns(width: number): Column<SummaryRow>[] {
  const amount = 66;
  return [
    { title: "Cap.", width: 38, align: "left", value: (r) => r.code },
    { title: "Capítulo", width: width - 38 - 4 * amount - 44, align: "left", value: (r) => r.title },
    { title: "Presupuesto", width: amount, align: "right", value: (r) => moneyEs(r.budget) },
    { title: "A origen", width: amount, align: "right", value: (r) => moneyEs(r.toOrigin) },
    { title: "Anterior", width: amount, align: "right", value: (r) => moneyEs(r.previous) },
    { title: "Este periodo", width: amount, align: "right", value: (r) => moneyEs(r.thisPeriod) },
    { title: "% ejec.", width: 44, align: "right", value: (r) => pctCell(r.executedPct) },
  ];
}

const toRow = (c: ChapterSummary): SummaryRow => ({
  code: c.chapter?.code ?? "",
  title: c.chapter ? c.chapter.summary : "Partidas sin capítulo",
  ...c,
});

/** Adds a page when `needed` points do not fit below `y`; returns where to go on. */
function ensureSpace(ctx: DocContext, y: number, needed: number): number {
  if (y + needed <= bottomOf(ctx.doc)) return y;
  ctx.doc.addPage({ size: "A4", layout: "portrait", margin: MARGIN });
  return MARGIN;
}

/** Every chapter with its budget and certified amounts; the ones with no work this period are only here. */
export function chapterSummary(ctx: DocContext, startY: number): number {
  const { doc, view } = ctx;
  const columns = summaryColumns(contentWidth(doc));
  let y = sectionTitle(doc, "RESUMEN POR CAPÍTULOS (EJECUCIÓN MATERIAL)", ensureSpace(ctx, startY, 80));
  y = drawHeader(doc, columns, MARGIN, y);
  for (const chapter of view.summary) {
    const row = toRow(chapter);
    if (y + rowHeight(doc, columns, row) > bottomOf(doc)) {
      y = drawHeader(doc, columns, MARGIN, ensureSpace(ctx, y, Number.POSITIVE_INFINITY));
    }
    y = drawRow(doc, columns, row, MARGIN, y);
  }
  const budget = sum(view.summary.map((c) => c.budget));
  const toOrigin = sum(view.summary.map((c) => c.toOrigin));
  const total: SummaryRow = {
    code: "",
    title: "Total ejecución material",
    budget,
    toOrigin,
    previous: sum(view.summary.map((c) => c.previous)),
    thisPeriod: sum(view.summary.map((c) => c.thisPeriod)),
    executedPct: executed(toOrigin, budget),
  };
  y = drawRow(doc, columns, total, MARGIN, ensureSpace(ctx, y, 20), { bold: true, under: "strong" });
  const idle = view.summary.filter((c) => c.thisPeriod.isZero()).length;
  if (idle > 0) {
    const moving = view.summary.length - idle;
    const folded =
      idle === 1
        ? "1 capítulo sin obra en este periodo figura"
        : `${idle} capítulos sin obra en este periodo figuran`;
    const detail =
      moving === 0
        ? "no hay obra en el periodo, por lo que no se adjunta relación valorada."
        : `la relación valorada adjunta detalla ${moving === 1 ? "el capítulo" : `los ${moving} capítulos`} con obra en el periodo.`;
    doc
      .font(FONT.italic)
      .fontSize(7.5)
      .fillColor(COLOR.muted)
      .text(`${folded} solo en este resumen; ${detail}`, MARGIN, y + 4, { width: contentWidth(doc) });
    y = doc.y;
  }
  doc.fillColor(COLOR.text);
  return y + 12;
}

type Line = [label: string, amount: Dec, style: "plain" | "sum" | "final"];

function settlementLines(ctx: DocContext): Line[] {
  const { view } = ctx;
  const t = view.totals;
  const b = view.budget;
  const previous =
    view.previousNumber === null
      ? "A deducir: certificaciones anteriores"
      : `A deducir: certificado hasta la nº ${view.previousNumber}`;
  const lines: Line[] = [
    ["Ejecución material a origen", t.pemToOrigin, "plain"],
    [previous, t.pemPrevious.negated(), "plain"],
    ["Ejecución material de esta certificación", t.pemThisPeriod, "sum"],
    [`Gastos generales (${percentEs(b.overheadsPct)})`, t.overheads, "plain"],
    [`Beneficio industrial (${percentEs(b.profitPct)})`, t.profit, "plain"],
    ["Importe de ejecución por contrata", t.subtotal, "sum"],
  ];
  if (!dec(b.discountPct).isZero()) {
    lines.push([`Baja de adjudicación (${percentEs(b.discountPct)})`, t.discount.negated(), "plain"]);
  }
  lines.push(
    ["Base imponible", t.taxableBase, "sum"],
    [`IVA (${percentEs(b.vatPct)})`, t.vat, "plain"],
    ["Total certificación", t.total, "sum"],
    [
      `Retención de garantía (${percentEs(view.retentionPct)} s/ base imponible)`,
      t.retention.negated(),
      "plain",
    ],
    ["LÍQUIDO A PERCIBIR", t.netPayable, "final"],
  );
  return lines;
}

/** The bill of the period, from the execution amount to the net payable. */
export function settlement(ctx: DocContext, startY: number): number {
  const { doc } = ctx;
  const lines = settlementLines(ctx);
  let y = sectionTitle(
    doc,
    "LIQUIDACIÓN DE LA CERTIFICACIÓN",
    ensureSpace(ctx, startY, 24 + lines.length * 13),
  );
  const width = contentWidth(doc);
  const amountWidth = 110;
  for (const [label, amount, style] of lines) {
    const height = style === "final" ? 17 : 12.5;
    if (style === "final")
      doc
        .save()
        .rect(MARGIN, y - 1, width, height)
        .fill(COLOR.accent)
        .restore();
    doc
      .font(style === "plain" ? FONT.regular : FONT.bold)
      .fontSize(style === "final" ? 10 : 8.5)
      .fillColor(style === "final" ? "#ffffff" : COLOR.text);
    const textY = y + (style === "final" ? 3 : 1.5);
    doc.text(label, MARGIN + 6, textY, { width: width - amountWidth - 12, lineBreak: false });
    doc.text(`${moneyEs(amount)} €`, MARGIN + width - amountWidth - 6, textY, {
      width: amountWidth,
      align: "right",
      lineBreak: false,
    });
    if (style === "sum") {
      doc
        .save()
        .lineWidth(0.5)
        .strokeColor(COLOR.rule)
        .moveTo(MARGIN + width - amountWidth, y - 1)
        .lineTo(MARGIN + width - 6, y - 1)
        .stroke()
        .restore();
    }
    y += height;
  }
  doc.fillColor(COLOR.text);
  return y + 10;
}

/** "En Logroño, a 30 de abril de 2025", or blanks to fill in by hand when place or date are not set. */
function placeAndDate(ctx: DocContext): string {
  const { certification } = ctx.view;
  const place = certification.issuePlace || ctx.contractor?.city || "";
  const date = certification.issueDate
    ? longDateEs(certification.issueDate)
    : "____ de ______________ de ______";
  return `En ${place || "______________________"}, a ${date}`;
}

interface Signature {
  title: string;
  name: string;
  date: string | null;
}

function signatures(ctx: DocContext): Signature[] {
  const { view, contractor } = ctx;
  const { budget, certification } = view;
  const issued = certification.issueDate;
  const approved = certification.validatedAt ? certification.validatedAt.toISOString().slice(0, 10) : null;
  return [
    { title: "LA DIRECCIÓN FACULTATIVA", name: budget.siteManagerName, date: issued },
    {
      title: "EL CONTRATISTA",
      name: [budget.contractorSignatory, contractor?.legalName || contractor?.name]
        .filter(Boolean)
        .join("\n"),
      date: issued,
    },
    {
      title: "CONFORME, LA PROPIEDAD",
      name: [budget.ownerSignatory, budget.clientName].filter(Boolean).join("\n"),
      date: approved,
    },
  ];
}

const SIGNATURE_HEIGHT = 92;

/** The clause, observations, place and date, and the three signature blocks, kept on one page. */
export function closing(ctx: DocContext, startY: number): number {
  const { doc, view } = ctx;
  const width = contentWidth(doc);
  doc.font(FONT.italic).fontSize(8);
  const clauseHeight = doc.heightOfString(ON_ACCOUNT_CLAUSE, { width, align: "justify" });
  const notes = view.certification.notes.trim();
  doc.font(FONT.regular).fontSize(8);
  const notesHeight = notes ? doc.heightOfString(notes, { width }) + 14 : 0;
  let y = ensureSpace(ctx, startY, clauseHeight + notesHeight + 24 + SIGNATURE_HEIGHT);

  doc
    .font(FONT.italic)
    .fontSize(8)
    .fillColor(COLOR.text)
    .text(ON_ACCOUNT_CLAUSE, MARGIN, y, { width, align: "justify" });
  y = doc.y + 8;
  if (notes) {
    doc.font(FONT.bold).fontSize(8).text("Observaciones", MARGIN, y);
    doc
      .font(FONT.regular)
      .fontSize(8)
      .text(notes, MARGIN, doc.y + 2, { width });
    y = doc.y + 8;
  }
  doc.font(FONT.regular).fontSize(9).text(placeAndDate(ctx), MARGIN, y, { width, align: "right" });
  y = doc.y + 12;

  const gap = 14;
  const blockWidth = (width - 2 * gap) / 3;
  signatures(ctx).forEach((s, i) => {
    const x = MARGIN + i * (blockWidth + gap);
    doc
      .font(FONT.bold)
      .fontSize(8)
      .fillColor(COLOR.accent)
      .text(s.title, x, y, { width: blockWidth, align: "center" });
    const lineY = y + 46;
    doc
      .save()
      .lineWidth(0.6)
      .strokeColor(COLOR.muted)
      .moveTo(x + 8, lineY)
      .lineTo(x + blockWidth - 8, lineY)
      .stroke()
      .restore();
    doc.font(FONT.regular).fontSize(8).fillColor(COLOR.text);
    doc.text(`Fdo.: ${s.name || "______________________"}`, x, lineY + 4, {
      width: blockWidth,
      align: "center",
    });
    doc.text(`Fecha: ${s.date ? dateEs(s.date) : "____/____/________"}`, x, doc.y + 2, {
      width: blockWidth,
      align: "center",
    });
  });
  return y + SIGNATURE_HEIGHT;
}
