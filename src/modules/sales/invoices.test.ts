import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers/app.js";
import { expectAfterWalksLikeSkip, expectUnknownCursorRefused } from "../../../test/helpers/pagination.js";
import { createCompany } from "../accounting/test-support.js";
import {
  createContact,
  createSalesInvoice,
  type DocOut,
  documentsFixture,
  entryLines,
  expectStatus,
  issuedSalesInvoice,
  issueSalesInvoice,
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

const retentionLines = [
  line("1", "100", "IVA21", { irpf_code: "IRPF15" }),
  line("2", "10", "IVA4", { irpf_code: "IRPF15" }),
  line("5", "11", "IVA21"),
];

describe("sales invoices", () => {
  it("computes the retention vector and posts exactly its entry when issued", async () => {
    const draft = expectStatus<DocOut>(
      await createSalesInvoice(t, fx.companyId, fx.customer.id, retentionLines),
      201,
    );
    expect(draft.estado).toBe("borrador");
    expect(draft.code).toBeNull();
    expect(draft.totals).toMatchObject({ net: "175.00", vat: "33.35", irpf: "18.00", total: "190.35" });

    const issued = expectStatus<DocOut>(await issueSalesInvoice(t, draft.id), 200);
    expect(issued.estado).toBe("emitida");
    expect(issued.code).toMatch(/^FV2026-\d{6}$/);
    expect(issued.entry_id).toBeTruthy();
    // One receipt at the customer's 30 days, long past in 2026-11: overdue.
    expect(issued.dues.map((d) => [d.due_date, d.amount])).toEqual([["2026-04-09", "190.35"]]);
    expect(issued.payment_status).toBe("vencida");

    const lines = await entryLines(t, issued.entry_id);
    const debits = lines.filter((l) => l.debit !== "0.00").map((l) => [l.code.slice(0, 3), l.debit]);
    const credits = lines.filter((l) => l.credit !== "0.00").map((l) => [l.code.slice(0, 3), l.credit]);
    expect(debits.sort()).toEqual([
      ["430", "190.35"],
      ["473", "18.00"],
    ]);
    // 477 per rate: 21 % on 155.00 and 4 % on 20.00.
    expect(credits.sort()).toEqual([
      ["477", "0.80"],
      ["477", "32.55"],
      ["700", "175.00"],
    ]);
  });

  it("numbers issued invoices correlatively and refuses a date before the last one", async () => {
    const a = await issuedSalesInvoice(t, fx.companyId, fx.customer.id, [line("1", "50")], "2026-04-01");
    const b = await issuedSalesInvoice(t, fx.companyId, fx.customer.id, [line("1", "60")], "2026-04-02");
    expect(Number(b.code.slice(-6))).toBe(Number(a.code.slice(-6)) + 1);
    const late = expectStatus<{ id: string }>(
      await createSalesInvoice(t, fx.companyId, fx.customer.id, [line("1", "70")]),
      201,
    );
    const res = await issueSalesInvoice(t, late.id, "2026-04-01");
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toContain("earlier");
    // The refused issue took no number: the next one follows b.
    const c = expectStatus<{ code: string }>(await issueSalesInvoice(t, late.id, "2026-04-03"), 200);
    expect(Number(c.code.slice(-6))).toBe(Number(b.code.slice(-6)) + 1);
  });

  it("never edits or deletes an issued invoice", async () => {
    const issued = await issuedSalesInvoice(t, fx.companyId, fx.customer.id, [line("1", "80")], "2026-05-01");
    const patch = await t.as(t.adminToken, {
      method: "PATCH",
      url: `/api/sales/invoices/${issued.id}`,
      payload: { notes: "changed" },
    });
    expect(patch.statusCode).toBe(409);
    const del = await t.as(t.adminToken, { method: "DELETE", url: `/api/sales/invoices/${issued.id}` });
    expect(del.statusCode).toBe(409);
    const again = await issueSalesInvoice(t, issued.id, "2026-05-02");
    expect(again.statusCode).toBe(409);
    expect(again.json().allowed).toEqual([]);
  });

  it("rectifies an issued invoice with a negative invoice in series R that posts the mirror entry", async () => {
    const original = await issuedSalesInvoice(t, fx.companyId, fx.customer.id, retentionLines, "2026-06-01");
    const draft = expectStatus<DocOut>(
      await t.as(t.adminToken, {
        method: "POST",
        url: `/api/sales/invoices/${original.id}/rectify`,
        payload: { reason: "Devolución total" },
      }),
      201,
    );
    expect(draft.series).toBe("R");
    expect(draft.corrects_invoice_id).toBe(original.id);
    expect(draft.rectification_type).toBe("I");
    expect(draft.totals).toMatchObject({ net: "-175.00", vat: "-33.35", irpf: "-18.00", total: "-190.35" });
    const issued = expectStatus<DocOut>(await issueSalesInvoice(t, draft.id, "2026-06-02"), 200);
    expect(issued.code).toMatch(/^FVR2026-\d{6}$/);
    const lines = await entryLines(t, issued.entry_id);
    const credits = lines.filter((l) => l.credit !== "0.00").map((l) => [l.code.slice(0, 3), l.credit]);
    expect(credits.sort()).toEqual([
      ["430", "190.35"],
      ["473", "18.00"],
    ]);
    const originalNow = expectStatus<DocOut>(
      await t.as(t.adminToken, { method: "GET", url: `/api/sales/invoices/${original.id}` }),
      200,
    );
    expect(originalNow.payment_status).toBe("reversed");
    expect(originalNow.rectifications.map((r) => r.id)).toEqual([issued.id]);
    // Nothing is left to rectify.
    const more = await t.as(t.adminToken, {
      method: "POST",
      url: `/api/sales/invoices/${original.id}/rectify`,
      payload: { reason: "Otra vez" },
    });
    expect(more.statusCode).toBe(409);
  });

  it("issues a rectification by substitution that changes no amount without an entry", async () => {
    const original = await issuedSalesInvoice(t, fx.companyId, fx.customer.id, retentionLines, "2026-06-03");
    const draft = expectStatus<DocOut>(
      await t.as(t.adminToken, {
        method: "POST",
        url: `/api/sales/invoices/${original.id}/rectify`,
        payload: { reason: "NIF del cliente corregido", type: "S" },
      }),
      201,
    );
    expect(draft.rectification_type).toBe("S");
    expect(draft.totals).toMatchObject({ net: "0.00", total: "0.00" });
    const issued = expectStatus<DocOut>(await issueSalesInvoice(t, draft.id, "2026-06-04"), 200);
    expect(issued.code).toMatch(/^FVR2026-\d{6}$/);
    expect(issued.entry_id).toBeNull();
    const entry = await t.as(t.adminToken, {
      method: "POST",
      url: `/api/sales/invoices/${issued.id}/generate-accounting-entry`,
    });
    expect(entry.statusCode).toBe(409);
  });

  it("refuses bad lines with a 400 naming the field", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [line("1", "10", "IVA99"), "lines.0.tax_code"],
      [{ description: "Sin precio", quantity: "1", tax_code: "IVA21" }, "lines.0.unit_price"],
      [line("-1", "10"), "lines.0.quantity"],
    ];
    for (const [bad, path] of cases) {
      const res = await createSalesInvoice(t, fx.companyId, fx.customer.id, [line("1", "5"), bad].reverse());
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().errors.map((e: { path: string }) => e.path)).toContain(path);
    }
  });

  it("serves the invoice as a PDF", async () => {
    const issued = await issuedSalesInvoice(
      t,
      fx.companyId,
      fx.customer.id,
      [line("2", "12.5")],
      "2026-07-01",
    );
    const res = await t.as(t.adminToken, { method: "GET", url: `/api/sales/invoices/${issued.id}/pdf` });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.headers["content-disposition"]).toContain(issued.code);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
  });
});

describe("lists of sales documents", () => {
  it("after= walks the same pages as skip, newest first, ties by id; totals are exact (total_is_estimate)", async () => {
    const client = await createContact(t, fx.companyId, { name: "Keyset Ventas, S.L." });
    const create = async (kind: string, date: string) =>
      expectStatus<DocOut>(
        await t.as(t.adminToken, {
          method: "POST",
          url: `/api/sales/${kind}`,
          payload: { company_id: fx.companyId, client_id: client.id, date, lines: [line("1", "10")] },
        }),
        201,
      );
    const drafts: DocOut[] = [];
    for (const date of ["2026-03-01", "2026-03-02", "2026-03-02", "2026-03-02", "2026-03-03"])
      drafts.push(await create("invoices", date));
    const url = `/api/sales/invoices?client_id=${client.id}`;
    const ids = await expectAfterWalksLikeSkip(t, url);
    expect([...ids].sort()).toEqual(drafts.map((d) => d.id).sort());
    // The series filter (a subquery now) walks the same list; an unknown series lists nothing.
    expect(await expectAfterWalksLikeSkip(t, `${url}&series=${drafts[0].series}`)).toEqual(ids);
    const none = await t.as(t.adminToken, { method: "GET", url: `${url}&series=ZZZZ` });
    expect(none.json()).toEqual({ data: [], total: 0, total_is_estimate: false, skip: 0, limit: 50 });

    // The other kinds come from the same engine.
    for (const date of ["2026-03-01", "2026-03-01", "2026-03-04"]) await create("estimates", date);
    const estimates = await expectAfterWalksLikeSkip(t, `/api/sales/estimates?client_id=${client.id}`);
    // An estimate is no row of the invoices, an invoice of another client no row of this client's.
    await expectUnknownCursorRefused(t, url, estimates[0]);
    const other = expectStatus<DocOut>(
      await createSalesInvoice(t, fx.companyId, fx.customer.id, [line("1", "1")]),
      201,
    );
    await expectUnknownCursorRefused(t, url, other.id);
  });

  it("one filter shape alternating companies, callers and searches: each page and total is the caller's own", async () => {
    const other = await createCompany(t, { name: "Other documents company" });
    const otherClient = await createContact(t, other, { name: "Cliente Otra, S.L." });
    for (const n of ["1", "2"])
      expectStatus(await createSalesInvoice(t, other, otherClient.id, [line(n, "10")]), 201);
    const restricted = await t.userWith(["sales:leer"], { companyId: fx.companyId });
    type Page = { data: { company_id: string; client_id: string }[]; total: number };
    const list = async (token: string, query: string) =>
      expectStatus<Page>(await t.as(token, { method: "GET", url: `/api/sales/invoices?${query}` }), 200);
    const own = await list(t.adminToken, `company_id=${fx.companyId}`);
    expect(own.total).toBeGreaterThan(2);
    // The same shapes (a company; a company and a search) run as the same prepared page and count.
    for (let i = 0; i < 4; i++) {
      const mine = await list(t.adminToken, `company_id=${fx.companyId}`);
      expect(mine.total).toBe(own.total);
      expect(mine.data.every((d) => d.company_id === fx.companyId)).toBe(true);
      const theirs = await list(t.adminToken, `company_id=${other}`);
      expect(theirs.total).toBe(2);
      expect(theirs.data.every((d) => d.company_id === other && d.client_id === otherClient.id)).toBe(true);
      expect(await list(restricted.token, `company_id=${other}`)).toMatchObject({ total: 0, data: [] });
      expect((await list(restricted.token, `company_id=${fx.companyId}`)).total).toBe(own.total);
      expect(await list(t.adminToken, `company_id=${other}&search=Otra`)).toMatchObject({ total: 2 });
      expect(await list(t.adminToken, `company_id=${fx.companyId}&search=Otra`)).toMatchObject({ total: 0 });
    }
  });
});
