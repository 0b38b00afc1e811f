import { Dec } from "../../../platform/money.js";
import { loadPdfKit } from "../../../platform/pdfkit.js";
import type { IrpfGroup, TaxGroup } from "../totals.js";
import {
  formatAmount,
  formatDate,
  formatEuro,
  formatQuantity,
  formatRate,
  formatUnitPrice,
} from "./format.js";

type Doc = PDFKit.PDFDocument;

export interface Party {
  name: string;
  taxId: string | null;
  address?: string | null;
  postalCode?: string | null;
  city?: string | null;
  province?: string | null;
  /** ISO code or name; shown when not Spain. */
  country?: string | null;
}

export interface InvoicePdfLine {
  reference?: string | null;
  description: string;
  quantity: string;
  unitPrice: string;
  discount1: string;
  discount2: string;
  vatRate: string;
  /** Suplido: no VAT applies, the VAT column shows a dash. */
  supplied?: boolean;
  /** The line's amount after its own discounts. */
  net: string;
}

export interface InvoicePdfView {
  /** "Factura", "Factura rectificativa", "Presupuesto", "Pedido", "Albarán", "Factura de proveedor". */
  title: string;
  /** Null for a draft (no number yet). */
  code: string | null;
  issueDate: string | null;
  operationDate?: string | null;
  dueDate?: string | null;
  /** The label of `dueDate`: "Vencimiento" (default), "Válido hasta" for an estimate. */
  dueDateLabel?: string;
  /** More header data under the number and dates (a supplier's own invoice number...). */
  references?: Array<[label: string, value: string]>;
  seller: Party;
  customer: Party;
  lines: InvoicePdfLine[];
  taxGroups: TaxGroup[];
  irpfGroups: IrpfGroup[];
  totals: {
    grossNet: string;
    net: string;
    vat: string;
    re: string;
    irpf: string;
    supplied: string;
    total: string;
  };
  rectifies?: {
    code: string;
    issueDate: string;
    reason?: string | null;
    /** I: by differences, S: by substitution (RD 1619/2012 art. 15). */
    type?: "I" | "S" | null;
  } | null;
  dueDates: Array<{ dueDate: string; amount: string; status?: string | null }>;
  paymentMethod?: string | null;
  notes?: string | null;
  /** VeriFactu QR, drawn in the reserved top-right square of the first page. */
  qr?: { draw: (doc: Doc, x: number, y: number, size: number) => void; caption: string } | null;
}

const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = 40;
const RIGHT = PAGE.width - MARGIN;
const CONTENT = RIGHT - MARGIN;
/** Lowest y for content; the footer sits below. */
const BOTTOM = PAGE.height - MARGIN - 22;
const MM = 72 / 25.4;
/** The VeriFactu QR must be 30-40 mm: the reserved square is 30 mm. */
export const QR_SIZE = 30 * MM;
export const QR_BOX = { x: RIGHT - QR_SIZE, y: MARGIN, size: QR_SIZE };

const BOLD = "Helvetica-Bold";
const REGULAR = "Helvetica";
const INK = "#1d1d1f";
const MUTED = "#5f6368";
const ACCENT = "#1f3a5f";
const HEAD_FILL = "#e9eef4";
const RULE = "#c9d1da";

const BODY_SIZE = 8;
const LINE_H = 10;
const PAD = 3;

interface Column {
  title: string;
  width: number;
  align: "left" | "right";
}
const COLUMNS = {
  reference: { title: "Referencia", width: 64, align: "left" },
  description: { title: "Descripción", width: 201, align: "left" },
  quantity: { title: "Cantidad", width: 48, align: "right" },
  price: { title: "Precio", width: 60, align: "right" },
  discount: { title: "Dto. %", width: 44, align: "right" },
  vat: { title: "IVA %", width: 34, align: "right" },
  amount: { title: "Importe", width: 64, align: "right" },
} satisfies Record<string, Column>;
const COLUMN_ORDER = Object.values(COLUMNS) as Column[];
const columnX = (column: Column) =>
  MARGIN + COLUMN_ORDER.slice(0, COLUMN_ORDER.indexOf(column)).reduce((x, c) => x + c.width, 0);

/** Word-wraps `text` to `width` with the current font, breaking words longer than a line; never drops text. */
function wrap(doc: Doc, text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.replace(/\r\n?/g, "\n").split("\n")) {
    let current = "";
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const candidate = current ? `${current} ${word}` : word;
      if (doc.widthOfString(candidate) <= width) {
        current = candidate;
        continue;
      }
      if (current) lines.push(current);
      current = "";
      let rest = word;
      while (doc.widthOfString(rest) > width) {
        let cut = rest.length - 1;
        while (cut > 1 && doc.widthOfString(rest.slice(0, cut)) > width) cut--;
        lines.push(rest.slice(0, cut));
        rest = rest.slice(cut);
      }
      current = rest;
    }
    lines.push(current);
  }
  while (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

function text(
  doc: Doc,
  value: string,
  x: number,
  y: number,
  width: number,
  align: "left" | "right" | "center" = "left",
) {
  doc.text(value, x, y, { width, align, lineBreak: false });
}

const isSpain = (country: string | null | undefined) =>
  !country || ["ES", "ESP", "ESPAÑA", "SPAIN"].includes(country.trim().toUpperCase());

function partyLines(party: Party): string[] {
  const place = [party.postalCode, party.city].filter(Boolean).join(" ");
  const province = party.province && party.province !== party.city ? ` (${party.province})` : "";
  return [
    party.taxId ? `NIF: ${party.taxId}` : "",
    party.address ?? "",
    place || province ? `${place}${province}`.trim() : "",
    isSpain(party.country) ? "" : (party.country ?? ""),
  ].filter(Boolean);
}

const documentLabel = (view: InvoicePdfView) => `${view.title} ${view.code ?? "(borrador)"}`;

class InvoiceRenderer {
  private y = MARGIN;

  constructor(
    private readonly doc: Doc,
    private readonly view: InvoicePdfView,
  ) {}

  render() {
    this.doc.addPage();
    this.firstPageHeader();
    this.linesTable();
    this.summary();
    this.footers();
  }

  private font(name: string, size: number, color = INK) {
    this.doc.font(name).fontSize(size).fillColor(color);
  }

  private newPage() {
    this.doc.addPage();
    const { doc, view } = this;
    this.font(BOLD, 10);
    text(doc, view.seller.name, MARGIN, MARGIN, CONTENT * 0.55);
    this.font(REGULAR, 9, MUTED);
    const dated = view.issueDate ? ` · ${formatDate(view.issueDate)}` : "";
    text(
      doc,
      `${documentLabel(view)}${dated} · ${view.customer.name} (continuación)`,
      MARGIN + CONTENT * 0.4,
      MARGIN + 1,
      CONTENT * 0.6,
      "right",
    );
    doc
      .moveTo(MARGIN, MARGIN + 16)
      .lineTo(RIGHT, MARGIN + 16)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
    this.y = MARGIN + 26;
  }

  /** Moves to a new page when `height` does not fit; returns whether it did. */
  private ensure(height: number): boolean {
    if (this.y + height <= BOTTOM) return false;
    this.newPage();
    return true;
  }

  private firstPageHeader() {
    const { doc, view } = this;
    const leftWidth = QR_BOX.x - MARGIN - 20;

    // Seller
    this.font(BOLD, 13);
    doc.text(view.seller.name, MARGIN, MARGIN, { width: leftWidth });
    this.font(REGULAR, 8.5, MUTED);
    for (const l of partyLines(view.seller)) doc.text(l, { width: leftWidth });
    const sellerBottom = doc.y;

    // Reserved VeriFactu area: empty unless a QR is given
    let qrBottom = QR_BOX.y + QR_BOX.size;
    if (view.qr) {
      doc.save();
      view.qr.draw(doc, QR_BOX.x, QR_BOX.y, QR_BOX.size);
      doc.restore();
      this.font(REGULAR, 6.5, INK);
      const captionWidth = QR_BOX.size + 24;
      doc.text(view.qr.caption, QR_BOX.x - 12, QR_BOX.y + QR_BOX.size + 3, {
        width: captionWidth,
        align: "center",
      });
      qrBottom = doc.y;
    }

    // Title and document data (left), customer box (right)
    const top = Math.max(sellerBottom, qrBottom) + 14;
    this.font(BOLD, 18, ACCENT);
    doc.text(view.title.toUpperCase(), MARGIN, top, { width: 250 });
    let y = doc.y + 4;
    const meta: [string, string][] = [
      ["Número", view.code ?? "Borrador (sin número)"],
      ["Fecha", view.issueDate ? formatDate(view.issueDate) : "—"],
    ];
    if (view.operationDate && view.operationDate !== view.issueDate) {
      meta.push(["Fecha de operación", formatDate(view.operationDate)]);
    }
    if (view.dueDate) meta.push([view.dueDateLabel ?? "Vencimiento", formatDate(view.dueDate)]);
    meta.push(...(view.references ?? []));
    for (const [label, value] of meta) {
      this.font(REGULAR, 8.5, MUTED);
      text(doc, label, MARGIN, y, 90);
      this.font(BOLD, 9);
      text(doc, value, MARGIN + 92, y, 160);
      y += 13;
    }

    const boxX = MARGIN + 270;
    const boxWidth = RIGHT - boxX;
    const inner = boxWidth - 16;
    this.font(BOLD, 10);
    const nameHeight = doc.heightOfString(view.customer.name, { width: inner });
    this.font(REGULAR, 8.5);
    const details = partyLines(view.customer);
    const detailsHeight = details.reduce((h, l) => h + doc.heightOfString(l, { width: inner }), 0);
    const boxHeight = 8 + 11 + nameHeight + 2 + detailsHeight + 8;
    doc.roundedRect(boxX, top, boxWidth, boxHeight, 3).lineWidth(0.7).strokeColor(RULE).stroke();
    this.font(BOLD, 7, MUTED);
    doc.text("CLIENTE", boxX + 8, top + 8, { width: inner, characterSpacing: 0.8 });
    this.font(BOLD, 10);
    doc.text(view.customer.name, boxX + 8, top + 19, { width: inner });
    this.font(REGULAR, 8.5);
    doc.moveDown(0.15);
    for (const l of details) doc.text(l, boxX + 8, doc.y, { width: inner });

    this.y = Math.max(y, top + boxHeight) + 14;

    if (view.rectifies) {
      const r = view.rectifies;
      const how = r.type === "S" ? ", por sustitución" : r.type === "I" ? ", por diferencias" : "";
      const lines = [`Factura rectificativa de ${r.code} de ${formatDate(r.issueDate)}${how}`];
      if (r.reason) lines.push(`Motivo: ${r.reason}`);
      this.font(REGULAR, 8.5);
      const height = lines.reduce((h, l) => h + doc.heightOfString(l, { width: CONTENT - 16 }), 0) + 10;
      doc.rect(MARGIN, this.y, CONTENT, height).fillColor("#fff4e5").fill();
      doc.rect(MARGIN, this.y, 2.5, height).fillColor("#d9822b").fill();
      this.font(BOLD, 8.5);
      doc.text(lines[0], MARGIN + 10, this.y + 5, { width: CONTENT - 16 });
      if (lines[1]) {
        this.font(REGULAR, 8.5);
        doc.text(lines[1], MARGIN + 10, doc.y, { width: CONTENT - 16 });
      }
      this.y += height + 12;
    }
  }

  private tableHeader() {
    const { doc } = this;
    const height = LINE_H + 2 * PAD + 2;
    doc.rect(MARGIN, this.y, CONTENT, height).fillColor(HEAD_FILL).fill();
    this.font(BOLD, 7.5, ACCENT);
    for (const c of COLUMN_ORDER)
      text(doc, c.title, columnX(c) + PAD, this.y + PAD + 2, c.width - 2 * PAD, c.align);
    this.y += height;
  }

  private linesTable() {
    const { doc, view } = this;
    this.ensure(3 * (LINE_H + 2 * PAD));
    this.tableHeader();
    for (const line of view.lines) {
      this.font(REGULAR, BODY_SIZE);
      const refLines = line.reference ? wrap(doc, line.reference, COLUMNS.reference.width - 2 * PAD) : [];
      const descLines = wrap(doc, line.description, COLUMNS.description.width - 2 * PAD);
      const rowLines = Math.max(refLines.length, descLines.length, 1);
      let start = 0;
      while (start < rowLines) {
        const available = Math.floor((BOTTOM - this.y - 2 * PAD) / LINE_H);
        // Start a row on a new page rather than leave one or two of its lines at the bottom.
        if (available < 1 || (start === 0 && available < Math.min(rowLines, 3))) {
          this.newPage();
          this.tableHeader();
          continue;
        }
        const count = Math.min(available, rowLines - start);
        this.font(REGULAR, BODY_SIZE);
        const top = this.y + PAD;
        for (let i = 0; i < count; i++) {
          const ly = top + i * LINE_H + 1;
          if (refLines[start + i])
            text(doc, refLines[start + i], columnX(COLUMNS.reference) + PAD, ly, COLUMNS.reference.width);
          if (descLines[start + i])
            text(
              doc,
              descLines[start + i],
              columnX(COLUMNS.description) + PAD,
              ly,
              COLUMNS.description.width,
            );
        }
        if (start === 0) this.numericCells(line, top + 1);
        this.y += count * LINE_H + 2 * PAD;
        start += count;
        doc.moveTo(MARGIN, this.y).lineTo(RIGHT, this.y).lineWidth(0.4).strokeColor(RULE).stroke();
      }
    }
  }

  private numericCells(line: InvoicePdfLine, y: number) {
    const { doc } = this;
    const discounts = [line.discount1, line.discount2]
      .filter((d) => d && !new Dec(d).isZero())
      .map(formatRate);
    const cells: [Column, string][] = [
      [COLUMNS.quantity, formatQuantity(line.quantity)],
      [COLUMNS.price, formatUnitPrice(line.unitPrice)],
      [COLUMNS.discount, discounts.join(" + ")],
      [COLUMNS.vat, line.supplied ? "—" : formatRate(line.vatRate)],
      [COLUMNS.amount, formatAmount(line.net)],
    ];
    for (const [c, value] of cells) text(doc, value, columnX(c) + PAD, y, c.width - 2 * PAD, c.align);
  }

  private summary() {
    const { view } = this;
    const taxRows = view.taxGroups.length + 1;
    const irpfRows = view.irpfGroups.length ? view.irpfGroups.length + 1 : 0;
    const totalRows = this.totalRows();
    const leftHeight = 16 + taxRows * 14 + (irpfRows ? 10 + irpfRows * 14 : 0);
    const rightHeight = totalRows.length * 15 + 8;
    this.y += 14;
    this.ensure(Math.max(leftHeight, rightHeight) + 10);
    const top = this.y;
    const leftBottom = this.taxBreakdown(top);
    const rightBottom = this.totalsBox(top, totalRows);
    this.y = Math.max(leftBottom, rightBottom) + 16;
    this.dueDatesTable();
    this.paymentAndNotes();
  }

  private taxBreakdown(top: number): number {
    const { doc, view } = this;
    const withRe = view.taxGroups.some((g) => !new Dec(g.reRate).isZero());
    const cols: [string, number][] = [
      ["Base imponible", 78],
      ["% IVA", 40],
      ["Cuota IVA", 64],
    ];
    if (withRe) cols.push(["% RE", 36], ["Cuota RE", 56]);
    const width = cols.reduce((w, [, cw]) => w + cw, 0);
    this.font(BOLD, 8, ACCENT);
    text(doc, "Desglose de impuestos", MARGIN, top, width);
    let y = top + 14;
    const row = (values: string[], header: boolean) => {
      if (header)
        doc
          .rect(MARGIN, y - 3, width, 14)
          .fillColor(HEAD_FILL)
          .fill();
      this.font(header ? BOLD : REGULAR, header ? 7.5 : 8, header ? ACCENT : INK);
      let x = MARGIN;
      values.forEach((v, i) => {
        text(doc, v, x + PAD, y, cols[i][1] - 2 * PAD, "right");
        x += cols[i][1];
      });
      y += 14;
    };
    row(
      cols.map(([t]) => t),
      true,
    );
    for (const g of view.taxGroups) {
      const values = [formatEuro(g.base), `${formatRate(g.vatRate)} %`, formatEuro(g.vat)];
      if (withRe) values.push(`${formatRate(g.reRate)} %`, formatEuro(g.re));
      row(values, false);
    }
    if (view.irpfGroups.length) {
      y += 8;
      const irpfCols: [string, number][] = [
        ["Base retención", 78],
        ["% IRPF", 40],
        ["Retención IRPF", 64],
      ];
      const irpfWidth = irpfCols.reduce((w, [, cw]) => w + cw, 0);
      const irpfRow = (values: string[], header: boolean) => {
        if (header)
          doc
            .rect(MARGIN, y - 3, irpfWidth, 14)
            .fillColor(HEAD_FILL)
            .fill();
        this.font(header ? BOLD : REGULAR, header ? 7.5 : 8, header ? ACCENT : INK);
        let x = MARGIN;
        values.forEach((v, i) => {
          text(doc, v, x + PAD, y, irpfCols[i][1] - 2 * PAD, "right");
          x += irpfCols[i][1];
        });
        y += 14;
      };
      irpfRow(
        irpfCols.map(([t]) => t),
        true,
      );
      for (const g of view.irpfGroups) {
        irpfRow([formatEuro(g.base), `${formatRate(g.irpfRate)} %`, formatEuro(`-${g.amount}`)], false);
      }
    }
    return y;
  }

  private totalRows(): [string, string, boolean][] {
    const t = this.view.totals;
    const rows: [string, string, boolean][] = [];
    const nonZero = (v: string) => !new Dec(v).isZero();
    if (!new Dec(t.grossNet).eq(t.net)) {
      rows.push(["Subtotal", formatEuro(t.grossNet), false]);
      rows.push(["Descuento", formatEuro(new Dec(t.net).minus(t.grossNet).toFixed(2)), false]);
    }
    rows.push(["Base imponible", formatEuro(t.net), false]);
    rows.push(["IVA", formatEuro(t.vat), false]);
    if (nonZero(t.re)) rows.push(["Recargo de equivalencia", formatEuro(t.re), false]);
    if (nonZero(t.irpf))
      rows.push(["Retención IRPF", formatEuro(new Dec(t.irpf).negated().toFixed(2)), false]);
    if (nonZero(t.supplied)) rows.push(["Suplidos", formatEuro(t.supplied), false]);
    rows.push(["TOTAL", formatEuro(t.total), true]);
    return rows;
  }

  private totalsBox(top: number, rows: [string, string, boolean][]): number {
    const { doc } = this;
    const width = 200;
    const x = RIGHT - width;
    let y = top;
    for (const [label, value, strong] of rows) {
      if (strong) {
        y += 4;
        doc
          .rect(x, y - 5, width, 20)
          .fillColor(ACCENT)
          .fill();
        this.font(BOLD, 10.5, "#ffffff");
        text(doc, label, x + 8, y, 90);
        text(doc, value, x + 90, y, width - 98, "right");
        y += 20;
      } else {
        this.font(REGULAR, 8.5, MUTED);
        text(doc, label, x + 8, y, 110);
        this.font(REGULAR, 8.5, INK);
        text(doc, value, x + 110, y, width - 118, "right");
        y += 15;
      }
    }
    return y;
  }

  private dueDatesTable() {
    const { doc, view } = this;
    if (!view.dueDates.length) return;
    const showStatus = view.dueDates.some((d) => d.status);
    const cols: [string, number, "left" | "right"][] = [
      ["Vencimiento", 80, "left"],
      ["Importe", 90, "right"],
    ];
    if (showStatus) cols.push(["Estado", 90, "left"]);
    const width = cols.reduce((w, [, cw]) => w + cw, 0);
    const header = () => {
      doc
        .rect(MARGIN, this.y - 3, width, 14)
        .fillColor(HEAD_FILL)
        .fill();
      this.font(BOLD, 7.5, ACCENT);
      let x = MARGIN;
      for (const [title, cw, align] of cols) {
        text(doc, title, x + PAD, this.y, cw - 2 * PAD, align);
        x += cw;
      }
      this.y += 14;
    };
    this.ensure(16 + 14 * Math.min(view.dueDates.length + 1, 4));
    this.font(BOLD, 8, ACCENT);
    text(doc, "Vencimientos", MARGIN, this.y, width);
    this.y += 14;
    header();
    for (const due of view.dueDates) {
      if (this.ensure(14)) header();
      this.font(REGULAR, 8, INK);
      const values = [formatDate(due.dueDate), formatEuro(due.amount), due.status ?? ""];
      let x = MARGIN;
      cols.forEach(([, cw, align], i) => {
        text(doc, values[i], x + PAD, this.y, cw - 2 * PAD, align);
        x += cw;
      });
      this.y += 14;
    }
    this.y += 8;
  }

  private paymentAndNotes() {
    const { doc, view } = this;
    const blocks: [string, string][] = [];
    if (view.paymentMethod) blocks.push(["Forma de pago", view.paymentMethod]);
    if (view.notes) blocks.push(["Observaciones", view.notes]);
    for (const [label, body] of blocks) {
      this.font(REGULAR, 8.5);
      const lines = wrap(doc, body, CONTENT);
      this.ensure(14 + LINE_H * Math.min(lines.length, 2));
      this.font(BOLD, 8, ACCENT);
      text(doc, label, MARGIN, this.y, CONTENT);
      this.y += 13;
      this.font(REGULAR, 8.5, INK);
      for (const l of lines) {
        this.ensure(LINE_H + 1);
        this.font(REGULAR, 8.5, INK);
        text(doc, l, MARGIN, this.y, CONTENT);
        this.y += LINE_H + 1;
      }
      this.y += 8;
    }
  }

  private footers() {
    const { doc, view } = this;
    const { start, count } = doc.bufferedPageRange();
    const seller = [view.seller.name, view.seller.taxId ? `NIF ${view.seller.taxId}` : ""]
      .filter(Boolean)
      .join(" · ");
    for (let i = start; i < start + count; i++) {
      doc.switchToPage(i);
      const y = PAGE.height - MARGIN - 8;
      doc
        .moveTo(MARGIN, y - 6)
        .lineTo(RIGHT, y - 6)
        .lineWidth(0.4)
        .strokeColor(RULE)
        .stroke();
      this.font(REGULAR, 7.5, MUTED);
      // Footer text sits below the bottom margin: keep pdfkit from adding a page for it.
      doc.page.margins.bottom = 0;
      text(doc, seller, MARGIN, y, CONTENT * 0.7);
      text(doc, `Página ${i - start + 1} de ${count}`, MARGIN + CONTENT * 0.7, y, CONTENT * 0.3, "right");
    }
  }
}

/** A Spanish commercial document (invoice, estimate, order, delivery note) as an A4 PDF. */
export async function renderInvoicePdf(view: InvoicePdfView): Promise<Buffer> {
  const PDFDocument = await loadPdfKit();
  const doc = new PDFDocument({
    size: "A4",
    margin: MARGIN,
    bufferPages: true,
    autoFirstPage: false,
    info: { Title: documentLabel(view), Author: view.seller.name, Creator: "Cuadra" },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  new InvoiceRenderer(doc, view).render();
  doc.end();
  return done;
}
