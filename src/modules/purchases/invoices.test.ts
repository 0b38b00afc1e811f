import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers/app.js";
import { expectAfterWalksLikeSkip, expectUnknownCursorRefused } from "../../../test/helpers/pagination.js";
import {
  createContact,
  type DocOut,
  documentsFixture,
  entryLines,
  expectStatus,
  line,
} from "../documents/test-support.js";
import { approvedPurchaseInvoice, createPurchaseInvoice, invoiceAction } from "./test-support.js";

let t: TestApp;
let fx: Awaited<ReturnType<typeof documentsFixture>>;

beforeAll(async () => {
  t = await createTestApp();
  fx = await documentsFixture(t);
});
afterAll(async () => {
  await t?.close();
});

const get = async (id: string) =>
  expectStatus<DocOut>(
    await t.as(t.adminToken, { method: "GET", url: `/api/purchases/invoices/${id}` }),
    200,
  );
const numberOf = (code: string) => Number(code.slice(-6));

/** An entry as [account prefix, debit or credit, amount] rows, sorted. */
async function entryOf(entryId: string, prefixLength = 3) {
  return (await entryLines(t, entryId))
    .map((l) =>
      l.debit !== "0.00"
        ? [l.code.slice(0, prefixLength), "D", l.debit]
        : [l.code.slice(0, prefixLength), "C", l.credit],
    )
    .sort((a, b) => a.join().localeCompare(b.join()));
}

describe("supplier invoice states", () => {
  it("approval assigns our registration number in approval order, gapless; approving twice is a 409", async () => {
    const a = expectStatus<DocOut>(
      await createPurchaseInvoice(t, fx.companyId, fx.supplier.id, [line("1", "10")]),
      201,
    );
    const b = expectStatus<DocOut>(
      await createPurchaseInvoice(t, fx.companyId, fx.supplier.id, [line("1", "20")]),
      201,
    );
    expect(a).toMatchObject({ estado: "pendiente", code: null, number: null, entry_id: null });
    const approvedB = expectStatus<DocOut>(await invoiceAction(t, b.id, "approve"), 200);
    const approvedA = expectStatus<DocOut>(await invoiceAction(t, a.id, "approve"), 200);
    expect(approvedB.code).toMatch(/^FC2026-\d{6}$/);
    expect(numberOf(approvedA.code as string)).toBe(numberOf(approvedB.code as string) + 1);
    expect(approvedA.estado).toBe("aprobada");
    expect(approvedA.finalized_at).toBeTruthy();

    const twice = await invoiceAction(t, a.id, "approve");
    expect(twice.statusCode).toBe(409);
    expect(twice.json().allowed).toEqual([]);
    expect((await invoiceAction(t, a.id, "reject", { reason: "late" })).statusCode).toBe(409);
    expect((await invoiceAction(t, a.id, "reopen")).statusCode).toBe(409);

    // A rejected invoice takes no number; reopened and approved, it takes the next one.
    const c = expectStatus<DocOut>(
      await createPurchaseInvoice(t, fx.companyId, fx.supplier.id, [line("1", "30")]),
      201,
    );
    const rejected = expectStatus<DocOut>(
      await invoiceAction(t, c.id, "reject", { reason: "Precio erróneo" }),
      200,
    );
    expect(rejected).toMatchObject({
      estado: "rechazada",
      code: null,
      entry_id: null,
      rejection_reason: "Precio erróneo",
    });
    expect(rejected.dues).toEqual([]);
    const approveRejected = await invoiceAction(t, c.id, "approve");
    expect(approveRejected.statusCode).toBe(409);
    expect(approveRejected.json().allowed).toEqual(["pendiente"]);
    expect((await invoiceAction(t, c.id, "reject", { reason: "again" })).statusCode).toBe(409);
    const reopened = expectStatus<DocOut>(await invoiceAction(t, c.id, "reopen"), 200);
    expect(reopened.estado).toBe("pendiente");
    const reopenTwice = await invoiceAction(t, c.id, "reopen");
    expect(reopenTwice.statusCode).toBe(409);
    expect(reopenTwice.json().allowed).toEqual(["aprobada", "rechazada"]);
    const approvedC = expectStatus<DocOut>(await invoiceAction(t, c.id, "approve"), 200);
    expect(numberOf(approvedC.code as string)).toBe(numberOf(approvedA.code as string) + 1);
    expect(approvedC.rejection_reason).toBeNull();
  });

  it("edits and deletes only while pendiente (or rechazada is not editable either)", async () => {
    const pending = expectStatus<DocOut>(
      await createPurchaseInvoice(t, fx.companyId, fx.supplier.id, [line("2", "10")]),
      201,
    );
    const patched = expectStatus<DocOut>(
      await t.as(t.adminToken, {
        method: "PATCH",
        url: `/api/purchases/invoices/${pending.id}`,
        payload: { notes: "revisada", lines: [line("3", "10")] },
      }),
      200,
    );
    expect(patched.totals).toMatchObject({ net: "30.00", vat: "6.30", total: "36.30" });
    await invoiceAction(t, pending.id, "approve");
    const patch = await t.as(t.adminToken, {
      method: "PATCH",
      url: `/api/purchases/invoices/${pending.id}`,
      payload: { notes: "changed" },
    });
    expect(patch.statusCode).toBe(409);
    expect(patch.json().detail).toMatch(/aprobada/);
    const del = await t.as(t.adminToken, { method: "DELETE", url: `/api/purchases/invoices/${pending.id}` });
    expect(del.statusCode).toBe(409);

    const rejected = expectStatus<DocOut>(
      await createPurchaseInvoice(t, fx.companyId, fx.supplier.id, [line("1", "5")]),
      201,
    );
    await invoiceAction(t, rejected.id, "reject", { reason: "duplicada" });
    const patchRejected = await t.as(t.adminToken, {
      method: "PATCH",
      url: `/api/purchases/invoices/${rejected.id}`,
      payload: { notes: "x" },
    });
    expect(patchRejected.statusCode).toBe(409);

    const doomed = expectStatus<DocOut>(
      await createPurchaseInvoice(t, fx.companyId, fx.supplier.id, [line("1", "5")]),
      201,
    );
    expect(
      (await t.as(t.adminToken, { method: "DELETE", url: `/api/purchases/invoices/${doomed.id}` }))
        .statusCode,
    ).toBe(204);
    expect(
      (await t.as(t.adminToken, { method: "GET", url: `/api/purchases/invoices/${doomed.id}` })).statusCode,
    ).toBe(404);
  });

  it("refuses the same supplier number twice for one supplier and fiscal year (409), not across suppliers or years", async () => {
    const first = await createPurchaseInvoice(t, fx.companyId, fx.supplier.id, [line("1", "10")], {
      supplier_number: "F-2026/001",
    });
    expectStatus(first, 201);
    const again = await createPurchaseInvoice(t, fx.companyId, fx.supplier.id, [line("1", "11")], {
      supplier_number: "F-2026/001",
      date: "2026-11-30",
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toContain("F-2026/001");
    const otherSupplier = await createContact(t, fx.companyId, { name: "Otro proveedor" });
    expectStatus(
      await createPurchaseInvoice(t, fx.companyId, otherSupplier.id, [line("1", "10")], {
        supplier_number: "F-2026/001",
      }),
      201,
    );
    expectStatus(
      await createPurchaseInvoice(t, fx.companyId, fx.supplier.id, [line("1", "10")], {
        supplier_number: "F-2026/001",
        date: "2027-01-15",
      }),
      201,
    );
    // Renaming another invoice to the taken number is the same 409.
    const other = expectStatus<DocOut>(
      await createPurchaseInvoice(t, fx.companyId, fx.supplier.id, [line("1", "10")]),
      201,
    );
    const rename = await t.as(t.adminToken, {
      method: "PATCH",
      url: `/api/purchases/invoices/${other.id}`,
      payload: { supplier_number: "F-2026/001" },
    });
    expect(rename.statusCode).toBe(409);
  });
});

describe("posting of supplier invoices (documents.md, hand-computed)", () => {
  it("a general purchase: Dr 600/621 net per account, Dr 472 per rate, Cr 400 total, and its payment due", async () => {
    const inv = await approvedPurchaseInvoice(t, fx.companyId, fx.supplier.id, [
      line("3", "40", "IVA21"),
      line("1", "50", "IVA10", { account_code: "621" }),
    ]);
    // 120.00 @ 21 % = 25.20; 50.00 @ 10 % = 5.00; total 200.20.
    expect(inv.totals).toMatchObject({ net: "170.00", vat: "30.20", total: "200.20" });
    expect(await entryOf(inv.entry_id as string)).toEqual([
      ["400", "C", "200.20"],
      ["472", "D", "25.20"],
      ["472", "D", "5.00"],
      ["600", "D", "120.00"],
      ["621", "D", "50.00"],
    ]);
    expect((inv.dues as Array<{ amount: string }>).map((d) => d.amount)).toEqual(["200.20"]);
    const entry = expectStatus<{ date: string; concept: string }>(
      await t.as(t.adminToken, { method: "GET", url: `/api/accounting/entries/${inv.entry_id}` }),
      200,
    );
    expect(entry.date).toBe("2026-03-10");
    expect(entry.concept).toContain(inv.code);
  });

  it("a professional's invoice with IRPF: Cr 4751 the withholding, Cr 400 what is paid", async () => {
    const inv = await approvedPurchaseInvoice(t, fx.companyId, fx.supplier.id, [
      line("1", "1000", "IVA21", { irpf_code: "IRPF15", account_code: "623" }),
    ]);
    expect(inv.totals).toMatchObject({ net: "1000.00", vat: "210.00", irpf: "150.00", total: "1060.00" });
    expect(await entryOf(inv.entry_id as string, 4)).toEqual([
      ["4000", "C", "1060.00"],
      ["4720", "D", "210.00"],
      ["4751", "C", "150.00"],
      ["6230", "D", "1000.00"],
    ]);
  });

  it("a supplier credit note posts the mirror entry and reverses the invoice", async () => {
    const inv = await approvedPurchaseInvoice(t, fx.companyId, fx.supplier.id, [line("3", "40", "IVA21")]);
    const draft = expectStatus<DocOut>(
      await invoiceAction(t, inv.id, "rectify", { reason: "Devolución", supplier_number: "ABONO-1" }),
      201,
    );
    expect(draft).toMatchObject({
      estado: "pendiente",
      series: "R",
      corrects_invoice_id: inv.id,
      code: null,
    });
    expect(draft.totals).toMatchObject({ net: "-120.00", vat: "-25.20", total: "-145.20" });
    const credit = expectStatus<DocOut>(await invoiceAction(t, draft.id, "approve"), 200);
    expect(credit.code).toMatch(/^FCR2026-\d{6}$/);
    expect(await entryOf(credit.entry_id)).toEqual([
      ["400", "D", "145.20"],
      ["472", "C", "25.20"],
      ["600", "C", "120.00"],
    ]);
    expect((await get(inv.id)).payment_status).toBe("reversed");
    // A pending invoice cannot be rectified.
    const pending = expectStatus<DocOut>(
      await createPurchaseInvoice(t, fx.companyId, fx.supplier.id, [line("1", "1")]),
      201,
    );
    expect((await invoiceAction(t, pending.id, "rectify", { reason: "x" })).statusCode).toBe(409);
  });

  it("a company under recargo de equivalencia: the RE supplier vector 252.40 goes all to cost, no 472", async () => {
    const re = await documentsFixture(t);
    expectStatus(
      await t.as(t.adminToken, {
        method: "PUT",
        url: `/api/document-settings/${re.companyId}`,
        payload: { tax_regime: "recargo_equivalencia" },
      }),
      200,
    );
    const inv = await approvedPurchaseInvoice(t, re.companyId, re.supplier.id, [line("2", "100", "IVA21")]);
    expect(inv.totals).toMatchObject({ net: "200.00", vat: "42.00", re: "10.40", total: "252.40" });
    expect(
      (inv.taxes as Array<Record<string, string>>).map((x) => [x.rate, x.base, x.amount, x.re_amount]),
    ).toEqual([["21.00", "200.00", "42.00", "10.40"]]);
    expect(await entryOf(inv.entry_id as string)).toEqual([
      ["400", "C", "252.40"],
      ["600", "D", "252.40"],
    ]);
  });

  it("with automatic posting off, approval posts nothing and generate-accounting-entry posts once (409 naming the entry)", async () => {
    const manual = await documentsFixture(t);
    expectStatus(
      await t.as(t.adminToken, {
        method: "PUT",
        url: `/api/document-settings/${manual.companyId}`,
        payload: { auto_posting: false },
      }),
      200,
    );
    const inv = await approvedPurchaseInvoice(t, manual.companyId, manual.supplier.id, [line("1", "100")]);
    expect(inv.entry_id).toBeNull();
    expect((inv.dues as unknown[]).length).toBe(1);
    const posted = expectStatus<DocOut>(await invoiceAction(t, inv.id, "generate-accounting-entry"), 200);
    expect(await entryOf(posted.entry_id)).toEqual([
      ["400", "C", "121.00"],
      ["472", "D", "21.00"],
      ["600", "D", "100.00"],
    ]);
    const again = await invoiceAction(t, inv.id, "generate-accounting-entry");
    expect(again.statusCode).toBe(409);
    expect(again.json().entry_id).toBe(posted.entry_id);
    const pending = expectStatus<DocOut>(
      await createPurchaseInvoice(t, manual.companyId, manual.supplier.id, [line("1", "1")]),
      201,
    );
    const notYet = await invoiceAction(t, pending.id, "generate-accounting-entry");
    expect(notYet.statusCode).toBe(409);
    expect(notYet.json().allowed).toEqual(["aprobada"]);
  });
});

describe("the supplier invoice list", () => {
  it("after= walks the same pages as skip, also with search; totals are exact (total_is_estimate)", async () => {
    const supplier = await createContact(t, fx.companyId, { name: "Keyset Compras, S.L." });
    for (const date of ["2026-04-01", "2026-04-02", "2026-04-02", "2026-04-03"])
      expectStatus(
        await createPurchaseInvoice(t, fx.companyId, supplier.id, [line("1", "10")], { date }),
        201,
      );
    const url = `/api/purchases/invoices?supplier_id=${supplier.id}`;
    const ids = await expectAfterWalksLikeSkip(t, url);
    expect(ids).toHaveLength(4);
    expect(await expectAfterWalksLikeSkip(t, `${url}&search=keyset%20compras`)).toEqual(ids);
    const other = expectStatus<DocOut>(
      await createPurchaseInvoice(t, fx.companyId, fx.supplier.id, [line("1", "1")]),
      201,
    );
    await expectUnknownCursorRefused(t, url, other.id);
  });
});

describe("bad input", () => {
  it("answers 400 naming the field", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ supplier_number: undefined }, "supplier_number"],
      [{ supplier_number: "" }, "supplier_number"],
      [{ supplier_id: "nope" }, "supplier_id"],
      [{ supplier_id: randomUUID() }, "supplier_id"],
      [{ lines: [line("1", "10", "IVA99")] }, "lines.0.tax_code"],
      [{ lines: [line("1", "10", "IVA21", { irpf_code: "IVA21" })] }, "lines.0.irpf_code"],
      [{ lines: [{ description: "Sin precio", quantity: "1", tax_code: "IVA21" }] }, "lines.0.unit_price"],
      [{ lines: [line("-1", "10")] }, "lines.0.quantity"],
      [{ lines: [line("1,5", "10")] }, "lines.0.quantity"],
      [{ date: "2026-02-30" }, "date"],
      [{ discount1: "120" }, "discount1"],
      [{ series: "R" }, "series"],
    ];
    for (const [extra, path] of cases) {
      const res = await createPurchaseInvoice(t, fx.companyId, fx.supplier.id, [line("1", "10")], extra);
      expect(res.statusCode, `${JSON.stringify(extra)}: ${res.body}`).toBe(400);
      expect(res.headers["content-type"]).toMatch(/problem\+json/);
      const paths = res.json().errors.map((e: { path: string }) => e.path.replace(/^body\./, ""));
      expect(paths, JSON.stringify(extra)).toContain(path);
    }
    const pending = expectStatus<DocOut>(
      await createPurchaseInvoice(t, fx.companyId, fx.supplier.id, [line("1", "10")]),
      201,
    );
    const noReason = await invoiceAction(t, pending.id, "reject", { reason: " " });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().errors.map((e: { path: string }) => e.path)).toContain("body.reason");
    const notUuid = await invoiceAction(t, "42", "approve");
    expect(notUuid.statusCode).toBe(400);
  });
});
