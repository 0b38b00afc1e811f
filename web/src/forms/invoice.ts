/**
 * The invoice editor's form: what the user typed, checked and turned into the API's body. Money is
 * never computed here: the server's preview gives every figure; this only normalises typed decimals.
 */

export interface InvoiceLineForm {
  /** React key; stable while the line is edited. */
  key: string;
  /** The stored line's id (updates keep lines by id). */
  id?: string;
  product_id: string | null;
  description: string;
  quantity: string;
  unit_price: string;
  discount: string;
  tax_code: string | null;
  irpf_code: string | null;
}

export interface InvoiceForm {
  contact_id: string | null;
  series: string | null;
  date: string;
  operation_date: string;
  supplier_number: string;
  notes: string;
  lines: InvoiceLineForm[];
}

let keys = 0;
export const blankLine = (): InvoiceLineForm => ({
  key: `l${++keys}`,
  product_id: null,
  description: "",
  quantity: "1",
  unit_price: "",
  discount: "",
  tax_code: null,
  irpf_code: null,
});

/**
 * A typed decimal as the API's decimal string: "1.234,5" (Spanish) or "1234.5", at most `decimals`
 * decimals. "" stays ""; anything else is null.
 */
export function normalizeDecimal(text: string, decimals: number, negative = false): string | null {
  const s = text.trim().replace(/\s/g, "");
  if (!s) return "";
  const plain = s.includes(",") ? s.replace(/\./g, "").replace(",", ".") : s;
  const pattern = new RegExp(`^${negative ? "-?" : ""}\\d{1,12}(\\.\\d{1,${decimals}})?$`);
  return pattern.test(plain) ? plain : null;
}

/** A line the user has not started (a spare row): left out of what is sent. */
const isBlank = (l: InvoiceLineForm) =>
  !l.product_id && !l.description.trim() && !l.unit_price.trim() && !l.discount.trim();

export type FieldErrors = Record<string, string>;

/** Problems found before anything is sent, keyed like the server's field paths (`lines.0.quantity`). */
export function invoiceProblems(form: InvoiceForm, opts: { supplierNumber: boolean }): FieldErrors {
  const errors: FieldErrors = {};
  if (!form.contact_id) errors.contact = "invoiceEditor.required";
  if (opts.supplierNumber && !form.supplier_number.trim()) errors.supplier_number = "invoiceEditor.required";
  const used = usedLines(form);
  if (used.length === 0) errors.lines = "invoiceEditor.noLines";
  used.forEach(({ line, index }) => {
    const at = (field: string) => `lines.${index}.${field}`;
    const quantity = normalizeDecimal(line.quantity, 4);
    if (!quantity || /^0+(\.0+)?$/.test(quantity)) errors[at("quantity")] = "invoiceEditor.badQuantity";
    if (normalizeDecimal(line.unit_price, 6) === null) errors[at("unit_price")] = "invoiceEditor.badNumber";
    const discount = normalizeDecimal(line.discount, 2);
    if (discount === null || (discount !== "" && Number.parseFloat(discount) > 100))
      errors[at("discount1")] = "invoiceEditor.badPercent";
    if (!line.product_id && !line.description.trim()) errors[at("description")] = "invoiceEditor.required";
  });
  return errors;
}

/** The lines that are sent, with their index in the form (the server names fields by it). */
function usedLines(form: InvoiceForm) {
  return form.lines.map((line, index) => ({ line, index })).filter(({ line }) => !isBlank(line));
}

export interface InvoiceLineBody {
  id?: string;
  product_id: string | null;
  description?: string;
  quantity: string;
  unit_price?: string;
  discount1?: string;
  tax_code?: string;
  irpf_code: string | null;
}

/**
 * The lines as the API takes them (call after invoiceProblems found none). Blank rows are dropped,
 * so `indexMap[i]` is the form row of the body's line i (to put the server's `lines.i.x` errors back).
 */
export function invoiceLinesBody(form: InvoiceForm): { lines: InvoiceLineBody[]; indexMap: number[] } {
  const used = usedLines(form);
  return {
    indexMap: used.map((u) => u.index),
    lines: used.map(({ line }) => ({
      ...(line.id ? { id: line.id } : {}),
      product_id: line.product_id,
      ...(line.description.trim() ? { description: line.description.trim() } : {}),
      quantity: normalizeDecimal(line.quantity, 4) as string,
      ...(line.unit_price.trim() ? { unit_price: normalizeDecimal(line.unit_price, 6) as string } : {}),
      ...(line.discount.trim() ? { discount1: normalizeDecimal(line.discount, 2) as string } : {}),
      ...(line.tax_code ? { tax_code: line.tax_code } : {}),
      irpf_code: line.irpf_code,
    })),
  };
}

/** The server's field errors (`lines.3.quantity` of the sent lines) as the form's keys. */
export function formFieldErrors(
  errors: { path: string; message: string }[] | undefined,
  indexMap: number[],
  contactField: string,
): FieldErrors {
  const out: FieldErrors = {};
  for (const e of errors ?? []) {
    const m = /^lines\.(\d+)\.(\w+)$/.exec(e.path);
    const key = m
      ? `lines.${indexMap[Number(m[1])] ?? m[1]}.${m[2]}`
      : e.path === contactField
        ? "contact"
        : e.path;
    out[key] = e.message;
  }
  return out;
}

/** A stored decimal string shown without its padding zeros: "2.0000" -> "2", "10.500000" -> "10.5". */
export function trimZeros(value: string): string {
  return value.includes(".") ? value.replace(/0+$/, "").replace(/\.$/, "") : value;
}

/** A field error to show: the form's own problems are message keys, the server's are plain text. */
export function errorText(t: (key: string) => string, error: string | undefined): string | undefined {
  return error?.startsWith("invoiceEditor.") ? t(error) : error;
}
