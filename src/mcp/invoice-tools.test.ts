import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/helpers/app.js";
import {
  createContact,
  documentsFixture,
  expectStatus,
  issuedSalesInvoice,
  line,
} from "../modules/documents/test-support.js";
import {
  createApiToken,
  errorText,
  outOfScope,
  streamableClient,
  structured,
  withAnyTokenTools,
} from "./test-support.js";

let t: TestApp;
let base: string;
let client: Client;
let fx: Awaited<ReturnType<typeof documentsFixture>>;
let other: Awaited<ReturnType<typeof documentsFixture>>;
let issued: Array<{ id: string; code: string }>;
let draftId: string;
let otherInvoice: { id: string; code: string };
let approved: { id: string; code: string };
let pendingId: string;
let otherSupplier: { id: string };

interface Summary {
  id: string;
  code: string | null;
  estado: string;
  company_id: string;
  payment_status: string | null;
  supplier_number?: string;
}

async function purchaseInvoice(companyId: string, supplierId: string, supplierNumber: string, date: string) {
  return expectStatus<{ id: string }>(
    await t.as(t.adminToken, {
      method: "POST",
      url: "/api/purchases/invoices",
      payload: {
        company_id: companyId,
        supplier_id: supplierId,
        supplier_number: supplierNumber,
        date,
        lines: [line("3", "40")],
      },
    }),
    201,
    "create purchase invoice",
  );
}

beforeAll(async () => {
  t = await createTestApp();
  fx = await documentsFixture(t);
  other = await documentsFixture(t);
  issued = [
    await issuedSalesInvoice(t, fx.companyId, fx.customer.id, [line("1", "100")], "2026-02-01"),
    await issuedSalesInvoice(t, fx.companyId, fx.customer.id, [line("2", "50", "IVA10")], "2026-03-01"),
  ];
  draftId = expectStatus<{ id: string }>(
    await t.as(t.adminToken, {
      method: "POST",
      url: "/api/sales/invoices",
      payload: {
        company_id: fx.companyId,
        client_id: fx.customer.id,
        date: "2026-04-01",
        lines: [line("1", "9")],
      },
    }),
    201,
  ).id;
  // The other company's first invoice has the same code as ours.
  otherInvoice = await issuedSalesInvoice(
    t,
    other.companyId,
    other.customer.id,
    [line("1", "7")],
    "2026-02-01",
  );
  const first = await purchaseInvoice(fx.companyId, fx.supplier.id, "A-77", "2026-02-10");
  approved = expectStatus(
    await t.as(t.adminToken, { method: "POST", url: `/api/purchases/invoices/${first.id}/approve` }),
    200,
  );
  otherSupplier = await createContact(t, fx.companyId, { name: "Otro Proveedor" });
  pendingId = (await purchaseInvoice(fx.companyId, otherSupplier.id, "A-77", "2026-02-11")).id;
  await purchaseInvoice(other.companyId, other.supplier.id, "B-1", "2026-02-12");
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
  client = await streamableClient(base, (await createApiToken(t, ["mcp"])).token);
});
afterAll(async () => {
  await client?.close();
  await t?.close();
});

const call = (c: Client, name: string, args: Record<string, unknown> = {}) =>
  c.callTool({ name, arguments: args });
const rest = async (url: string) =>
  expectStatus<Record<string, unknown>>(await t.as(t.adminToken, { method: "GET", url }), 200, url);

describe("list_invoices / get_invoice", () => {
  it("list_invoices answers the same page as GET /api/sales/invoices, newest first", async () => {
    const page = structured<{ items: Summary[]; total: number }>(
      await call(client, "list_invoices", { company_id: fx.companyId }),
    );
    const same = await rest(`/api/sales/invoices?company_id=${fx.companyId}`);
    expect(page).toEqual({ items: same.data, total: same.total, limit: 50, offset: 0 });
    expect(page.items.map((i) => i.id)).toEqual([draftId, issued[1].id, issued[0].id]);
    expect(structured<{ total: number }>(await call(client, "list_invoices", {})).total).toBe(4);
  });

  it("filters by status, dates, client and paid", async () => {
    const ids = async (args: Record<string, unknown>) =>
      structured<{ items: Summary[] }>(
        await call(client, "list_invoices", { company_id: fx.companyId, ...args }),
      ).items.map((i) => i.id);
    expect(await ids({ status: "borrador" })).toEqual([draftId]);
    expect(await ids({ status: "emitida", date_from: "2026-02-15" })).toEqual([issued[1].id]);
    expect(await ids({ date_to: "2026-02-01" })).toEqual([issued[0].id]);
    expect(await ids({ client_id: other.customer.id })).toEqual([]);
    expect(await ids({ paid: true })).toEqual([]);
    expect(await ids({ paid: false, status: "emitida" })).toEqual([issued[1].id, issued[0].id]);
    const page = structured<{ items: Summary[]; total: number }>(
      await call(client, "list_invoices", { company_id: fx.companyId, limit: 1, offset: 1 }),
    );
    expect(page.items.map((i) => i.id)).toEqual([issued[1].id]);
    expect(page.total).toBe(3);
  });

  it("get_invoice by id equals GET /api/sales/invoices/{id}: lines, taxes, receipts and payment status", async () => {
    const invoice = structured<Record<string, unknown>>(
      await call(client, "get_invoice", { invoice_id: issued[1].id }),
    );
    expect(invoice).toEqual(await rest(`/api/sales/invoices/${issued[1].id}`));
    expect(invoice).toMatchObject({
      code: issued[1].code,
      estado: "emitida",
      totals: { net: "100.00", vat: "10.00", total: "110.00" },
      taxes: [{ kind: "vat", rate: "10.00", base: "100.00", amount: "10.00" }],
      dues: [{ amount: "110.00", paid_amount: "0.00", estado: "pendiente" }],
    });
    expect(invoice.payment_status).toMatch(/^(pendiente|vencida)$/);
    expect((invoice.lines as unknown[]).length).toBe(1);
  });

  it("get_invoice by code; a code shared by two companies asks for company_id", async () => {
    expect(issued[0].code).toBe(otherInvoice.code);
    const ambiguous = errorText(await call(client, "get_invoice", { document_number: issued[0].code }));
    expect(ambiguous).toMatch(/give company_id/);
    const mine = structured<{ id: string }>(
      await call(client, "get_invoice", { document_number: issued[0].code, company_id: fx.companyId }),
    );
    expect(mine.id).toBe(issued[0].id);
    const byCode = structured<{ id: string }>(
      await call(client, "get_invoice", { document_number: issued[1].code }),
    );
    expect(byCode.id).toBe(issued[1].id);
  });

  it("explains missing invoices and bad arguments", async () => {
    expect(errorText(await call(client, "get_invoice", { document_number: "FV2026-999999" }))).toMatch(
      /not found.*list_invoices/,
    );
    expect(
      errorText(await call(client, "get_invoice", { invoice_id: "01900000-0000-7000-8000-000000000000" })),
    ).toMatch(/not found/);
    // A supplier invoice is not a sales invoice.
    expect(errorText(await call(client, "get_invoice", { invoice_id: approved.id }))).toMatch(/not found/);
    expect(errorText(await call(client, "get_invoice", {}))).toMatch(
      /exactly one of invoice_id and document_number/,
    );
    expect(
      errorText(await call(client, "get_invoice", { invoice_id: issued[0].id, document_number: "X" })),
    ).toMatch(/exactly one/);
    expect(errorText(await call(client, "list_invoices", { status: "pagada" }))).toMatch(
      /status must be one of borrador, emitida/,
    );
    expect(
      errorText(await call(client, "list_invoices", { date_from: "2026-05-01", date_to: "2026-04-01" })),
    ).toMatch(/date_from is after date_to/);
    expect(errorText(await call(client, "list_invoices", { client_id: "7" }))).toMatch(
      /client_id must be a UUID/,
    );
    expect(errorText(await call(client, "list_invoices", { limit: 500 }))).toMatch(/limit is at most 200/);
  });
});

describe("list_purchase_invoices / get_purchase_invoice", () => {
  it("lists supplier invoices as GET /api/purchases/invoices does, filtered by status and supplier", async () => {
    const page = structured<{ items: Summary[]; total: number }>(
      await call(client, "list_purchase_invoices", { company_id: fx.companyId }),
    );
    const same = await rest(`/api/purchases/invoices?company_id=${fx.companyId}`);
    expect(page).toEqual({ items: same.data, total: same.total, limit: 50, offset: 0 });
    expect(page.items.map((i) => i.id)).toEqual([pendingId, approved.id]);
    const ids = async (args: Record<string, unknown>) =>
      structured<{ items: Summary[] }>(await call(client, "list_purchase_invoices", args)).items.map(
        (i) => i.id,
      );
    expect(await ids({ status: "aprobada" })).toEqual([approved.id]);
    expect(await ids({ supplier_id: otherSupplier.id })).toEqual([pendingId]);
    expect(await ids({ status: "rechazada" })).toEqual([]);
    expect(errorText(await call(client, "list_purchase_invoices", { status: "emitida" }))).toMatch(
      /pendiente, aprobada, rechazada/,
    );
  });

  it("get_purchase_invoice by id, by our code, and by the supplier's number", async () => {
    const byId = structured<Record<string, unknown>>(
      await call(client, "get_purchase_invoice", { invoice_id: approved.id }),
    );
    expect(byId).toEqual(await rest(`/api/purchases/invoices/${approved.id}`));
    expect(byId).toMatchObject({
      code: approved.code,
      supplier_number: "A-77",
      totals: { net: "120.00", vat: "25.20", total: "145.20" },
      dues: [{ amount: "145.20" }],
    });
    expect(approved.code).toMatch(/^FC2026-\d{6}$/);
    const byCode = structured<{ id: string }>(
      await call(client, "get_purchase_invoice", { document_number: approved.code }),
    );
    expect(byCode.id).toBe(approved.id);
    // Two suppliers numbered their invoices A-77: the error names both.
    const twice = errorText(await call(client, "get_purchase_invoice", { document_number: "A-77" }));
    expect(twice).toMatch(/Several supplier invoices match A-77/);
    expect(twice).toMatch(/Otro Proveedor/);
    const bySupplierNumber = structured<{ id: string }>(
      await call(client, "get_purchase_invoice", { document_number: "B-1" }),
    );
    expect(bySupplierNumber).toMatchObject({ company_id: other.companyId });
    expect(errorText(await call(client, "get_purchase_invoice", { document_number: "ZZ-1" }))).toMatch(
      /not found.*list_purchase_invoices/,
    );
    expect(errorText(await call(client, "get_purchase_invoice", { invoice_id: issued[0].id }))).toMatch(
      /not found/,
    );
  });
});

describe("access", () => {
  it("a token restricted to one company never sees another company's invoices", async () => {
    const { token } = await createApiToken(t, ["mcp"], { companyId: other.companyId });
    const c = await streamableClient(base, token);
    const sales = structured<{ items: Summary[]; total: number }>(await call(c, "list_invoices", {}));
    expect(sales.items.map((i) => i.id)).toEqual([otherInvoice.id]);
    expect(
      structured<{ total: number }>(await call(c, "list_invoices", { company_id: fx.companyId })).total,
    ).toBe(0);
    expect(errorText(await call(c, "get_invoice", { invoice_id: issued[0].id }))).toMatch(/not found/);
    // The shared code resolves to its own company's invoice, without ambiguity.
    expect(
      structured<{ id: string }>(await call(c, "get_invoice", { document_number: issued[0].code })).id,
    ).toBe(otherInvoice.id);
    const purchases = structured<{ items: Summary[] }>(await call(c, "list_purchase_invoices", {}));
    expect(purchases.items.every((i) => i.company_id === other.companyId)).toBe(true);
    expect(purchases.items).toHaveLength(1);
    expect(errorText(await call(c, "get_purchase_invoice", { invoice_id: approved.id }))).toMatch(
      /not found/,
    );
    expect(errorText(await call(c, "get_purchase_invoice", { document_number: "A-77" }))).toMatch(
      /not found/,
    );
    await c.close();
  });

  it("the invoice tools need their scope: mcp:invoices and mcp:purchase_invoices", async () => {
    const names = async (scopes: string[]) => {
      const c = await streamableClient(base, (await createApiToken(t, scopes)).token);
      return { c, names: (await c.listTools()).tools.map((tool) => tool.name).sort() };
    };
    const salesOnly = await names(["mcp:invoices"]);
    expect(salesOnly.names).toEqual(withAnyTokenTools(["get_invoice", "list_invoices"]));
    await expect(call(salesOnly.c, "list_purchase_invoices", {})).rejects.toThrow(
      outOfScope("mcp:purchase_invoices"),
    );
    await salesOnly.c.close();
    const purchasesOnly = await names(["mcp:purchase_invoices"]);
    expect(purchasesOnly.names).toEqual(
      withAnyTokenTools(["get_purchase_invoice", "list_purchase_invoices"]),
    );
    await purchasesOnly.c.close();
    const contacts = await names(["mcp:contacts"]);
    await expect(call(contacts.c, "get_invoice", { invoice_id: issued[0].id })).rejects.toThrow(
      outOfScope("mcp:invoices"),
    );
    await contacts.c.close();
  });

  it("a token never reads more than its user: sales:leer for invoices, purchases:leer for supplier invoices", async () => {
    const user = await t.userWith(["sales:leer", "api_tokens:crear"]);
    const c = await streamableClient(base, (await createApiToken(t, ["mcp"], { as: user.token })).token);
    expect((await c.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
      "get_invoice",
      "list_invoices",
    ]);
    expect(errorText(await call(c, "list_purchase_invoices", {}))).toMatch(/purchases:leer/);
    await c.close();
  });
});
