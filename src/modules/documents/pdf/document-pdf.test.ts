import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { createContact, type DocOut, documentsFixture, expectStatus, line } from "../test-support.js";

/** The PDFs the API serves, read back through their text layer (what a search or a reader sees). */

const hasPdftotext = (() => {
  try {
    execFileSync("pdftotext", ["-v"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

let t: TestApp;
let fx: Awaited<ReturnType<typeof documentsFixture>>;
const dir = mkdtempSync(join(tmpdir(), "cuadra-document-pdf-"));

beforeAll(async () => {
  t = await createTestApp();
  fx = await documentsFixture(t);
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function pdfText(path: string): Promise<string> {
  const res = await t.as(t.adminToken, { method: "GET", url: `${path}/pdf` });
  expect(res.statusCode, res.body).toBe(200);
  const file = join(dir, `${path.replaceAll("/", "_")}.pdf`);
  writeFileSync(file, res.rawPayload);
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
}

const post = async <T = DocOut>(url: string, payload: Record<string, unknown>, status = 201) =>
  expectStatus<T>(await t.as(t.adminToken, { method: "POST", url, payload }), status, url);

// pdftotext (poppler-utils) reads the PDFs back; without it there is nothing to check the text with.
describe.skipIf(!hasPdftotext)("document PDFs served by the API (text layer, needs pdftotext)", () => {
  it("a sales invoice to a customer under RE: parties, number, tax breakdown per rate, totals and due dates", async () => {
    const retailer = await createContact(t, fx.companyId, {
      name: "Ferretería Núñez, S.L.",
      contact_type: "customer",
      tax_regime: "recargo_equivalencia",
      payment_terms_days: 30,
    });
    const draft = await post(`/api/sales/invoices`, {
      company_id: fx.companyId,
      client_id: retailer.id,
      date: "2026-05-04",
      lines: [line("10", "100", "IVA21"), line("4", "25", "IVA10")],
    });
    const invoice = await post(`/api/sales/invoices/${draft.id}/issue`, { date: "2026-05-04" }, 200);
    const text = await pdfText(`/api/sales/invoices/${invoice.id}`);
    expect(text).toContain("FACTURA");
    expect(text).toContain(invoice.code as string);
    expect(text).toContain("Ferretería Núñez, S.L.");
    expect(text).toContain(`NIF: ${retailer.tax_id}`);
    // Bases 1,000.00 @ 21 % (VAT 210.00, RE 52.00) and 100.00 @ 10 % (VAT 10.00, RE 1.40).
    expect(text).toMatch(/1\.000,00 €\s+21 %\s+210,00 €\s+5,2 %\s+52,00 €/);
    expect(text).toMatch(/100,00 €\s+10 %\s+10,00 €\s+1,4 %\s+1,40 €/);
    expect(text).toMatch(/Recargo de equivalencia\s+53,40 €/);
    expect(text).toMatch(/TOTAL\s+1\.373,40 €/);
    // Its one receipt at 30 days, with no payment state: the PDF does not change when it is paid.
    expect(text).toMatch(/Vencimiento\s+03\/06\/2026/);
    expect(text).toMatch(/03\/06\/2026\s+1\.373,40 €/);
    expect(text).not.toMatch(/pendiente/i);

    const rectifying = await post(`/api/sales/invoices/${invoice.id}/rectify`, {
      type: "I",
      reason: "Devolución de 2 unidades dañadas",
      lines: [{ line_id: invoice.lines[0].id, quantity: "2" }],
    });
    const issued = await post(`/api/sales/invoices/${rectifying.id}/issue`, { date: "2026-05-20" }, 200);
    const credit = await pdfText(`/api/sales/invoices/${issued.id}`);
    expect(credit).toContain("FACTURA RECTIFICATIVA");
    expect(credit).toContain(`Factura rectificativa de ${invoice.code} de 04/05/2026, por diferencias`);
    // The reason is printed once, in the rectification box (not again as notes).
    expect(credit.match(/Devolución de 2 unidades dañadas/g)).toHaveLength(1);
    // -200.00 @ 21 %: VAT -42.00, RE -10.40, total -252.40.
    expect(credit).toMatch(/TOTAL\s+-252,40 €/);
  });

  it("a supplier invoice shows the supplier's number and our registration number", async () => {
    const invoice = await post(`/api/purchases/invoices`, {
      company_id: fx.companyId,
      supplier_id: fx.supplier.id,
      supplier_number: "2026/0457",
      date: "2026-06-02",
      lines: [line("1", "3500", "IVA21", { irpf_code: "IRPF15", description: "Dirección de obra" })],
    });
    const pending = await pdfText(`/api/purchases/invoices/${invoice.id}`);
    expect(pending).toMatch(/Número\s+2026\/0457/);
    expect(pending).toMatch(/Nº de registro\s+pendiente de aprobación/);
    const approved = await post(`/api/purchases/invoices/${invoice.id}/approve`, {}, 200);
    const text = await pdfText(`/api/purchases/invoices/${invoice.id}`);
    expect(text).toContain("FACTURA DE PROVEEDOR");
    expect(text).toMatch(new RegExp(`Nº de registro\\s+${approved.code}`));
    expect(text).toMatch(/3\.500,00 €\s+15 %\s+-525,00 €/);
    expect(text).toMatch(/TOTAL\s+3\.710,00 €/);
  });

  it("an estimate shows how long it is valid, not a due date", async () => {
    const estimate = await post(`/api/sales/estimates`, {
      company_id: fx.companyId,
      client_id: fx.customer.id,
      date: "2026-07-01",
      valid_until: "2026-07-31",
      lines: [line("3", "40", "IVA21")],
    });
    const text = await pdfText(`/api/sales/estimates/${estimate.id}`);
    expect(text).toContain("PRESUPUESTO");
    expect(text).toMatch(/Válido hasta\s+31\/07\/2026/);
    expect(text).not.toContain("Vencimiento");
  });
});
