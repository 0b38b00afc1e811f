import { describe, expect, it } from "vitest";
import {
  blankLine,
  errorText,
  formFieldErrors,
  type InvoiceForm,
  invoiceLinesBody,
  invoiceProblems,
  normalizeDecimal,
  trimZeros,
} from "./invoice";

const form = (
  lines: Partial<ReturnType<typeof blankLine>>[],
  extra: Partial<InvoiceForm> = {},
): InvoiceForm => ({
  contact_id: "c1",
  series: null,
  date: "2026-11-24",
  operation_date: "",
  supplier_number: "",
  notes: "",
  lines: lines.map((l) => ({ ...blankLine(), ...l })),
  ...extra,
});

describe("typed decimals", () => {
  it("reads Spanish and plain decimals as the API's strings, within the decimals allowed", () => {
    expect(normalizeDecimal("1.234,5", 4)).toBe("1234.5");
    expect(normalizeDecimal(" 12.75 ", 6)).toBe("12.75");
    expect(normalizeDecimal("", 2)).toBe("");
    expect(normalizeDecimal("0,123", 2)).toBeNull();
    expect(normalizeDecimal("-3", 4)).toBeNull();
    expect(normalizeDecimal("-3", 4, true)).toBe("-3");
    expect(normalizeDecimal("1e3", 4)).toBeNull();
    expect(trimZeros("2.0000")).toBe("2");
    expect(trimZeros("10.500000")).toBe("10.5");
    expect(trimZeros("300")).toBe("300");
  });
});

describe("an invoice being typed", () => {
  it("needs a contact, a supplier number for purchases and at least one line", () => {
    const empty = form([{ quantity: "1" }], { contact_id: null });
    expect(invoiceProblems(empty, { supplierNumber: true })).toEqual({
      contact: "invoiceEditor.required",
      supplier_number: "invoiceEditor.required",
      lines: "invoiceEditor.noLines",
    });
  });

  it("names each bad field of a line by the server's path", () => {
    const f = form([
      { description: "Hormigón", quantity: "0", unit_price: "12,1234567", discount: "101" },
      { product_id: "p1", quantity: "2,5" },
      { quantity: "3", unit_price: "4" },
    ]);
    expect(invoiceProblems(f, { supplierNumber: false })).toEqual({
      "lines.0.quantity": "invoiceEditor.badQuantity",
      "lines.0.unit_price": "invoiceEditor.badNumber",
      "lines.0.discount1": "invoiceEditor.badPercent",
      "lines.2.description": "invoiceEditor.required",
    });
  });

  it("sends the used lines only, as decimal strings, and maps the server's errors back to the rows", () => {
    const f = form([
      { id: "l1", description: "Mano de obra", quantity: "1,5", unit_price: "40", irpf_code: "IRPF15" },
      {},
      { product_id: "p1", quantity: "2", discount: "10", tax_code: "IVA10" },
    ]);
    expect(invoiceProblems(f, { supplierNumber: false })).toEqual({});
    const { lines, indexMap } = invoiceLinesBody(f);
    expect(lines).toEqual([
      {
        id: "l1",
        product_id: null,
        description: "Mano de obra",
        quantity: "1.5",
        unit_price: "40",
        irpf_code: "IRPF15",
      },
      { product_id: "p1", quantity: "2", discount1: "10", tax_code: "IVA10", irpf_code: null },
    ]);
    expect(indexMap).toEqual([0, 2]);
    const errors = formFieldErrors(
      [
        { path: "lines.1.tax_code", message: "unknown tax code" },
        { path: "client_id", message: "is not a customer" },
        { path: "date", message: "must be in 2026" },
      ],
      indexMap,
      "client_id",
    );
    expect(errors).toEqual({
      "lines.2.tax_code": "unknown tax code",
      contact: "is not a customer",
      date: "must be in 2026",
    });
  });

  it("translates the form's own problems and shows the server's text as it is", () => {
    const t = (key: string) => `«${key}»`;
    expect(errorText(t, "invoiceEditor.required")).toBe("«invoiceEditor.required»");
    expect(errorText(t, "must be a decimal string: e.g. 12.5")).toBe("must be a decimal string: e.g. 12.5");
    expect(errorText(t, undefined)).toBeUndefined();
  });
});
