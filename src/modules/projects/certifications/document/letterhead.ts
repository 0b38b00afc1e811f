import { sum } from "../../../../platform/money.js";
import { dateEs, moneyEs } from "./format.js";
import { COLOR, contentWidth, contractorLines, type DocContext, FONT, MARGIN, rule } from "./layout.js";

const LOGO_BOX = { width: 110, height: 46 };

/** pdfkit opens images with openImage (not in its type definitions): the image and its pixels. */
interface ImageOpener {
  openImage(src: Buffer): { width: number; height: number };
}

/** Draws the logo in its box, top left; returns the width it took. */
function drawLogo(doc: DocContext["doc"], logo: Buffer): number {
  const image = (doc as unknown as ImageOpener).openImage(logo);
  const scale = Math.min(LOGO_BOX.width / image.width, LOGO_BOX.height / image.height);
  doc.image(image as unknown as Buffer, MARGIN, MARGIN, {
    width: image.width * scale,
    height: image.height * scale,
  });
  return image.width * scale;
}

/** Page 1 top: the contractor (logo, then name, tax id, address beside it) and the certification's number and period. */
export function letterhead({ doc, view, contractor }: DocContext): number {
  const { certification, budget } = view;
  const width = contentWidth(doc);
  const leftWidth = width * 0.6;
  const logoWidth = contractor?.logo ? drawLogo(doc, contractor.logo) + 12 : 0;
  const textX = MARGIN + logoWidth;
  const textWidth = leftWidth - logoWidth;
  doc
    .font(FONT.bold)
    .fontSize(11)
    .fillColor(COLOR.accent)
    .text(
      contractor ? contractor.legalName || contractor.name : "Contratista sin empresa asignada",
      textX,
      MARGIN,
      {
        width: textWidth,
      },
    );
  doc.font(FONT.regular).fontSize(8.5).fillColor(COLOR.text);
  const lines = contractor
    ? contractorLines(contractor)
    : ["Asigne una empresa al presupuesto para imprimir sus datos"];
  for (const line of lines) doc.text(line, textX, doc.y + 1, { width: textWidth });
  const leftBottom = Math.max(doc.y, logoWidth ? MARGIN + LOGO_BOX.height : 0);

  const rightX = MARGIN + leftWidth + 10;
  const rightWidth = width - leftWidth - 10;
  doc
    .font(FONT.bold)
    .fontSize(15)
    .fillColor(COLOR.accent)
    .text(`CERTIFICACIÓN Nº ${certification.number}`, rightX, MARGIN, { width: rightWidth, align: "right" });
  doc.font(FONT.regular).fontSize(9).fillColor(COLOR.text);
  const facts = [
    `Periodo: del ${dateEs(certification.periodStart)} al ${dateEs(certification.periodEnd)}`,
    budget.fileNumber ? `Expediente: ${budget.fileNumber}` : "",
    certification.issueDate ? `Fecha de emisión: ${dateEs(certification.issueDate)}` : "",
    view.previousNumber === null
      ? "Primera certificación"
      : `Anterior: certificación nº ${view.previousNumber}`,
  ].filter(Boolean);
  for (const fact of facts) doc.text(fact, rightX, doc.y + 2, { width: rightWidth, align: "right" });
  const y = Math.max(leftBottom, doc.y) + 8;
  rule(doc, y, COLOR.accent, 1.2);
  return y + 10;
}

type Pair = [label: string, value: string];

const LABEL_WIDTH = 92;
const PAIR_GAP = 3;

function pairsHeight(ctx: DocContext, pairs: readonly Pair[], width: number): number {
  const { doc } = ctx;
  let height = 0;
  for (const [label, value] of pairs) {
    doc.font(FONT.bold).fontSize(7.5);
    const labelHeight = doc.heightOfString(label, { width: LABEL_WIDTH - 4 });
    doc.font(FONT.regular).fontSize(8.5);
    height +=
      Math.max(labelHeight, doc.heightOfString(value, { width: width - LABEL_WIDTH - 12 })) + PAIR_GAP;
  }
  return height;
}

function box(
  ctx: DocContext,
  title: string,
  pairs: readonly Pair[],
  x: number,
  y: number,
  width: number,
  height: number,
) {
  const { doc } = ctx;
  doc.save().lineWidth(0.6).strokeColor(COLOR.rule).rect(x, y, width, height).stroke().restore();
  doc.save().rect(x, y, width, 15).fill(COLOR.accent).restore();
  doc
    .font(FONT.bold)
    .fontSize(8)
    .fillColor("#ffffff")
    .text(title, x + 6, y + 4, { width: width - 12, lineBreak: false });
  let cy = y + 21;
  for (const [label, value] of pairs) {
    doc.font(FONT.bold).fontSize(7.5).fillColor(COLOR.muted);
    doc.text(label, x + 6, cy + 0.8, { width: LABEL_WIDTH - 4 });
    const labelBottom = doc.y;
    doc.font(FONT.regular).fontSize(8.5).fillColor(COLOR.text);
    doc.text(value, x + LABEL_WIDTH + 6, cy, { width: width - LABEL_WIDTH - 12 });
    cy = Math.max(labelBottom, doc.y) + PAIR_GAP;
  }
}

/** The work and the owner, side by side. Empty fields are left out. */
export function contractData(ctx: DocContext, y: number): number {
  const { doc, view } = ctx;
  const b = view.budget;
  const pem = sum(view.summary.map((c) => c.budget));
  const work: Pair[] = [
    ["Obra", b.name],
    ["Código", b.code],
    ["Emplazamiento", b.siteAddress],
    ["Importe de contrato", b.contractAmount === null ? "" : `${moneyEs(b.contractAmount)} € (IVA excluido)`],
    ["Presupuesto de ejecución material", `${moneyEs(pem)} €`],
    ["Dirección facultativa", b.siteManagerName],
  ].filter((p): p is Pair => p[1] !== "");
  const owner: Pair[] = [
    ["Promotor", b.clientName],
    ["NIF", b.clientTaxId ?? ""],
    ["Domicilio", b.ownerAddress],
  ].filter((p): p is Pair => p[1] !== "");
  if (owner.length === 0) owner.push(["Promotor", "—"]);

  const gap = 12;
  const width = (contentWidth(doc) - gap) / 2;
  const height = 26 + Math.max(pairsHeight(ctx, work, width), pairsHeight(ctx, owner, width));
  box(ctx, "DATOS DE LA OBRA", work, MARGIN, y, width, height);
  box(ctx, "PROPIEDAD (PROMOTOR)", owner, MARGIN + width + gap, y, width, height);
  return y + height + 12;
}
