import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers/app.js";
import {
  createContact,
  createSalesInvoice,
  type DocOut,
  documentsFixture,
  expectStatus,
  line,
} from "../documents/test-support.js";

let t: TestApp;
let fx: Awaited<ReturnType<typeof documentsFixture>>;

beforeAll(async () => {
  t = await createTestApp();
  fx = await documentsFixture(t);
});
afterAll(async () => {
  await t?.close();
});

interface Preview {
  totals: Record<string, string>;
  taxes: Array<{ kind: string; code: string | null; rate: string; base: string; amount: string }>;
  lines: Array<Record<string, string | null>>;
}

const preview = (path: string, payload: object, token = t.adminToken) =>
  t.as(token, { method: "POST", url: `/api/${path}/preview`, payload });

const countOf = async (path: string) =>
  expectStatus<{ total: number }>(
    await t.as(t.adminToken, { method: "GET", url: `/api/${path}?company_id=${fx.companyId}&limit=1` }),
    200,
  ).total;

const retentionLines = [
  line("1", "100", "IVA21", { irpf_code: "IRPF15" }),
  line("2", "10", "IVA4", { irpf_code: "IRPF15" }),
  line("5", "11", "IVA21"),
];

describe("document preview", () => {
  it("gives the figures create stores, per tax group, and writes nothing", async () => {
    const before = await countOf("sales/invoices");
    const body = { company_id: fx.companyId, client_id: fx.customer.id, lines: retentionLines };
    const p = expectStatus<Preview>(await preview("sales/invoices", body), 200);
    expect(await countOf("sales/invoices")).toBe(before);
    expect(p.totals).toMatchObject({ net: "175.00", vat: "33.35", irpf: "18.00", total: "190.35" });
    expect(p.taxes.map((x) => [x.kind, x.code, x.base, x.amount]).sort()).toEqual([
      ["irpf", "IRPF15", "120.00", "18.00"],
      ["vat", "IVA21", "155.00", "32.55"],
      ["vat", "IVA4", "20.00", "0.80"],
    ]);
    expect(p.lines.map((l) => l.net)).toEqual(["100.00", "20.00", "55.00"]);
    const created = expectStatus<DocOut>(
      await createSalesInvoice(t, fx.companyId, fx.customer.id, retentionLines),
      201,
    );
    expect(created.totals).toEqual(p.totals);
  });

  it("applies the global discounts and a product's price, text and VAT rate", async () => {
    const product = expectStatus<{ id: string }>(
      await t.as(t.adminToken, {
        method: "POST",
        url: "/api/products",
        payload: {
          company_id: fx.companyId,
          reference: "PRV-1",
          description: "Hora de oficial",
          sale_price: "40.00",
          vat_rate: "10",
        },
      }),
      201,
    );
    const p = expectStatus<Preview>(
      await preview("sales/estimates", {
        company_id: fx.companyId,
        client_id: fx.customer.id,
        discount1: "10",
        lines: [{ product_id: product.id, quantity: "3" }],
      }),
      200,
    );
    expect(p.lines[0]).toMatchObject({ description: "Hora de oficial", tax_code: "IVA10", net: "120.00" });
    expect(p.totals).toMatchObject({ gross_net: "120.00", net: "108.00", vat: "10.80", total: "118.80" });
  });

  it("previews a supplier invoice without its supplier number", async () => {
    const p = expectStatus<Preview>(
      await preview("purchases/invoices", {
        company_id: fx.companyId,
        supplier_id: fx.supplier.id,
        lines: [line("2", "50", "IVA21", { irpf_code: "IRPF15" })],
      }),
      200,
    );
    expect(p.totals).toMatchObject({ net: "100.00", vat: "21.00", irpf: "15.00", total: "106.00" });
  });

  it("names the field of every bad input with a 400", async () => {
    const bad = await preview("sales/invoices", {
      company_id: fx.companyId,
      client_id: fx.customer.id,
      lines: [line("1", "10"), { quantity: "1,5", unit_price: "3" }],
    });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain("lines.1.quantity");
    const unknownCode = await preview("sales/invoices", {
      company_id: fx.companyId,
      client_id: fx.customer.id,
      lines: [line("1", "10", "IVA99")],
    });
    expect(unknownCode.statusCode).toBe(400);
    expect(JSON.stringify(unknownCode.json())).toContain("lines.0.tax_code");
    const missingContact = await preview("sales/invoices", { company_id: fx.companyId, lines: [] });
    expect(missingContact.statusCode).toBe(400);
    expect(JSON.stringify(missingContact.json())).toContain("client_id");
  });

  it("refuses another company's contact, another company and a caller without read permission", async () => {
    const other = await documentsFixture(t);
    const foreign = await preview("sales/invoices", {
      company_id: fx.companyId,
      client_id: other.customer.id,
      lines: [line("1", "10")],
    });
    expect(foreign.statusCode).toBe(400);
    expect(JSON.stringify(foreign.json())).toContain("client_id");
    const supplierOnly = await createContact(t, fx.companyId, { contact_type: "supplier" });
    const wrongRole = await preview("sales/invoices", {
      company_id: fx.companyId,
      client_id: supplierOnly.id,
      lines: [line("1", "10")],
    });
    expect(wrongRole.statusCode).toBe(400);

    const restricted = await t.userWith(["sales:leer"], { companyId: other.companyId });
    const hidden = await preview(
      "sales/invoices",
      { company_id: fx.companyId, client_id: fx.customer.id, lines: [line("1", "10")] },
      restricted.token,
    );
    expect(hidden.statusCode).toBe(404);
    const noRead = await t.userWith(["purchases:leer"]);
    const refused = await preview(
      "sales/invoices",
      { company_id: fx.companyId, client_id: fx.customer.id, lines: [line("1", "10")] },
      noRead.token,
    );
    expect(refused.statusCode).toBe(403);
  });
});
