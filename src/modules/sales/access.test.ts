import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers/app.js";
import {
  createSalesInvoice,
  type DocOut,
  documentsFixture,
  expectStatus,
  issuedSalesInvoice,
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

const DATE = "2026-02-01";
async function create(kind: string, lines = [line("1", "10")]) {
  return expectStatus<DocOut>(
    await t.as(t.adminToken, {
      method: "POST",
      url: `/api/sales/${kind}`,
      payload: { company_id: fx.companyId, client_id: fx.customer.id, date: DATE, lines },
    }),
    201,
    `create ${kind}`,
  );
}
const put = (kind: string, id: string, estado: string) =>
  t.as(t.adminToken, { method: "PUT", url: `/api/sales/${kind}/${id}/estado`, payload: { estado } });

/** The hand transitions of documents.md for orders and delivery notes (estimates add caducado). */
const BY_HAND: Record<string, string[]> = {
  borrador: ["abierto", "cancelado"],
  abierto: ["borrador", "rechazado", "cancelado"],
  parcial: ["cancelado"],
  convertido: [],
  rechazado: ["abierto"],
  cancelado: ["borrador"],
};
const STATES = ["borrador", "abierto", "parcial", "convertido", "rechazado", "cancelado"];

/** A new document of `kind` brought to `state` through the API (conversions for parcial/convertido). */
async function inState(kind: string, state: string): Promise<DocOut> {
  const doc = await create(kind, [line("2", "10")]);
  const via: Record<string, string[]> = {
    borrador: [],
    abierto: ["abierto"],
    rechazado: ["abierto", "rechazado"],
    cancelado: ["cancelado"],
  };
  if (state === "parcial" || state === "convertido") {
    const path = kind === "delivery-notes" ? "/api/sales/delivery-notes/convert-to-invoice" : null;
    const body = {
      date: DATE,
      ...(state === "parcial" ? { lines: [{ line_id: doc.lines[0].id, quantity: "1" }] } : {}),
    };
    const res = path
      ? await t.as(t.adminToken, {
          method: "POST",
          url: path,
          payload: { ...body, delivery_note_ids: [doc.id] },
        })
      : await t.as(t.adminToken, {
          method: "POST",
          url: `/api/sales/${kind}/${doc.id}/${kind === "estimates" ? "convert-to-order" : "convert-to-delivery-note"}`,
          payload: body,
        });
    expectStatus(res, 201, `convert ${kind}`);
  } else
    for (const step of via[state]) expectStatus(await put(kind, doc.id, step), 200, `${kind} -> ${step}`);
  return doc;
}

describe("state transitions through PUT /estado", () => {
  for (const kind of ["orders", "delivery-notes"]) {
    it(`${kind}: every hand transition allowed by the table is a 200, every other a 409 naming the allowed ones`, async () => {
      for (const from of STATES) {
        for (const to of STATES) {
          if (to === from) continue;
          const doc = await inState(kind, from);
          const res = await put(kind, doc.id, to);
          if (BY_HAND[from].includes(to)) {
            expect(res.statusCode, `${from} -> ${to}: ${res.body}`).toBe(200);
            expect(res.json().estado).toBe(to);
          } else {
            expect(res.statusCode, `${from} -> ${to}: ${res.body}`).toBe(409);
            expect(res.json().allowed, `${from} -> ${to}`).toEqual(BY_HAND[from]);
          }
        }
      }
    }, 120_000);
  }

  it("estimates: caducado is never set by hand; an expired valid_until blocks reopening", async () => {
    const estimate = await create("estimates");
    const refused = await put("estimates", estimate.id, "caducado");
    expect(refused.statusCode).toBe(409);
    expect(refused.json().allowed).toEqual(["abierto", "cancelado"]);
    const expired = expectStatus<DocOut>(
      await t.as(t.adminToken, {
        method: "POST",
        url: "/api/sales/estimates",
        payload: {
          company_id: fx.companyId,
          client_id: fx.customer.id,
          date: DATE,
          valid_until: "2026-02-15",
          lines: [line("1", "1")],
        },
      }),
      201,
    );
    const reopen = await put("estimates", expired.id, "abierto");
    expect(reopen.statusCode).toBe(400);
    expect(reopen.json().errors.map((e: { path: string }) => e.path)).toContain("valid_until");
  });

  it("sales invoices: borrador -> emitida by issuing only; an issued invoice refuses every change", async () => {
    const draft = expectStatus<DocOut>(
      await createSalesInvoice(t, fx.companyId, fx.customer.id, [line("1", "5")]),
      201,
    );
    // Invoices have no PUT /estado: their only transition is POST /issue.
    expect(
      (
        await t.as(t.adminToken, {
          method: "PUT",
          url: `/api/sales/invoices/${draft.id}/estado`,
          payload: { estado: "emitida" },
        })
      ).statusCode,
    ).toBe(404);
    const issued = expectStatus<DocOut>(
      await t.as(t.adminToken, {
        method: "POST",
        url: `/api/sales/invoices/${draft.id}/issue`,
        payload: { date: "2026-03-01" },
      }),
      200,
    );
    expect(issued.estado).toBe("emitida");
    const again = await t.as(t.adminToken, {
      method: "POST",
      url: `/api/sales/invoices/${draft.id}/issue`,
      payload: {},
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().allowed).toEqual([]);
  });
});

describe("generate-accounting-entry", () => {
  it("posts the entry of an issued invoice of a company posting by hand, once; the second call is a 409 naming it", async () => {
    const manual = await documentsFixture(t);
    expectStatus(
      await t.as(t.adminToken, {
        method: "PUT",
        url: `/api/document-settings/${manual.companyId}`,
        payload: { auto_posting: false },
      }),
      200,
    );
    const draft = expectStatus<DocOut>(
      await createSalesInvoice(t, manual.companyId, manual.customer.id, [line("1", "100")]),
      201,
    );
    const early = await t.as(t.adminToken, {
      method: "POST",
      url: `/api/sales/invoices/${draft.id}/generate-accounting-entry`,
    });
    expect(early.statusCode).toBe(409);
    expect(early.json().allowed).toEqual(["emitida"]);
    const issued = expectStatus<DocOut>(
      await t.as(t.adminToken, {
        method: "POST",
        url: `/api/sales/invoices/${draft.id}/issue`,
        payload: { date: "2026-03-10" },
      }),
      200,
    );
    expect(issued.entry_id).toBeNull();
    const posted = expectStatus<DocOut>(
      await t.as(t.adminToken, {
        method: "POST",
        url: `/api/sales/invoices/${draft.id}/generate-accounting-entry`,
      }),
      200,
    );
    expect(posted.entry_id).toBeTruthy();
    const entry = expectStatus<{
      date: string;
      lines: Array<{ subaccount_code: string; debit: string; credit: string }>;
    }>(await t.as(t.adminToken, { method: "GET", url: `/api/accounting/entries/${posted.entry_id}` }), 200);
    expect(entry.date).toBe("2026-03-10");
    expect(entry.lines.map((l) => [l.subaccount_code.slice(0, 3), l.debit, l.credit]).sort()).toEqual([
      ["430", "121.00", "0.00"],
      ["477", "0.00", "21.00"],
      ["700", "0.00", "100.00"],
    ]);
    const second = await t.as(t.adminToken, {
      method: "POST",
      url: `/api/sales/invoices/${draft.id}/generate-accounting-entry`,
    });
    expect(second.statusCode).toBe(409);
    expect(second.json().entry_id).toBe(posted.entry_id);
    expect(second.json().detail).toContain(issued.code);
    // With automatic posting on, the issued invoice already has its entry: 409 at once.
    const auto = await issuedSalesInvoice(t, fx.companyId, fx.customer.id, [line("1", "1")], "2026-03-10");
    const res = await t.as(t.adminToken, {
      method: "POST",
      url: `/api/sales/invoices/${auto.id}/generate-accounting-entry`,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().entry_id).toBe(auto.entry_id);
  });
});

describe("company restriction on every sales route", () => {
  it("a user of another company gets 404 for each of this company's documents, and lists none", async () => {
    const other = await documentsFixture(t);
    const user = await t.userWith(
      ["sales:leer", "sales:crear", "sales:editar", "sales:eliminar", "accounting:crear"],
      { companyId: other.companyId },
    );
    const estimate = await create("estimates");
    const order = await create("orders");
    const note = await create("delivery-notes");
    const draft = expectStatus<DocOut>(
      await createSalesInvoice(t, fx.companyId, fx.customer.id, [line("1", "10")]),
      201,
    );
    const issued = await issuedSalesInvoice(t, fx.companyId, fx.customer.id, [line("1", "10")], "2026-04-01");
    const as = (method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE", url: string, payload?: unknown) =>
      t.as(user.token, { method, url, ...(payload === undefined ? {} : { payload: payload as object }) });
    const calls: Array<[string, ReturnType<typeof as>]> = [];
    const docs = [
      ["estimates", estimate],
      ["orders", order],
      ["delivery-notes", note],
      ["invoices", draft],
    ] as const;
    for (const [kind, doc] of docs) {
      calls.push([`GET ${kind}/id`, as("GET", `/api/sales/${kind}/${doc.id}`)]);
      calls.push([`PATCH ${kind}/id`, as("PATCH", `/api/sales/${kind}/${doc.id}`, { notes: "x" })]);
      calls.push([`GET ${kind}/id/pdf`, as("GET", `/api/sales/${kind}/${doc.id}/pdf`)]);
      if (kind !== "invoices")
        calls.push([
          `PUT ${kind}/estado`,
          as("PUT", `/api/sales/${kind}/${doc.id}/estado`, { estado: "abierto" }),
        ]);
      calls.push([
        `POST ${kind} for our company`,
        as("POST", `/api/sales/${kind}`, {
          company_id: fx.companyId,
          client_id: fx.customer.id,
          lines: [line("1", "1")],
        }),
      ]);
    }
    calls.push([
      "convert-to-order",
      as("POST", `/api/sales/estimates/${estimate.id}/convert-to-order`, { date: DATE }),
    ]);
    calls.push([
      "convert-to-delivery-note",
      as("POST", `/api/sales/orders/${order.id}/convert-to-delivery-note`, { date: DATE }),
    ]);
    calls.push([
      "orders convert-to-invoice",
      as("POST", `/api/sales/orders/${order.id}/convert-to-invoice`, { date: DATE }),
    ]);
    calls.push([
      "delivery-notes/convert-to-invoice",
      as("POST", "/api/sales/delivery-notes/convert-to-invoice", {
        delivery_note_ids: [note.id],
        date: DATE,
      }),
    ]);
    calls.push(["issue", as("POST", `/api/sales/invoices/${draft.id}/issue`, { date: "2026-05-01" })]);
    calls.push(["rectify", as("POST", `/api/sales/invoices/${issued.id}/rectify`, { reason: "x" })]);
    calls.push([
      "generate-accounting-entry",
      as("POST", `/api/sales/invoices/${issued.id}/generate-accounting-entry`),
    ]);
    calls.push([
      "modelo-347",
      as("GET", `/api/sales/reports/modelo-347?year=2026&company_id=${fx.companyId}`),
    ]);
    for (const [label, call] of calls) expect((await call).statusCode, label).toBe(404);
    for (const [kind, doc] of docs)
      expect((await as("DELETE", `/api/sales/${kind}/${doc.id}`)).statusCode, `DELETE ${kind}`).toBe(404);
    for (const kind of ["estimates", "orders", "delivery-notes", "invoices"]) {
      expect(expectStatus<{ total: number }>(await as("GET", `/api/sales/${kind}`), 200).total, kind).toBe(0);
      expect(
        expectStatus<{ total: number }>(await as("GET", `/api/sales/${kind}?company_id=${fx.companyId}`), 200)
          .total,
        kind,
      ).toBe(0);
    }
    // Our customer cannot be used in their company: a 400 naming client_id.
    const foreign = await as("POST", "/api/sales/invoices", {
      client_id: fx.customer.id,
      lines: [line("1", "1")],
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors.map((e: { path: string }) => e.path)).toContain("client_id");
    const untouched = expectStatus<DocOut>(
      await t.as(t.adminToken, { method: "GET", url: `/api/sales/invoices/${draft.id}` }),
      200,
    );
    expect(untouched.estado).toBe("borrador");
  });
});
