import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import {
  approvedPurchaseInvoice,
  createTaxCode,
  creditWhole,
  documentsFixture,
  draftReturn,
  euContact,
  expectStatus,
  issuedSalesInvoice,
  line,
  type ReturnOut,
  remap,
  returnAction,
} from "../test-support.js";

/** The public OCA cases of the 111, 115 and 349 (tax-returns.md §6), and the 390 adding up the 303s. */

let t: TestApp;
let fx: Awaited<ReturnType<typeof documentsFixture>>;

const irpf = (price: string, code: string) => line("1", price, "IVA21", { irpf_code: code });

beforeAll(async () => {
  t = await createTestApp();
  fx = await documentsFixture(t);
  for (const [code, rate, kind] of [
    ["IRPF15TE", "15", "work"],
    ["IRPF9", "9", "activities"],
    ["IRPF18", "18", "activities"],
    ["IRPF20", "20", "activities"],
    ["IRPF24", "24", "activities"],
    ["IRPF195A", "19.5", "rent"],
    ["IRPF20A", "20", "rent"],
    ["IRPF21A", "21", "rent"],
  ])
    await createTaxCode(t, fx.companyId, { code, name: code, kind: "irpf", rate, irpf_kind: kind });
  // Work income in kind: its own code, pointed at 111 boxes 05/06.
  await remap(t, fx.companyId, "IRPF15TE", { model: "111" }, { base_box: "05", quota_box: "06" });
});
afterAll(async () => {
  await t?.close();
});

describe("modelo 111 and 115 (OCA cases)", () => {
  it("adds the IRPF withheld by kind with its recipients; the credited invoice subtracts", async () => {
    const lines = [
      irpf("1000", "IRPF15T"),
      irpf("2000", "IRPF15T"),
      irpf("3000", "IRPF15TE"),
      irpf("4000", "IRPF1"),
      irpf("5000", "IRPF2"),
      irpf("6000", "IRPF7"),
      irpf("7000", "IRPF9"),
      irpf("8000", "IRPF15"),
      irpf("9000", "IRPF18"),
      irpf("100", "IRPF19"),
      irpf("200", "IRPF20"),
      irpf("300", "IRPF21"),
      irpf("400", "IRPF24"),
      irpf("1000", "IRPF19A"),
      irpf("2000", "IRPF195A"),
      irpf("3000", "IRPF20A"),
      irpf("4000", "IRPF21A"),
    ];
    const invoices = [];
    for (const date of ["2026-01-10", "2026-02-10", "2026-03-10"])
      invoices.push(await approvedPurchaseInvoice(t, fx.companyId, fx.supplier.id, lines, date));
    await creditWhole(t, "purchase", invoices[2].id, "2026-03-20");

    const m111 = await draftReturn(t, fx.companyId, "111", "1T");
    expect(m111.boxes).toMatchObject({
      "01": "1",
      "02": "6000.00",
      "03": "900.00",
      "04": "1",
      "05": "6000.00",
      "06": "900.00",
      "07": "1",
      "08": "80000.00",
      "09": "8456.00",
    });
    const filled = expectStatus<ReturnOut>(
      await t.as(t.adminToken, {
        method: "PATCH",
        url: `/api/tax/returns/${m111.id}`,
        payload: {
          manual_boxes: {
            "12": "180",
            "15": "209",
            "18": "228",
            "21": "26",
            "24": "28",
            "27": "285",
            "29": "145",
          },
        },
      }),
      200,
    );
    expect(filled.boxes).toMatchObject({ "28": "11212.00", "29": "145.00", "30": "11067.00" });
    expect(filled.declaration_type).toBe("I");

    const m115 = await draftReturn(t, fx.companyId, "115", "1T");
    expect(m115.boxes).toMatchObject({ "01": "1", "02": "20000.00", "03": "4040.00", "05": "4040.00" });
    const with04 = expectStatus<ReturnOut>(
      await t.as(t.adminToken, {
        method: "PATCH",
        url: `/api/tax/returns/${m115.id}`,
        payload: { manual_boxes: { "04": "145" } },
      }),
      200,
    );
    expect(with04.boxes["05"]).toBe("3895.00");
    expect(with04.declaration_type).toBe("I");
    // A box the 115 has not: 400 naming it.
    const bad = await t.as(t.adminToken, {
      method: "PATCH",
      url: `/api/tax/returns/${m115.id}`,
      payload: { manual_boxes: { "27": "1" } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].path).toBe("manual_boxes.27");

    // Files: 111 and 115 pages at their lengths, the boxes where the layouts put them.
    const confirmed115 = expectStatus<ReturnOut>(await returnAction(t, m115.id, "confirm"), 200);
    const file115 = (
      await t.as(t.adminToken, { method: "GET", url: `/api/tax/returns/${confirmed115.id}/file` })
    ).rawPayload.toString("latin1");
    const page115 = file115.slice(17 + 311, 17 + 311 + 500);
    expect(file115.startsWith("<T115020261T0000><AUX>")).toBe(true);
    expect(file115.endsWith("</T115020261T0000>\r\n")).toBe(true);
    expect(page115.slice(0, 11)).toBe("<T11501000>");
    expect(page115.slice(12, 13)).toBe("I");
    expect(page115.slice(108, 123)).toBe("000000000000001"); // 01 @109
    expect(page115.slice(123, 140)).toBe("00000000002000000"); // 02 @124
    expect(page115.slice(140, 157)).toBe("00000000000404000"); // 03 @141
    expect(page115.slice(157, 174)).toBe("00000000000014500"); // 04 @158
    expect(page115.slice(174, 191)).toBe("00000000000389500"); // 05 @175
    expect(page115.slice(488)).toBe("</T11501000>");
    const confirmed111 = expectStatus<ReturnOut>(await returnAction(t, m111.id, "confirm"), 200);
    const file111 = (
      await t.as(t.adminToken, { method: "GET", url: `/api/tax/returns/${confirmed111.id}/file` })
    ).rawPayload.toString("latin1");
    const page111 = file111.slice(17 + 311, 17 + 311 + 1000);
    expect(page111.slice(108, 116)).toBe("00000001"); // 01 @109
    expect(page111.slice(116, 133)).toBe("00000000000600000"); // 02 @117
    expect(page111.slice(200, 217)).toBe("00000000008000000"); // 08 @201
    expect(page111.slice(486, 503)).toBe("00000000001121200"); // 28 @487
    expect(page111.slice(520, 537)).toBe("00000000001106700"); // 30 @521
    expect(page111.slice(988)).toBe("</T11101000>");
  });
});

describe("modelo 349 (OCA case)", () => {
  it("lists intra-EU operations per operator and key, and rectifies an earlier period", async () => {
    const supplier = await euContact(t, fx.companyId, "Fournisseur SARL", "FR40303265045");
    const customer = await euContact(t, fx.companyId, "Kunde GmbH", "DE129273398");
    const purchases = [];
    const sales = [];
    for (const date of ["2026-01-12", "2026-02-12"]) {
      purchases.push(
        await approvedPurchaseInvoice(
          t,
          fx.companyId,
          supplier.id,
          [line("1", "150", "IC21"), line("1", "150", "IC21")],
          date,
        ),
      );
      sales.push(await issuedSalesInvoice(t, fx.companyId, customer.id, [line("1", "2400", "EIC")], date));
    }
    await creditWhole(t, "purchase", purchases[1].id, "2026-03-02");
    await creditWhole(t, "sale", sales[1].id, "2026-03-02");
    const q1 = await draftReturn(t, fx.companyId, "349", "1T");
    expect(q1.boxes).toEqual({
      operators: "2",
      total: "2700.00",
      rectifications: "0",
      rectified_total: "0.00",
    });
    expect(q1.records.map((r) => [r.key, r.country, r.vat_number, r.base])).toEqual([
      ["E", "DE", "129273398", "2400.00"],
      ["A", "FR", "40303265045", "300.00"],
    ]);
    // Each key traces to its invoices: the two acquisitions and the credit note of the second.
    const behindA = expectStatus<{ invoices: { amount: string }[] }>(
      await t.as(t.adminToken, { method: "GET", url: `/api/tax/returns/${q1.id}/boxes/A` }),
      200,
    );
    expect(behindA.invoices.map((i) => i.amount).sort()).toEqual(["-300.00", "300.00", "300.00"]);
    expect(
      (await t.as(t.adminToken, { method: "GET", url: `/api/tax/returns/${q1.id}/boxes/07` })).statusCode,
    ).toBe(400);
    const confirmed = expectStatus<ReturnOut>(await returnAction(t, q1.id, "confirm"), 200);
    const file = (
      await t.as(t.adminToken, { method: "GET", url: `/api/tax/returns/${confirmed.id}/file` })
    ).rawPayload.toString("latin1");
    expect(file).toHaveLength(1500);
    const [type1, first] = [file.slice(0, 500), file.slice(500, 1000)];
    expect(type1.slice(0, 8)).toBe("13492026");
    expect(type1.slice(135, 137)).toBe("1T");
    expect(type1.slice(137, 146)).toBe("000000002");
    expect(type1.slice(146, 161)).toBe("000000000270000");
    expect(first.slice(75, 77)).toBe("DE");
    expect(first.slice(132, 133)).toBe("E");
    expect(first.slice(133, 146)).toBe("0000000240000");
    const number = type1.slice(107, 120);
    expect(number).toMatch(/^3492026\d{6}$/);
    expect(type1.slice(120, 135)).toBe(`  ${"0".repeat(13)}`); // 121-122 C/S blank, 123-135 no previous

    // Presented, it is replaced by a sustitutiva: its own number, S at 122 and the one it replaces.
    expectStatus<ReturnOut>(await returnAction(t, q1.id, "present", {}), 200);
    const substitute = expectStatus<ReturnOut>(
      await t.as(t.adminToken, {
        method: "POST",
        url: "/api/tax/returns",
        payload: {
          company_id: fx.companyId,
          model: "349",
          year: 2026,
          period: "1T",
          declaration_kind: "sustitutiva",
          previous_return_id: q1.id,
        },
      }),
      201,
    );
    expectStatus<ReturnOut>(await returnAction(t, substitute.id, "confirm"), 200);
    const substituteType1 = (
      await t.as(t.adminToken, { method: "GET", url: `/api/tax/returns/${substitute.id}/file` })
    ).rawPayload
      .toString("latin1")
      .slice(0, 500);
    expect(substituteType1.slice(107, 120)).not.toBe(number);
    expect(substituteType1.slice(107, 120)).toMatch(/^3492026\d{6}$/);
    expect(substituteType1.slice(120, 122)).toBe(" S");
    expect(substituteType1.slice(122, 135)).toBe(number);

    // The other 1T purchase credited in 2T: a rectification record of 1T, 300 -> 0.
    await creditWhole(t, "purchase", purchases[0].id, "2026-04-15");
    const q2 = await draftReturn(t, fx.companyId, "349", "2T");
    expect(q2.records).toEqual([
      expect.objectContaining({
        kind: "rectification",
        key: "A",
        country: "FR",
        year: 2026,
        period: "1T",
        previous_base: "300.00",
        new_base: "0.00",
      }),
    ]);
    const confirmed2 = expectStatus<ReturnOut>(await returnAction(t, q2.id, "confirm"), 200);
    const file2 = (
      await t.as(t.adminToken, { method: "GET", url: `/api/tax/returns/${confirmed2.id}/file` })
    ).rawPayload.toString("latin1");
    expect(file2).toHaveLength(1000);
    const [header2, rect] = [file2.slice(0, 500), file2.slice(500)];
    expect(header2.slice(137, 161)).toBe(`${"0".repeat(9)}${"0".repeat(15)}`); // no operators
    expect(header2.slice(161, 185)).toBe(`000000001${"0".repeat(15)}`); // 1 rectification, new total 0
    expect(rect.slice(0, 4)).toBe("2349");
    expect(rect.slice(75, 77)).toBe("FR");
    expect(rect.slice(132, 133)).toBe("A");
    expect(rect.slice(133, 146)).toBe(" ".repeat(13)); // 134-146 blank
    expect(rect.slice(146, 152)).toBe("20261T"); // 147-150 year, 151-152 period corrected
    expect(rect.slice(152, 165)).toBe("0000000000000"); // 153-165 new base
    expect(rect.slice(165, 178)).toBe("0000000030000"); // 166-178 previously declared
    expect(rect.slice(178)).toBe(" ".repeat(322));
  });
});

describe("modelo 390", () => {
  it("adds up the year's 303s (the confirmed one where it exists)", async () => {
    const q1 = await draftReturn(t, fx.companyId, "303", "1T");
    // The confirmed 1T carries a manual box the books do not have: the 390 must read the return.
    await t.as(t.adminToken, {
      method: "PATCH",
      url: `/api/tax/returns/${q1.id}`,
      payload: { manual_boxes: { "77": "10" } },
    });
    const confirmed = expectStatus<ReturnOut>(await returnAction(t, q1.id, "confirm"), 200);
    const m390 = await draftReturn(t, fx.companyId, "390", "0A");
    const quarters = [confirmed];
    for (const period of ["2T", "3T", "4T"]) quarters.push(await draftReturn(t, fx.companyId, "303", period));
    const total = (box: string) => quarters.reduce((acc, q) => acc + Number(q.boxes[box]), 0).toFixed(2);
    expect(Number(confirmed.boxes["27"])).not.toBe(0);
    expect(m390.boxes["47"]).toBe(total("27"));
    expect(m390.boxes["64"]).toBe(total("45"));
    expect(m390.boxes["65"]).toBe(total("46"));
    expect(m390.boxes["29"]).toBe(total("14"));
    expect(m390.boxes["639"]).toBe(total("40"));
    expect(m390.issues).toEqual([]);
    // A 390 box traces to the invoices of the year behind the 303 boxes it adds up.
    const trace = (box: string) =>
      t.as(t.adminToken, { method: "GET", url: `/api/tax/returns/${m390.id}/boxes/${box}` });
    const behind = expectStatus<{ invoices: { amount: string }[] }>(await trace("639"), 200);
    expect(behind.invoices.length).toBeGreaterThan(0);
    expect(behind.invoices.reduce((acc, i) => acc + Number(i.amount), 0).toFixed(2)).toBe(m390.boxes["639"]);
    for (const box of ["85", "47", "A"]) {
      const refused = await trace(box);
      expect([box, refused.statusCode]).toEqual([box, 400]);
      expect(refused.json().errors[0].path).toMatch(/box$/);
    }
    // Its file needs the company's activity (modelo390.test.ts writes it once set).
    const c390 = expectStatus<ReturnOut>(await returnAction(t, m390.id, "confirm"), 200);
    expect(
      (await t.as(t.adminToken, { method: "GET", url: `/api/tax/returns/${c390.id}/file` })).statusCode,
    ).toBe(409);
  });
});
