import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers/app.js";
import { type DocOut, documentsFixture, expectStatus, line } from "../documents/test-support.js";
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

async function create(
  kind: string,
  lines: Record<string, unknown>[],
  companyId = fx.companyId,
  supplierId = fx.supplier.id,
) {
  return expectStatus<DocOut>(
    await t.as(t.adminToken, {
      method: "POST",
      url: `/api/purchases/${kind}`,
      payload: { company_id: companyId, supplier_id: supplierId, date: "2026-02-01", lines },
    }),
    201,
    `create ${kind}`,
  );
}

const get = async (kind: string, id: string) =>
  expectStatus<DocOut>(await t.as(t.adminToken, { method: "GET", url: `/api/purchases/${kind}/${id}` }), 200);
/** Conversions dated like the documents (numbers of a series follow their dates). */
const post = (url: string, payload: Record<string, unknown> = {}) =>
  t.as(t.adminToken, { method: "POST", url, payload: { date: "2026-02-01", ...payload } });

describe("conversion of purchase documents", () => {
  it("estimate -> order in part, what remains, over-conversion 409, then the rest", async () => {
    const estimate = await create("estimates", [line("10", "20"), line("4", "5", "IVA10")]);
    expect(estimate.code).toMatch(/^PRC2026-\d{6}$/);
    const [a, b] = estimate.lines;
    const order = expectStatus<DocOut>(
      await post(`/api/purchases/estimates/${estimate.id}/convert-to-order`, {
        lines: [{ line_id: a.id, quantity: "6" }],
      }),
      201,
    );
    expect(order.code).toMatch(/^PEC2026-\d{6}$/);
    expect(order.lines.map((l) => l.quantity)).toEqual(["6.0000"]);
    let now = await get("estimates", estimate.id);
    expect(now.estado).toBe("parcial");
    expect(now.lines.map((l) => l.served_quantity)).toEqual(["6.0000", "0.0000"]);
    const over = await post(`/api/purchases/estimates/${estimate.id}/convert-to-order`, {
      lines: [{ line_id: a.id, quantity: "4.0001" }],
    });
    expect(over.statusCode).toBe(409);
    expect(over.json().remaining).toBe("4.0000");
    const foreignLine = await post(`/api/purchases/estimates/${estimate.id}/convert-to-order`, {
      lines: [{ line_id: order.lines[0].id, quantity: "1" }],
    });
    expect(foreignLine.statusCode).toBe(400);
    const rest = expectStatus<DocOut>(
      await post(`/api/purchases/estimates/${estimate.id}/convert-to-order`),
      201,
    );
    expect(rest.lines.map((l) => [l.quantity, l.vat_rate])).toEqual([
      ["4.0000", "21.00"],
      ["4.0000", "10.00"],
    ]);
    now = await get("estimates", estimate.id);
    expect(now.estado).toBe("convertido");
    expect((now.targets as Array<{ id: string }>).map((x) => x.id).sort()).toEqual(
      [order.id, rest.id].sort(),
    );
    expect(b.id).toBeTruthy();
  });

  it("order -> delivery notes -> one supplier invoice merging several notes, which needs the supplier's number", async () => {
    const order = await create("orders", [line("10", "3")]);
    const n1 = expectStatus<DocOut>(
      await post(`/api/purchases/orders/${order.id}/convert-to-delivery-note`, {
        lines: [{ line_id: order.lines[0].id, quantity: "4" }],
      }),
      201,
    );
    const n2 = expectStatus<DocOut>(
      await post(`/api/purchases/orders/${order.id}/convert-to-delivery-note`),
      201,
    );
    expect(n2.lines[0].quantity).toBe("6.0000");
    expect((await get("orders", order.id)).estado).toBe("convertido");
    const other = await create("delivery-notes", [line("1", "100", "IVA4")]);

    const noNumber = await post("/api/purchases/delivery-notes/convert-to-invoice", {
      delivery_note_ids: [n1.id, n2.id],
    });
    expect(noNumber.statusCode).toBe(400);
    expect(JSON.stringify(noNumber.json().errors)).toContain("supplier_number");

    const invoice = expectStatus<DocOut>(
      await post("/api/purchases/delivery-notes/convert-to-invoice", {
        delivery_note_ids: [n1.id, n2.id, other.id],
        supplier_number: "ALB-3",
      }),
      201,
    );
    expect(invoice).toMatchObject({ estado: "pendiente", supplier_number: "ALB-3", code: null });
    expect(invoice.lines.map((l) => l.quantity)).toEqual(["4.0000", "6.0000", "1.0000"]);
    // 30.00 @ 21 % + 100.00 @ 4 %.
    expect(invoice.totals).toMatchObject({ net: "130.00", vat: "10.30", total: "140.30" });
    expect(invoice.sources.map((s) => s.id).sort()).toEqual([n1.id, n2.id, other.id].sort());
    for (const n of [n1, n2, other]) expect((await get("delivery-notes", n.id)).estado).toBe("convertido");
    const again = await post("/api/purchases/delivery-notes/convert-to-invoice", {
      delivery_note_ids: [n1.id],
      supplier_number: "ALB-4",
    });
    expect(again.statusCode).toBe(409);

    // Notes of two suppliers never merge.
    const stranger = expectStatus<{ id: string }>(
      await t.as(t.adminToken, {
        method: "POST",
        url: "/api/clients",
        payload: { company_id: fx.companyId, contact_type: "supplier", name: "Otro", tax_id: "B00000026" },
      }),
      201,
    );
    const s1 = await create("delivery-notes", [line("1", "1")]);
    const s2 = await create("delivery-notes", [line("1", "1")], fx.companyId, stranger.id);
    const mixed = await post("/api/purchases/delivery-notes/convert-to-invoice", {
      delivery_note_ids: [s1.id, s2.id],
      supplier_number: "MIX-1",
    });
    expect(mixed.statusCode).toBe(409);

    // The invoice from an order goes straight to a pending supplier invoice with its number.
    const direct = await create("orders", [line("2", "50")]);
    const inv = expectStatus<DocOut>(
      await post(`/api/purchases/orders/${direct.id}/convert-to-invoice`, { supplier_number: "DIR-1" }),
      201,
    );
    expect(inv).toMatchObject({ estado: "pendiente", kind: "invoice", supplier_number: "DIR-1" });
    // Deleting the pending invoice gives the order back its quantities.
    expect(
      (await t.as(t.adminToken, { method: "DELETE", url: `/api/purchases/invoices/${inv.id}` })).statusCode,
    ).toBe(204);
    expect((await get("orders", direct.id)).estado).toBe("abierto");
  });

  it("moves states by hand along the table only, naming the allowed ones", async () => {
    const order = await create("orders", [line("1", "10")]);
    const put = (estado: string) =>
      t.as(t.adminToken, {
        method: "PUT",
        url: `/api/purchases/orders/${order.id}/estado`,
        payload: { estado },
      });
    const refused = await put("convertido");
    expect(refused.statusCode).toBe(409);
    expect(refused.json().allowed).toEqual(["abierto", "cancelado"]);
    expect(expectStatus<DocOut>(await put("abierto"), 200).estado).toBe("abierto");
    expect(expectStatus<DocOut>(await put("cancelado"), 200).estado).toBe("cancelado");
    expect(
      (await post(`/api/purchases/orders/${order.id}/convert-to-invoice`, { supplier_number: "C-1" }))
        .statusCode,
    ).toBe(409);
    const patch = await t.as(t.adminToken, {
      method: "PATCH",
      url: `/api/purchases/orders/${order.id}`,
      payload: { notes: "x" },
    });
    expect(patch.statusCode).toBe(409);
  });
});

describe("company restriction on every purchases route", () => {
  it("a user of another company gets 404 for each of this company's documents, and lists none of them", async () => {
    const other = await documentsFixture(t);
    const user = await t.userWith(
      [
        "purchases:leer",
        "purchases:crear",
        "purchases:editar",
        "purchases:eliminar",
        "purchases:validar",
        "accounting:crear",
      ],
      { companyId: other.companyId },
    );
    const estimate = await create("estimates", [line("1", "10")]);
    const order = await create("orders", [line("1", "10")]);
    const note = await create("delivery-notes", [line("1", "10")]);
    const pending = expectStatus<DocOut>(
      await createPurchaseInvoice(t, fx.companyId, fx.supplier.id, [line("1", "10")]),
      201,
    );
    const approved = await approvedPurchaseInvoice(t, fx.companyId, fx.supplier.id, [line("1", "10")]);
    const as = (method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE", url: string, payload?: unknown) =>
      t.as(user.token, { method, url, ...(payload === undefined ? {} : { payload: payload as object }) });

    const calls: Array<[string, ReturnType<typeof as>]> = [];
    const add = (label: string, call: ReturnType<typeof as>) => calls.push([label, call]);
    for (const [kind, doc] of [
      ["estimates", estimate],
      ["orders", order],
      ["delivery-notes", note],
      ["invoices", pending],
    ] as const) {
      add(`GET ${kind}/id`, as("GET", `/api/purchases/${kind}/${doc.id}`));
      add(`PATCH ${kind}/id`, as("PATCH", `/api/purchases/${kind}/${doc.id}`, { notes: "x" }));
      add(`GET ${kind}/id/pdf`, as("GET", `/api/purchases/${kind}/${doc.id}/pdf`));
      if (kind !== "invoices")
        add(
          `PUT ${kind}/id/estado`,
          as("PUT", `/api/purchases/${kind}/${doc.id}/estado`, { estado: "abierto" }),
        );
    }
    add(
      "convert-to-order",
      as("POST", `/api/purchases/estimates/${estimate.id}/convert-to-order`, { date: "2026-02-01" }),
    );
    add(
      "convert-to-delivery-note",
      as("POST", `/api/purchases/orders/${order.id}/convert-to-delivery-note`, { date: "2026-02-01" }),
    );
    add(
      "orders convert-to-invoice",
      as("POST", `/api/purchases/orders/${order.id}/convert-to-invoice`, { supplier_number: "X-1" }),
    );
    add(
      "delivery-notes/convert-to-invoice",
      as("POST", "/api/purchases/delivery-notes/convert-to-invoice", {
        delivery_note_ids: [note.id],
        supplier_number: "X-2",
      }),
    );
    add("approve", as("POST", `/api/purchases/invoices/${pending.id}/approve`));
    add("reject", as("POST", `/api/purchases/invoices/${pending.id}/reject`, { reason: "no" }));
    add("reopen", as("POST", `/api/purchases/invoices/${pending.id}/reopen`));
    add("rectify", as("POST", `/api/purchases/invoices/${approved.id}/rectify`, { reason: "no" }));
    add(
      "generate-accounting-entry",
      as("POST", `/api/purchases/invoices/${approved.id}/generate-accounting-entry`),
    );
    for (const kind of ["estimates", "orders", "delivery-notes", "invoices"])
      add(
        `POST ${kind} in another company`,
        as("POST", `/api/purchases/${kind}`, {
          company_id: fx.companyId,
          supplier_id: fx.supplier.id,
          supplier_number: "X-3",
          lines: [line("1", "1")],
        }),
      );
    for (const [label, call] of calls) expect((await call).statusCode, label).toBe(404);
    // Deletes last, so the 404s above were not caused by a vanished document.
    for (const [kind, doc] of [
      ["estimates", estimate],
      ["orders", order],
      ["delivery-notes", note],
      ["invoices", pending],
    ] as const)
      expect((await as("DELETE", `/api/purchases/${kind}/${doc.id}`)).statusCode, `DELETE ${kind}`).toBe(404);

    // Their own company's supplier may not be used by ours either: 400 naming supplier_id.
    const foreign = await as("POST", "/api/purchases/orders", {
      supplier_id: fx.supplier.id,
      lines: [line("1", "1")],
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors.map((e: { path: string }) => e.path)).toContain("supplier_id");

    for (const kind of ["estimates", "orders", "delivery-notes", "invoices"]) {
      const mine = expectStatus<{ total: number }>(await as("GET", `/api/purchases/${kind}`), 200);
      expect(mine.total, kind).toBe(0);
      const asked = expectStatus<{ total: number }>(
        await as("GET", `/api/purchases/${kind}?company_id=${fx.companyId}`),
        200,
      );
      expect(asked.total, kind).toBe(0);
    }
    // Nothing changed on our side.
    expect((await get("invoices", pending.id)).estado).toBe("pendiente");
    expect((await get("estimates", estimate.id)).estado).toBe("borrador");
  });

  it("a user without purchases permissions gets 403", async () => {
    const user = await t.userWith(["sales:leer"]);
    expect((await t.as(user.token, { method: "GET", url: "/api/purchases/invoices" })).statusCode).toBe(403);
    const approver = await t.userWith(["purchases:leer", "purchases:crear"]);
    const pending = expectStatus<DocOut>(
      await createPurchaseInvoice(t, fx.companyId, fx.supplier.id, [line("1", "10")]),
      201,
    );
    expect((await invoiceAction(t, pending.id, "approve", undefined, approver.token)).statusCode).toBe(403);
  });
});
