import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { credit, debit, postEntry } from "../../accounting/test-support.js";
import { entryLines } from "../../documents/test-support.js";
import {
  approvedPurchaseInvoice,
  creditWhole,
  documentsFixture,
  draftReturn,
  expectStatus,
  issuedSalesInvoice,
  line,
  type ReturnOut,
  returnAction,
} from "../test-support.js";

/**
 * A company's first three quarters of 2026 through the whole cycle: drafts, the DR303e26 file byte
 * for byte, confirmation and its period lock, the settlement entries (4750 to pay, 4700 to
 * compensate), the compensation carried to the next quarter, the admin reopening and `check`.
 */

let t: TestApp;
let fx: Awaited<ReturnType<typeof documentsFixture>>;
let companyNif: string;
let q1: ReturnOut;
let q2: ReturnOut;
let sale1: { id: string };

const amount17 = (euros: string) => {
  const cents = Math.round(Math.abs(Number(euros)) * 100);
  return Number(euros) < 0 ? `N${String(cents).padStart(16, "0")}` : String(cents).padStart(17, "0");
};
const zero = "0".repeat(17);
const sp = (n: number) => " ".repeat(n);

beforeAll(async () => {
  t = await createTestApp();
  fx = await documentsFixture(t);
  const company = expectStatus<{ tax_id: string }>(
    await t.as(t.adminToken, { method: "GET", url: `/api/companies/${fx.companyId}` }),
    200,
  );
  companyNif = company.tax_id;
  // 1T: FacturaScripts' sales case, 21 % 1000/210 + 10 % 500/50 + 4 % 100/4 -> 27 = 264.
  sale1 = await issuedSalesInvoice(
    t,
    fx.companyId,
    fx.customer.id,
    [line("1", "1000", "IVA21"), line("1", "500", "IVA10"), line("1", "100", "IVA4")],
    "2026-02-10",
  );
});
afterAll(async () => {
  await t?.close();
});

describe("a quarter to pay: 1T", () => {
  it("computes the draft, refuses the file of a draft, confirms it", async () => {
    q1 = await draftReturn(t, fx.companyId, "303", "1T");
    expect(q1.boxes).toMatchObject({ "07": "1000.00", "09": "210.00", "04": "500.00", "06": "50.00" });
    expect(q1.boxes).toMatchObject({
      "01": "100.00",
      "03": "4.00",
      "27": "264.00",
      "46": "264.00",
      "71": "264.00",
    });
    expect(q1.declaration_type).toBe("I");
    expect(
      (await t.as(t.adminToken, { method: "GET", url: `/api/tax/returns/${q1.id}/file` })).statusCode,
    ).toBe(409);
    // One ordinary return per period.
    const again = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/tax/returns",
      payload: { company_id: fx.companyId, model: "303", year: 2026, period: "1T" },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().tax_return_id).toBe(q1.id);
    q1 = expectStatus<ReturnOut>(await returnAction(t, q1.id, "confirm"), 200);
    expect(q1.estado).toBe("confirmada");
    expect(
      expectStatus<ReturnOut>(
        await t.as(t.adminToken, {
          method: "PATCH",
          url: `/api/tax/returns/${q1.id}`,
          payload: { iban: null },
        }),
        409,
      ),
    ).toBeTruthy();
  });

  it("writes the DR303e26 v1.01 file byte for byte", async () => {
    const res = await t.as(t.adminToken, { method: "GET", url: `/api/tax/returns/${q1.id}/file` });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("iso-8859-1");
    const file = res.rawPayload.toString("latin1");
    const name = "DOCUMENTS TEST COMPANY".padEnd(80);
    const nif = companyNif.padStart(9, "0");
    const boxes28to46 = Array.from({ length: 19 }, (_, i) => (28 + i === 46 ? amount17("264") : zero)).join(
      "",
    );
    const page01 =
      "<T30301000>" +
      " I" +
      nif +
      name +
      "2026" +
      "1T" +
      "223222222" +
      sp(8) +
      " 2000" +
      // 150, 152, 165, 167 with their zero rates
      `${zero}00000${zero}${zero}00000${zero}` +
      `${amount17("100")}00400${amount17("4")}` +
      `${zero}00000${zero}` +
      `${amount17("500")}01000${amount17("50")}` +
      `${amount17("1000")}02100${amount17("210")}` +
      zero.repeat(6) + // 10-15
      `${zero}00175${zero}` + // 156-158
      `${zero}00050${zero}` + // 168-170
      `${zero}00000${zero}` + // 16-18
      `${zero}00140${zero}` + // 19-21
      `${zero}00520${zero}` + // 22-24
      zero.repeat(2) + // 25, 26
      amount17("264") + // 27
      boxes28to46 +
      sp(521) +
      sp(13) +
      "</T30301000>";
    const page03 =
      "<T30303000>" +
      zero.repeat(11) + // 59 ... 76
      amount17("264") + // 64
      "10000" + // 65
      amount17("264") + // 66
      zero.repeat(6) + // 77, 110, 78, 87, 68, 108
      amount17("264") + // 69
      zero.repeat(3) + // 70, 109, 112
      amount17("264") + // 71
      "  " +
      sp(13) +
      " " +
      zero + // 111
      "  " +
      sp(546) +
      "</T30303000>";
    const did = `<T303DID00>${sp(11 + 34 + 70 + 35 + 30 + 2)}0${sp(617)}</T303DID00>`;
    const aux = `<AUX>${sp(70)}0101${sp(4)}${sp(9)}${sp(213)}</AUX>`;
    expect(page01).toHaveLength(1581);
    expect(page03).toHaveLength(1017);
    expect(did).toHaveLength(823);
    expect(file).toBe(`<T303020261T0000>${aux}${page01}${page03}${did}</T303020261T0000>`);
    // FacturaScripts' own checks: box 03 ... here 09 = 210 at page-01 position 348, 65 = 100 at 216.
    const p1 = file.slice(17 + 311);
    expect(p1.slice(347, 364)).toBe("00000000000021000");
    const p3 = file.slice(17 + 311 + 1581);
    expect(p3.slice(215, 220)).toBe("10000");
  });

  it("locks the period: issuing, approving or posting inside it is a 409 naming the return", async () => {
    const draft = expectStatus<{ id: string }>(
      await t.as(t.adminToken, {
        method: "POST",
        url: "/api/sales/invoices",
        payload: {
          company_id: fx.companyId,
          client_id: fx.customer.id,
          date: "2026-03-30",
          lines: [line("1", "10")],
        },
      }),
      201,
    );
    const issue = await t.as(t.adminToken, {
      method: "POST",
      url: `/api/sales/invoices/${draft.id}/issue`,
      payload: { date: "2026-03-30" },
    });
    expect(issue.statusCode).toBe(409);
    expect(issue.json().detail).toContain(q1.id);
    expect(issue.json().tax_return_id).toBe(q1.id);
    const purchase = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/purchases/invoices",
      payload: {
        company_id: fx.companyId,
        supplier_id: fx.supplier.id,
        date: "2026-03-15",
        supplier_number: `LOCK-${process.pid}`,
        lines: [line("1", "10")],
      },
    });
    const approve = await t.as(t.adminToken, {
      method: "POST",
      url: `/api/purchases/invoices/${purchase.json().id}/approve`,
    });
    expect(approve.statusCode).toBe(409);
    const manual = await postEntry(t, {
      company_id: fx.companyId,
      date: "2026-01-31",
      lines: [debit("4770012100", "1.00"), credit("7000000000", "1.00")],
    });
    expect(manual.statusCode).toBe(409);
    expect(manual.json().detail).toContain("1T 2026");
    // The invoice stays a draft, unnumbered; after the period it issues normally.
    expect(
      (
        await t.as(t.adminToken, {
          method: "POST",
          url: `/api/sales/invoices/${draft.id}/issue`,
          payload: { date: "2026-04-02" },
        })
      ).statusCode,
    ).toBe(200);
  });

  it("posts the settlement entry once: 477 reversed, the net to 4750 (type I)", async () => {
    const settled = expectStatus<ReturnOut>(await returnAction(t, q1.id, "settle"), 200);
    expect(settled.entry_id).toBeTruthy();
    const lines = await entryLines(t, settled.entry_id as string);
    expect(lines.sort((a, b) => a.code.localeCompare(b.code))).toEqual([
      { code: "4750000000", debit: "0.00", credit: "264.00" },
      { code: "4770010400", debit: "4.00", credit: "0.00" },
      { code: "4770011000", debit: "50.00", credit: "0.00" },
      { code: "4770012100", debit: "210.00", credit: "0.00" },
    ]);
    const entry = expectStatus<{ date: string }>(
      await t.as(t.adminToken, { method: "GET", url: `/api/accounting/entries/${settled.entry_id}` }),
      200,
    );
    expect(entry.date).toBe("2026-03-31");
    expect((await returnAction(t, q1.id, "settle")).statusCode).toBe(409);
  });
});

describe("a quarter to compensate: 2T", () => {
  it("self-assesses reverse charge on both sides and puts the credit note of a 1T sale in 14/15", async () => {
    // FacturaScripts' purchase cases: intra-EU 4000/840 -> 10/11 and 36/37; ISP 3000/630 -> 12/13 and 28/29.
    await approvedPurchaseInvoice(t, fx.companyId, fx.supplier.id, [line("1", "4000", "IC21")], "2026-04-20");
    await approvedPurchaseInvoice(
      t,
      fx.companyId,
      fx.supplier.id,
      [line("1", "3000", "ISP21")],
      "2026-05-05",
    );
    await approvedPurchaseInvoice(
      t,
      fx.companyId,
      fx.supplier.id,
      [line("1", "1000", "IVA21")],
      "2026-05-06",
    );
    await creditWhole(t, "sale", sale1.id, "2026-06-01");
    q2 = await draftReturn(t, fx.companyId, "303", "2T");
    expect(q2.boxes).toMatchObject({
      "10": "4000.00",
      "11": "840.00",
      "36": "4000.00",
      "37": "840.00",
      "12": "3000.00",
      "13": "630.00",
      "28": "4000.00",
      "29": "840.00",
      "14": "-1600.00",
      "15": "-264.00",
      // + the 10.00 at 21 % the lock test issued on 2 April.
      "07": "10.00",
      "09": "2.10",
      "27": "1208.10",
      "45": "1680.00",
      "46": "-471.90",
      "110": "0.00",
      "71": "-471.90",
    });
    expect(q2.declaration_type).toBe("C");
    // A refund is only for the last period.
    const refund = await t.as(t.adminToken, {
      method: "PATCH",
      url: `/api/tax/returns/${q2.id}`,
      payload: { declaration_type: "D", iban: "ES9121000418450200051332" },
    });
    expect(refund.statusCode).toBe(400);
    expect(refund.json().errors[0].path).toBe("declaration_type");
  });

  it("confirms, files the negative boxes with N and settles to 4700", async () => {
    q2 = expectStatus<ReturnOut>(await returnAction(t, q2.id, "confirm"), 200);
    const file = (
      await t.as(t.adminToken, { method: "GET", url: `/api/tax/returns/${q2.id}/file` })
    ).rawPayload.toString("latin1");
    const p1 = file.slice(17 + 311, 17 + 311 + 1581);
    expect(p1.slice(12, 13)).toBe("C");
    expect(p1.slice(432, 449)).toBe(`N${"160000".padStart(16, "0")}`); // 14 @433
    expect(p1.slice(1018, 1035)).toBe(`N${"47190".padStart(16, "0")}`); // 46 @1019
    const settled = expectStatus<ReturnOut>(await returnAction(t, q2.id, "settle"), 200);
    const lines = await entryLines(t, settled.entry_id as string);
    const on4700 = lines.filter((l) => l.code.startsWith("4700"));
    expect(on4700).toEqual([{ code: "4700000000", debit: "471.90", credit: "0.00" }]);
    const total = lines.reduce((acc, l) => acc + Number(l.debit) - Number(l.credit), 0);
    expect(total).toBeCloseTo(0, 2);
  });
});

describe("the next quarter and the ledger check: 3T", () => {
  it("carries the 471.90 to compensate into 110 and applies it in 78", async () => {
    await issuedSalesInvoice(t, fx.companyId, fx.customer.id, [line("1", "10000", "IVA21")], "2026-07-15");
    const q3 = await draftReturn(t, fx.companyId, "303", "3T");
    expect(q3.boxes).toMatchObject({
      "46": "2100.00",
      "110": "471.90",
      "78": "471.90",
      "87": "0.00",
      "71": "1628.10",
    });
  });

  it("finds a hand-made 477 entry that no invoice explains", async () => {
    const list = expectStatus<{ data: ReturnOut[] }>(
      await t.as(t.adminToken, {
        method: "GET",
        url: `/api/tax/returns?company_id=${fx.companyId}&year=2026&model=303`,
      }),
      200,
    );
    const q3 = list.data.find((r) => r.period === "3T") as ReturnOut;
    const clean = expectStatus<{ balanced: boolean }>(
      await t.as(t.adminToken, { method: "GET", url: `/api/tax/returns/${q3.id}/check` }),
      200,
    );
    expect(clean.balanced).toBe(true);
    const manual = expectStatus<{ id: string; number: number }>(
      await postEntry(t, {
        company_id: fx.companyId,
        date: "2026-08-05",
        concept: "Ajuste manual",
        lines: [debit("7000000000", "100.00"), credit("4770012100", "100.00")],
      }),
      201,
    );
    const check = expectStatus<{
      balanced: boolean;
      totals: Array<{ account: string; boxes: string; ledger: string; difference: string }>;
      differences: Array<Record<string, unknown>>;
    }>(await t.as(t.adminToken, { method: "GET", url: `/api/tax/returns/${q3.id}/check` }), 200);
    expect(check.balanced).toBe(false);
    expect(check.totals.find((x) => x.account === "477")).toEqual({
      account: "477",
      boxes: "2100.00",
      ledger: "2200.00",
      difference: "100.00",
    });
    expect(check.differences).toEqual([
      expect.objectContaining({
        account: "477",
        entry_id: manual.id,
        entry_number: manual.number,
        concept: "Ajuste manual",
        document_id: null,
        expected: "0.00",
        posted: "100.00",
      }),
    ]);
  });
});

describe("a result of exactly zero: 4T", () => {
  it("is declared N and confirms when the compensation absorbs the whole result", async () => {
    await issuedSalesInvoice(t, fx.companyId, fx.customer.id, [line("1", "100", "IVA21")], "2026-10-10");
    const draft = await draftReturn(t, fx.companyId, "303", "4T");
    expect(draft.boxes["46"]).toBe("21.00");
    const patched = expectStatus<ReturnOut>(
      await t.as(t.adminToken, {
        method: "PATCH",
        url: `/api/tax/returns/${draft.id}`,
        payload: { manual_boxes: { "110": "21.00" } },
      }),
      200,
    );
    expect(patched.boxes).toMatchObject({ "78": "21.00", "87": "0.00", "71": "0.00" });
    expect(patched.declaration_type).toBe("N");
    const confirmed = expectStatus<ReturnOut>(await returnAction(t, draft.id, "confirm"), 200);
    expect(confirmed).toMatchObject({ estado: "confirmada", declaration_type: "N", result: "0.00" });
    // A zero result cannot be declared to pay either.
    await returnAction(t, draft.id, "reopen", { reason: "Comprobar el tipo" });
    const toPay = await t.as(t.adminToken, {
      method: "PATCH",
      url: `/api/tax/returns/${draft.id}`,
      payload: { declaration_type: "I" },
    });
    expect(toPay.statusCode).toBe(400);
    expect(toPay.json().errors[0].path).toBe("declaration_type");
  });
});

describe("reopening (admin, audited)", () => {
  it("is refused without admin:editar, reopens with it and unlocks the period", async () => {
    const clerk = await t.userWith(["tax:leer", "tax:editar"]);
    expect(
      (await returnAction(t, q1.id, "reopen", { reason: "Falta una factura" }, clerk.token)).statusCode,
    ).toBe(403);
    const reopened = expectStatus<ReturnOut>(
      await returnAction(t, q1.id, "reopen", { reason: "Falta una factura" }),
      200,
    );
    expect(reopened.estado).toBe("borrador");
    const events = expectStatus<Array<{ action: string; reason: string }>>(
      await t.as(t.adminToken, { method: "GET", url: `/api/tax/returns/${q1.id}/events` }),
      200,
    );
    expect(events.map((e) => e.action)).toEqual(["confirm", "settle", "reopen"]);
    expect(events[2].reason).toBe("Falta una factura");
    // The period is open again: a manual entry dated in it posts.
    expect(
      (
        await postEntry(t, {
          company_id: fx.companyId,
          date: "2026-03-31",
          lines: [debit("7000000000", "1.00"), credit("4770012100", "1.00")],
        })
      ).statusCode,
    ).toBe(201);
  });
});

describe("a complementaria of a presented 303", () => {
  const create = (payload: Record<string, unknown>) =>
    t.as(t.adminToken, {
      method: "POST",
      url: "/api/tax/returns",
      payload: { company_id: fx.companyId, model: "303", year: 2026, period: "1T", ...payload },
    });

  it("refers to a presented return of its model and period (400 naming previous_return_id, 409)", async () => {
    const none = await create({ declaration_kind: "complementaria" });
    expect(none.statusCode).toBe(400);
    expect(none.json().errors[0].path).toBe("previous_return_id");
    const otherPeriod = await create({ declaration_kind: "complementaria", previous_return_id: q2.id });
    expect(otherPeriod.statusCode).toBe(400);
    expect(otherPeriod.json().errors[0].path).toBe("previous_return_id");
    const notPresented = await create({
      declaration_kind: "sustitutiva",
      previous_return_id: q2.id,
      period: "2T",
    });
    expect(notPresented.statusCode).toBe(409);
    const ordinaryWithPrevious = await create({ previous_return_id: q1.id });
    expect(ordinaryWithPrevious.statusCode).toBe(400);
    expect(ordinaryWithPrevious.json().errors[0].path).toBe("previous_return_id");
  });

  it("opens the period while a draft, declares the difference, is filed as rectifying and settles what is left", async () => {
    // 1T, reopened above, is confirmed again and presented.
    expectStatus<ReturnOut>(await returnAction(t, q1.id, "confirm"), 200);
    q1 = expectStatus<ReturnOut>(await returnAction(t, q1.id, "present", { receipt: "3030000000017" }), 200);
    expect(q1).toMatchObject({ estado: "presentada", receipt: "3030000000017" });
    // Its draft reopens the period: an admin's, like reopening.
    const clerk = await t.userWith(["tax:leer", "tax:crear", "tax:editar"]);
    const refused = await t.as(clerk.token, {
      method: "POST",
      url: "/api/tax/returns",
      payload: {
        company_id: fx.companyId,
        model: "303",
        year: 2026,
        period: "1T",
        declaration_kind: "complementaria",
        previous_return_id: q1.id,
      },
    });
    expect(refused.statusCode).toBe(403);
    const comp = expectStatus<ReturnOut>(
      await create({ declaration_kind: "complementaria", previous_return_id: q1.id }),
      201,
    );
    expect(comp).toMatchObject({
      declaration_kind: "complementaria",
      previous_return_id: q1.id,
      previous_receipt: "3030000000017",
    });
    const events = expectStatus<Array<{ action: string; reason: string }>>(
      await t.as(t.adminToken, { method: "GET", url: `/api/tax/returns/${q1.id}/events` }),
      200,
    );
    expect(events.at(-1)).toMatchObject({ action: "correct", reason: `complementaria ${comp.id}` });
    expect(comp.boxes).toMatchObject({ "69": "264.00", "70": "264.00", "71": "0.00" });
    expect(comp.declaration_type).toBe("N");
    // The forgotten supplier invoice: the period is open while its correction is a draft.
    await approvedPurchaseInvoice(t, fx.companyId, fx.supplier.id, [line("1", "200", "IVA21")], "2026-03-20");
    const recomputed = expectStatus<ReturnOut>(await returnAction(t, comp.id, "recompute"), 200);
    expect(recomputed.boxes).toMatchObject({
      "27": "264.00",
      "45": "42.00",
      "69": "222.00",
      "70": "264.00",
      "71": "-42.00",
    });
    expect(recomputed.declaration_type).toBe("C");
    expectStatus<ReturnOut>(await returnAction(t, comp.id, "confirm"), 200);
    // Confirmed, it locks the period again.
    const late = await postEntry(t, {
      company_id: fx.companyId,
      date: "2026-02-01",
      lines: [debit("7000000000", "1.00"), credit("4770012100", "1.00")],
    });
    expect(late.statusCode).toBe(409);
    expect(late.json().tax_return_id).toBe(comp.id);

    const file = (
      await t.as(t.adminToken, { method: "GET", url: `/api/tax/returns/${comp.id}/file` })
    ).rawPayload.toString("latin1");
    const p1 = file.slice(17 + 311, 17 + 311 + 1581);
    const p3 = file.slice(17 + 311 + 1581, 17 + 311 + 1581 + 1017);
    expect(p3.slice(0, 11)).toBe("<T30303000>");
    expect(p1.slice(11, 12)).toBe(" "); // 12: blank since 2025, the correction is flagged on page 03
    expect(p3.slice(356, 373)).toBe(amount17("264.00")); // 70 @357
    expect(p3.slice(407, 424)).toBe(amount17("-42.00")); // 71 @408, N-signed
    expect(p3.slice(425, 426)).toBe("X"); // 426 rectifying
    expect(p3.slice(426, 439)).toBe("3030000000017"); // 427 previous receipt

    // Its settlement reverses only what 1T's first one left: the new 42.00 on 472 and the 1.00
    // posted by hand on 477 while 1T was reopened; the net, to compensate, to 4700.
    const settled = expectStatus<ReturnOut>(await returnAction(t, comp.id, "settle"), 200);
    const lines = await entryLines(t, settled.entry_id as string);
    expect(lines.sort((a, b) => a.code.localeCompare(b.code))).toEqual([
      { code: "4700000000", debit: "41.00", credit: "0.00" },
      { code: "4720012100", debit: "0.00", credit: "42.00" },
      { code: "4770012100", debit: "1.00", credit: "0.00" },
    ]);
  });
});
