import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers/app.js";
import { type DocOut, documentsFixture, expectStatus, line } from "../documents/test-support.js";

let t: TestApp;
let fx: Awaited<ReturnType<typeof documentsFixture>>;

beforeAll(async () => {
  t = await createTestApp();
  fx = await documentsFixture(t);
});
afterAll(async () => {
  await t?.close();
});

type Doc = DocOut;

async function create(kind: string, lines: Record<string, unknown>[]) {
  return expectStatus<Doc>(
    await t.as(t.adminToken, {
      method: "POST",
      url: `/api/sales/${kind}`,
      payload: { company_id: fx.companyId, client_id: fx.customer.id, date: "2026-02-01", lines },
    }),
    201,
    `create ${kind}`,
  );
}

const get = async (kind: string, id: string) =>
  expectStatus<Doc>(await t.as(t.adminToken, { method: "GET", url: `/api/sales/${kind}/${id}` }), 200);

const post = (url: string, payload?: unknown) =>
  t.as(t.adminToken, { method: "POST", url, payload: payload as object });

describe("conversion of sales documents", () => {
  it("converts part of an estimate, tracks what remains, and refuses taking more", async () => {
    const estimate = await create("estimates", [line("10", "20"), line("3", "5", "IVA10")]);
    expect(estimate.code).toMatch(/^PRV2026-\d{6}$/);
    const [a] = estimate.lines;
    const order = expectStatus<Doc>(
      await post(`/api/sales/estimates/${estimate.id}/convert-to-order`, {
        lines: [{ line_id: a.id, quantity: "4" }],
      }),
      201,
    );
    expect(order.kind).toBe("order");
    expect(order.lines.map((l) => l.quantity)).toEqual(["4.0000"]);
    expect(order.sources.map((s) => s.id)).toEqual([estimate.id]);
    let now = await get("estimates", estimate.id);
    expect(now.estado).toBe("parcial");
    expect(now.lines[0].served_quantity).toBe("4.0000");

    const over = await post(`/api/sales/estimates/${estimate.id}/convert-to-order`, {
      lines: [{ line_id: a.id, quantity: "7" }],
    });
    expect(over.statusCode).toBe(409);
    expect(over.json().remaining).toBe("6.0000");

    // The rest, whole: 6 of line a and 3 of line b.
    const rest = expectStatus<Doc>(await post(`/api/sales/estimates/${estimate.id}/convert-to-order`), 201);
    expect(rest.lines.map((l) => l.quantity)).toEqual(["6.0000", "3.0000"]);
    now = await get("estimates", estimate.id);
    expect(now.estado).toBe("convertido");
    expect((await post(`/api/sales/estimates/${estimate.id}/convert-to-order`)).statusCode).toBe(409);

    // Deleting the later order gives its quantities back.
    const del = await t.as(t.adminToken, { method: "DELETE", url: `/api/sales/orders/${rest.id}` });
    expect(del.statusCode).toBe(204);
    now = await get("estimates", estimate.id);
    expect(now.estado).toBe("parcial");
    expect(now.lines.map((l) => l.served_quantity)).toEqual(["4.0000", "0.0000"]);
  });

  it("a document with later documents cannot be deleted", async () => {
    const estimate = await create("estimates", [line("1", "100")]);
    expectStatus(await post(`/api/sales/estimates/${estimate.id}/convert-to-order`), 201);
    const res = await t.as(t.adminToken, { method: "DELETE", url: `/api/sales/estimates/${estimate.id}` });
    expect(res.statusCode).toBe(409);
  });

  it("merges several delivery notes of one customer into one invoice", async () => {
    const n1 = await create("delivery-notes", [line("2", "10")]);
    const n2 = await create("delivery-notes", [line("1", "30", "IVA10")]);
    const invoice = expectStatus<Doc>(
      await post("/api/sales/delivery-notes/convert-to-invoice", { delivery_note_ids: [n1.id, n2.id] }),
      201,
    );
    expect(invoice.estado).toBe("borrador");
    expect(invoice.lines).toHaveLength(2);
    expect(invoice.totals.net).toBe("50.00");
    expect(invoice.sources.map((s) => s.id).sort()).toEqual([n1.id, n2.id].sort());
    expect((await get("delivery-notes", n1.id)).estado).toBe("convertido");
    // Reducing a converted line on the draft invoice gives the difference back to its note.
    const patched = expectStatus<Doc>(
      await t.as(t.adminToken, {
        method: "PATCH",
        url: `/api/sales/invoices/${invoice.id}`,
        payload: {
          lines: [
            { ...line("1", "10"), id: invoice.lines[0].id },
            { ...line("1", "30", "IVA10"), id: invoice.lines[1].id },
          ],
        },
      }),
      200,
    );
    expect(patched.totals.net).toBe("40.00");
    const n1Now = await get("delivery-notes", n1.id);
    expect(n1Now.estado).toBe("parcial");
    expect(n1Now.lines[0].served_quantity).toBe("1.0000");
  });

  it("changes states by hand only along the table, naming the allowed ones", async () => {
    const estimate = await create("estimates", [line("1", "10")]);
    const put = (estado: string) =>
      t.as(t.adminToken, {
        method: "PUT",
        url: `/api/sales/estimates/${estimate.id}/estado`,
        payload: { estado },
      });
    const refused = await put("convertido");
    expect(refused.statusCode).toBe(409);
    expect(refused.json().allowed).toEqual(["abierto", "cancelado"]);
    expect((await put("abierto")).statusCode).toBe(200);
    expect((await put("rechazado")).statusCode).toBe(200);
    const cannotConvert = await post(`/api/sales/estimates/${estimate.id}/convert-to-order`);
    expect(cannotConvert.statusCode).toBe(409);
  });
});
