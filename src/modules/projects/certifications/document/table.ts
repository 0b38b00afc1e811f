import { COLOR, type Doc, FONT } from "./layout.js";

export interface Column<T> {
  title: string;
  width: number;
  align: "left" | "right" | "center";
  value: (row: T) => string;
}

export interface RowStyle {
  bold?: boolean;
  size?: number;
  fill?: string;
  /** Line under the row; default a thin rule. */
  under?: "thin" | "strong" | "none";
}

const PAD_X = 3;
const PAD_Y = 2.5;

const widthOf = <T>(columns: readonly Column<T>[]) => columns.reduce((w, c) => w + c.width, 0);

function setFont(doc: Doc, style: RowStyle) {
  doc.font(style.bold ? FONT.bold : FONT.regular).fontSize(style.size ?? 7.5);
}

/** The height of a row: its tallest cell, every text wrapped to its column (never cut). */
export function rowHeight<T>(doc: Doc, columns: readonly Column<T>[], row: T, style: RowStyle = {}): number {
  setFont(doc, style);
  let height = 0;
  for (const c of columns) {
    const text = c.value(row) || " ";
    height = Math.max(height, doc.heightOfString(text, { width: c.width - 2 * PAD_X, align: c.align }));
  }
  return Math.ceil(height) + 2 * PAD_Y;
}

export function drawRow<T>(
  doc: Doc,
  columns: readonly Column<T>[],
  row: T,
  x: number,
  y: number,
  style: RowStyle = {},
): number {
  const height = rowHeight(doc, columns, row, style);
  const width = widthOf(columns);
  if (style.fill) doc.save().rect(x, y, width, height).fill(style.fill).restore();
  setFont(doc, style);
  doc.fillColor(COLOR.text);
  let cx = x;
  for (const c of columns) {
    const text = c.value(row);
    if (text) doc.text(text, cx + PAD_X, y + PAD_Y, { width: c.width - 2 * PAD_X, align: c.align });
    cx += c.width;
  }
  const under = style.under ?? "thin";
  if (under !== "none") {
    doc
      .save()
      .lineWidth(under === "strong" ? 0.9 : 0.4)
      .strokeColor(under === "strong" ? COLOR.accent : COLOR.rule)
      .moveTo(x, y + height)
      .lineTo(x + width, y + height)
      .stroke()
      .restore();
  }
  return y + height;
}

/** The column titles on a band, wrapped when long. */
export function drawHeader<T>(doc: Doc, columns: readonly Column<T>[], x: number, y: number): number {
  const header = columns.map((c) => ({ ...c, value: () => c.title }));
  return drawRow(doc, header, null, x, y, { bold: true, size: 7, fill: COLOR.band, under: "strong" });
}
