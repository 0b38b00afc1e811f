import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { computeTotals, type TotalsLine } from "../totals.js";
import { type InvoicePdfView, QR_BOX, renderInvoicePdf } from "./invoice-pdf.js";

const dir = mkdtempSync(join(tmpdir(), "cuadra-invoice-pdf-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The PDF's text layer, one string per page (pdftotext separates pages with form feeds). */
function pagesOf(pdf: Buffer, name: string): string[] {
  const file = join(dir, `${name}.pdf`);
  writeFileSync(file, pdf);
  if (process.env.KEEP_INVOICE_PDF) writeFileSync(join(process.env.KEEP_INVOICE_PDF, `${name}.pdf`), pdf);
  const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
  return text.split("\f").filter((page) => page.trim().length > 0);
}

const seller = {
  name: "Construcciones Ebro, S.L.",
  taxId: "B26123456",
  address: "Calle Portales, 12, 2º izda.",
  postalCode: "26001",
  city: "Logroño",
  province: "La Rioja",
  country: "ES",
};
const customer = {
  name: "Promociones Inmobiliarias del Cierzo y del Moncayo, S.A.",
  taxId: "A50987654",
  address: "Paseo de la Independencia, 24, 5ª planta, oficina 3",
  postalCode: "50004",
  city: "Zaragoza",
  province: "Zaragoza",
  country: "ES",
};

interface SourceLine extends TotalsLine {
  reference?: string;
  description: string;
}

function viewOf(lines: SourceLine[], extra: Partial<InvoicePdfView> = {}): InvoicePdfView {
  const totals = computeTotals({ applyRe: false, lines });
  return {
    title: "Factura",
    code: "FV2026-000123",
    issueDate: "2026-01-15",
    operationDate: "2026-01-10",
    dueDate: "2026-02-14",
    seller,
    customer,
    lines: lines.map((l, i) => ({
      supplied: l.supplied,
      reference: l.reference,
      description: l.description,
      quantity: l.quantity,
      unitPrice: l.unitPrice,
      discount1: l.discount1 ?? "0",
      discount2: l.discount2 ?? "0",
      vatRate: l.vatRate,
      net: totals.lineNets[i],
    })),
    taxGroups: totals.taxGroups,
    irpfGroups: totals.irpfGroups,
    totals,
    dueDates: [
      { dueDate: "2026-02-14", amount: (Number(totals.total) / 2).toFixed(2), status: "Pendiente" },
      {
        dueDate: "2026-03-16",
        amount: (Number(totals.total) - Number((Number(totals.total) / 2).toFixed(2))).toFixed(2),
        status: "Pendiente",
      },
    ],
    paymentMethod: "Transferencia bancaria a ES91 2100 0418 4502 0005 1332",
    notes: "Obra: rehabilitación de fachada en calle Mayor 3. Gracias por su confianza.",
    ...extra,
  };
}

const threeLines: SourceLine[] = [
  {
    reference: "ALB-001",
    description: "Demolición de alicatado en paramentos verticales, con medios manuales y carga de escombros",
    quantity: "12.5",
    unitPrice: "18.40",
    discount1: "10",
    taxCode: "IVA21",
    vatRate: "21",
    reRate: "0",
    irpfRate: "15",
  },
  {
    reference: "MAT-CEM-42.5R-SACO-25KG-PALET",
    description: "Cemento CEM II/B-L 32,5 N en sacos de 25 kg",
    quantity: "40",
    unitPrice: "6.125",
    discount1: "5",
    discount2: "2",
    taxCode: "IVA21",
    vatRate: "21",
    reRate: "0",
    irpfRate: "0",
  },
  {
    description: "Transporte de material a obra",
    quantity: "1",
    unitPrice: "1234.56",
    taxCode: "IVA10",
    vatRate: "10",
    reRate: "0",
    irpfRate: "0",
  },
];

describe("renderInvoicePdf", () => {
  it("renders a 3-line invoice whose text layer holds the codes, tax ids, figures and page numbers", async () => {
    const view = viewOf(threeLines);
    const pdf = await renderInvoicePdf(view);
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const pages = pagesOf(pdf, "three-lines");
    expect(pages).toHaveLength(1);
    const text = pages[0];
    for (const expected of [
      "FACTURA",
      "FV2026-000123",
      "15/01/2026",
      "10/01/2026",
      "B26123456",
      "A50987654",
      "Construcciones Ebro, S.L.",
      "26001 Logroño (La Rioja)",
      "MAT-CEM-42.5",
      "R-SACO-25KG-",
      "Página 1 de 1",
      "Desglose de impuestos",
      "Transferencia bancaria",
    ]) {
      expect(text).toContain(expected);
    }
    // 12.5 x 18.40 x 0.9 = 207.00; 40 x 6.125 x 0.95 x 0.98 = 228.095; group 21 % base 435.10
    expect(view.totals).toMatchObject({ net: "1669.66", vat: "214.83", irpf: "31.05", total: "1853.44" });
    for (const figure of [
      "207,00",
      "228,10",
      "1.234,56",
      "435,10 €",
      "91,37 €",
      "123,46 €",
      "-31,05 €",
      "1.853,44 €",
    ]) {
      expect(text).toContain(figure);
    }
    // the description wraps instead of being cut
    expect(text).toContain("carga de escombros");
    // no RE on this invoice: no empty RE columns
    expect(text).not.toContain("Cuota RE");
    // no QR given: the reserved area stays empty and no caption is printed
    expect(text).not.toContain("VERI*FACTU");
  });

  it("repeats the table header on every page of a 200-line invoice and numbers every page", async () => {
    const lines: SourceLine[] = Array.from({ length: 200 }, (_, i) => ({
      reference: `P-${String(i + 1).padStart(4, "0")}`,
      description:
        i % 7 === 0
          ? `Partida ${i + 1}: suministro y colocación de carpintería de aluminio lacado con rotura de puente térmico, incluso sellado perimetral y remates`
          : `Partida ${i + 1}: material de obra`,
      quantity: String((i % 5) + 1),
      unitPrice: `${10 + i}.25`,
      taxCode: i % 3 === 0 ? "IVA10" : "IVA21",
      vatRate: i % 3 === 0 ? "10" : "21",
      reRate: "0",
      irpfRate: "0",
    }));
    const view = viewOf(lines, { notes: null });
    const pages = pagesOf(await renderInvoicePdf(view), "two-hundred-lines");
    expect(pages.length).toBeGreaterThan(3);
    pages.forEach((page, i) => {
      expect(page).toContain(`Página ${i + 1} de ${pages.length}`);
      if (i > 0) expect(page).toContain("FV2026-000123");
    });
    const withLines = pages.filter((p) => /Partida \d+:/.test(p));
    expect(withLines.length).toBeGreaterThan(3);
    for (const page of withLines) {
      expect(page).toMatch(/Referencia\s+Descripción\s+Cantidad\s+Precio\s+Dto\. %\s+IVA %\s+Importe/);
    }
    const all = pages.join("\n");
    for (let i = 1; i <= 200; i++) expect(all).toContain(`P-${String(i).padStart(4, "0")}`);
    // every long description is wrapped to its end, never cut: 29 of them (i % 7 === 0)
    expect(all.match(/sellado perimetral y remates/g)).toHaveLength(29);
    expect(view.totals.total).toBe("77747.78");
    expect(all).toContain("77.747,78 €");
  });

  it("continues a description longer than a page on the next one, under a repeated header", async () => {
    const words = Array.from({ length: 900 }, (_, i) => `palabra${i + 1}`);
    const lines: SourceLine[] = [
      { ...threeLines[2], description: "Primera partida" },
      { ...threeLines[2], reference: "LARGA", description: words.join(" ") },
      { ...threeLines[2], description: "Última partida" },
    ];
    const pages = pagesOf(await renderInvoicePdf(viewOf(lines)), "long-description");
    expect(pages.length).toBeGreaterThan(1);
    const all = pages.join("\n");
    for (const word of words) expect(all).toMatch(new RegExp(`\\b${word}\\b`));
    expect(all).toContain("Última partida");
    for (const page of pages.filter((p) => /palabra\d+/.test(p))) expect(page).toContain("Descripción");
  });

  it("prints the rectified invoice, a document discount, RE and suplidos", async () => {
    const lines: SourceLine[] = [
      {
        description: "Devolución de material",
        quantity: "-2",
        unitPrice: "100",
        taxCode: "IVA21",
        vatRate: "21",
        reRate: "5.2",
        irpfRate: "0",
      },
      {
        description: "Tasas de licencia (suplido)",
        quantity: "-1",
        unitPrice: "30",
        taxCode: "",
        vatRate: "0",
        reRate: "0",
        irpfRate: "0",
        supplied: true,
      },
    ];
    const totals = computeTotals({ applyRe: true, discount1: "5", lines });
    const view: InvoicePdfView = {
      ...viewOf(lines),
      title: "Factura rectificativa",
      code: "R2026-000004",
      taxGroups: totals.taxGroups,
      irpfGroups: totals.irpfGroups,
      totals,
      rectifies: {
        code: "FV2026-000123",
        issueDate: "2026-01-15",
        reason: "Devolución de mercancía defectuosa",
      },
      dueDates: [{ dueDate: "2026-02-14", amount: totals.total }],
    };
    const text = pagesOf(await renderInvoicePdf(view), "rectifying")[0];
    expect(text).toContain("FACTURA RECTIFICATIVA");
    expect(text).toContain("Factura rectificativa de FV2026-000123 de 15/01/2026");
    expect(text).toContain("Devolución de mercancía defectuosa");
    expect(totals).toMatchObject({
      grossNet: "-200.00",
      net: "-190.00",
      vat: "-39.90",
      re: "-9.88",
      supplied: "-28.50",
      total: "-268.28",
    });
    expect(text).toMatch(/Base imponible\s+% IVA\s+Cuota IVA\s+% RE\s+Cuota RE/);
    expect(text).toMatch(/-1\s+30,00\s+—\s+-30,00/);
    for (const figure of [
      "-200,00 €",
      "10,00 €",
      "-190,00 €",
      "-39,90 €",
      "-9,88 €",
      "-28,50 €",
      "-268,28 €",
      "Recargo de equivalencia",
      "Suplidos",
    ]) {
      expect(text).toContain(figure);
    }
  });

  it("draws the QR in the reserved top-right 30 mm square of the first page only, with its caption", async () => {
    const calls: number[][] = [];
    const view = viewOf(threeLines, {
      qr: {
        draw: (doc, x, y, size) => {
          calls.push([x, y, size]);
          doc.rect(x, y, size, size).fillColor("#000000").fill();
        },
        caption: "QR tributario: VERI*FACTU",
      },
    });
    const text = pagesOf(await renderInvoicePdf(view), "with-qr")[0];
    expect(calls).toHaveLength(1);
    const [x, y, size] = calls[0];
    expect(size).toBeCloseTo(85.04, 1);
    expect(x + size).toBeCloseTo(595.28 - 40, 1);
    expect(y).toBe(40);
    expect([x, y, size]).toEqual([QR_BOX.x, QR_BOX.y, QR_BOX.size]);
    expect(text).toContain("VERI*FACTU");
  });

  it("renders a draft estimate without number or dates", async () => {
    const text = pagesOf(
      await renderInvoicePdf(
        viewOf(threeLines, {
          title: "Presupuesto",
          code: null,
          issueDate: null,
          operationDate: null,
          dueDate: null,
          dueDates: [],
        }),
      ),
      "draft",
    )[0];
    expect(text).toContain("PRESUPUESTO");
    expect(text).toContain("Borrador (sin número)");
    expect(text).not.toContain("Vencimientos");
  });
});
