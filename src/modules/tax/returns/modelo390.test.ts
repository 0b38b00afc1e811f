import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import {
  approvedPurchaseInvoice,
  createTaxCode,
  creditWhole,
  documentsFixture,
  draftReturn,
  expectStatus,
  issuedSalesInvoice,
  line,
  type ReturnOut,
  remap,
  returnAction,
} from "../test-support.js";

/**
 * Modelo 390 (ADR 025): a year of invoices whose 303s are known, the 390 computed from them, and
 * its file compared position by position with one built here from the design's (position, length,
 * value) facts, not from the writer.
 */

let t: TestApp;
let fx: Awaited<ReturnType<typeof documentsFixture>>;
let company: { tax_id: string; name: string; legal_name: string | null };

const get = (url: string) => t.as(t.adminToken, { method: "GET", url });
const putSettings = (companyId: string, payload: Record<string, unknown>, token = t.adminToken) =>
  t.as(token, { method: "PUT", url: `/api/tax/settings/${companyId}`, payload });

beforeAll(async () => {
  t = await createTestApp();
  fx = await documentsFixture(t);
  company = expectStatus(await get(`/api/companies/${fx.companyId}`), 200);
  // 1T: sales at 21 % and 10 % and an export; purchases at 21 % and 10 %, intra-EU goods and
  // services at 21 %, a capital good at 21 %. 2T: a sale at 21 %, the 1T sale at 10 % credited, an import.
  await issuedSalesInvoice(t, fx.companyId, fx.customer.id, [line("1", "1000", "IVA21")], "2026-01-15");
  const at10 = await issuedSalesInvoice(
    t,
    fx.companyId,
    fx.customer.id,
    [line("1", "500", "IVA10")],
    "2026-02-15",
  );
  await issuedSalesInvoice(t, fx.companyId, fx.customer.id, [line("1", "300", "EXP")], "2026-03-01");
  const purchases = [
    line("1", "400", "IVA21"),
    line("1", "200", "IVA10"),
    line("1", "100", "IC21"),
    line("1", "50", "ICS21"),
    line("1", "1000", "IVA21BI"),
  ];
  await approvedPurchaseInvoice(t, fx.companyId, fx.supplier.id, purchases, "2026-03-10");
  await issuedSalesInvoice(t, fx.companyId, fx.customer.id, [line("1", "2000", "IVA21")], "2026-04-15");
  await creditWhole(t, "sale", at10.id, "2026-05-10");
  await approvedPurchaseInvoice(t, fx.companyId, fx.supplier.id, [line("1", "300", "IMP21")], "2026-06-10");
});
afterAll(async () => {
  await t?.close();
});

/** A page of the design: its length, its tag at 1 and its closing tag at the end, blanks elsewhere. */
function pageOf(id: string, length: number) {
  const chars = " ".repeat(length).split("");
  const put = (position: number, value: string) => {
    expect(position + value.length - 1, `${id} @${position}`).toBeLessThanOrEqual(length);
    chars.splice(position - 1, value.length, ...value.split(""));
  };
  put(1, `<T390${id}>`);
  put(length - 11, `</T390${id}>`);
  return { put, text: () => chars.join("") };
}

const amount = (cents: number) =>
  cents < 0 ? `N${String(-cents).padStart(16, "0")}` : String(cents).padStart(17, "0");

/** Zero amounts from `from`, `count` of them (the pages' amount fields, before the values). */
const zeros = (page: ReturnType<typeof pageOf>, from: number, count: number, width = 17) => {
  for (let i = 0; i < count; i++) page.put(from + width * i, "0".repeat(width));
};

describe("modelo 390 of a year with known 303s", () => {
  it("adds up the 303s, splits them by rate and writes the DR390 file byte for byte", async () => {
    const q: ReturnOut[] = [];
    for (const period of ["1T", "2T", "3T", "4T"]) q.push(await draftReturn(t, fx.companyId, "303", period));
    // The 303s, by hand: 1T 27 = 210 + 50 + 31.50, 45 = 104 + 210 + 31.50 → −54 to compensate;
    // 2T 27 = 420 − 50, 45 = 63, 307 less the 54 carried → 253 to pay.
    expect([q[0].boxes["27"], q[0].boxes["45"], q[0].result]).toEqual(["291.50", "345.50", "-54.00"]);
    expect([q[1].boxes["27"], q[1].boxes["45"], q[1].result]).toEqual(["370.00", "63.00", "253.00"]);

    const m390 = await draftReturn(t, fx.companyId, "390", "0A");
    expect(m390.issues).toEqual([]);
    expect(m390.boxes).toMatchObject({
      ...{ "03": "500.00", "04": "50.00", "05": "3000.00", "06": "630.00" },
      ...{ "25": "100.00", "26": "21.00", "551": "50.00", "552": "10.50", "29": "-500.00", "30": "-50.00" },
      ...{ "33": "3150.00", "34": "661.50", "47": "661.50" },
      ...{ "603": "200.00", "604": "20.00", "605": "400.00", "606": "84.00", "48": "600.00", "49": "104.00" },
      ...{ "613": "1000.00", "614": "210.00", "50": "1000.00", "51": "210.00" },
      ...{ "621": "300.00", "622": "63.00", "52": "300.00", "53": "63.00" },
      ...{ "629": "100.00", "630": "21.00", "56": "100.00", "57": "21.00" },
      ...{ "637": "50.00", "638": "10.50", "597": "50.00", "598": "10.50", "64": "408.50", "65": "253.00" },
      ...{ "84": "253.00", "85": "0.00", "86": "253.00", "95": "253.00", "97": "0.00", "98": "0.00" },
      ...{ "99": "3000.00", "104": "300.00", "108": "3300.00" },
    });
    const total = (box: string) => q.reduce((acc, r) => acc + Number(r.boxes[box]), 0).toFixed(2);
    expect([m390.boxes["47"], m390.boxes["64"], m390.boxes["65"]]).toEqual([
      total("27"),
      total("45"),
      total("46"),
    ]);

    // A box split by rate traces to the invoices at that rate and of that kind only.
    const behind25 = expectStatus<{ invoices: { tax_code: string; amount: string }[] }>(
      await get(`/api/tax/returns/${m390.id}/boxes/25`),
      200,
    );
    expect(behind25.invoices.map((i) => [i.tax_code, i.amount])).toEqual([["IC21", "100.00"]]);
    for (const box of ["47", "64", "95"])
      expect((await get(`/api/tax/returns/${m390.id}/boxes/${box}`)).statusCode, box).toBe(400);

    const confirmed = expectStatus<ReturnOut>(await returnAction(t, m390.id, "confirm"), 200);
    // Page 01 needs the company's activity: 409 naming what is missing, then set.
    const refused = await get(`/api/tax/returns/${confirmed.id}/file`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toContain("activity_description, activity_key, iae_epigraph");
    const settings = {
      activity_description: "Construcción de edificios",
      activity_key: "A03",
      iae_epigraph: "501.1",
    };
    expect(expectStatus(await putSettings(fx.companyId, settings), 200)).toMatchObject({
      iae_epigraph: "5011",
    });

    const res = await get(`/api/tax/returns/${confirmed.id}/file`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toBe("text/plain; charset=iso-8859-1");
    const file = res.rawPayload.toString("latin1");

    const p01 = pageOf("01000", 1187);
    p01.put(14, company.tax_id.padStart(9, "0"));
    p01.put(23, (company.legal_name || company.name).toUpperCase().padEnd(60));
    p01.put(103, "2026");
    p01.put(109, "00");
    p01.put(118, "000");
    p01.put(130, "222");
    p01.put(133, "00");
    p01.put(148, "CONSTRUCCION DE EDIFICIOS");
    p01.put(188, "A03");
    p01.put(191, "5011");
    for (const at of [235, 282, 329, 376, 423]) p01.put(at, "0");
    p01.put(430, "1"); // the customer's 347 (over 3,005.06)
    for (const at of [734, 843, 952]) p01.put(at, "00000000");

    const p02 = pageOf("02000", 1806);
    zeros(p02, 13, 96);
    for (const [at, cents] of [
      ...[
        [183, 50000],
        [200, 5000],
        [217, 300000],
        [234, 63000],
      ],
      ...[
        [1203, 10000],
        [1220, 2100],
        [1441, 5000],
        [1458, 1050],
      ],
      ...[
        [1509, -50000],
        [1526, -5000],
        [1611, 315000],
        [1628, 66150],
      ],
    ])
      p02.put(at, amount(cents));

    const p02b = pageOf("02B00", 531);
    zeros(p02b, 13, 21);
    p02b.put(353, amount(66150));

    const p03 = pageOf("03000", 1840);
    zeros(p03, 13, 98);
    for (const [at, cents] of [
      ...[
        [149, 20000],
        [166, 2000],
        [183, 40000],
        [200, 8400],
        [217, 60000],
        [234, 10400],
      ],
      ...[
        [659, 100000],
        [676, 21000],
        [693, 100000],
        [710, 21000],
      ],
      ...[
        [1135, 30000],
        [1152, 6300],
        [1169, 30000],
        [1186, 6300],
      ],
      ...[
        [1611, 10000],
        [1628, 2100],
        [1645, 10000],
        [1662, 2100],
      ],
    ])
      p03.put(at, amount(cents));

    const p04 = pageOf("04000", 854);
    zeros(p04, 13, 40);
    for (const [at, cents] of [
      ...[
        [421, 5000],
        [438, 1050],
        [455, 5000],
        [472, 1050],
        [659, 40850],
        [676, 25300],
      ],
    ])
      p04.put(at, amount(cents));

    const p06 = pageOf("06000", 828);
    zeros(p06, 13, 5);
    zeros(p06, 98, 5, 5);
    zeros(p06, 123, 6);
    zeros(p06, 225, 26);
    for (const [at, cents] of [
      [30, 25300],
      [81, 25300],
      [225, 25300],
      [361, 300000],
      [412, 30000],
      [650, 330000],
    ])
      p06.put(at, amount(cents));

    const p07 = pageOf("07000", 776);
    zeros(p07, 13, 11);
    for (let block = 0; block < 5; block++) {
      const at = 200 + 83 * block;
      p07.put(at + 43, "0".repeat(34));
      p07.put(at + 78, "00000");
    }

    const aux = `<AUX>${" ".repeat(70)}0101${" ".repeat(4 + 9 + 213)}</AUX>`;
    const expected = [
      "<T390020260A0000>",
      aux,
      ...[p01, p02, p02b, p03, p04, p06, p07].map((p) => p.text()),
      "</T390020260A0000>",
    ].join("");
    expect(file.length).toBe(expected.length);
    // Page by page, so a difference names its page and position.
    let offset = 0;
    for (const part of expected.split(/(?=<T390\d)|(?=<\/T3900)/)) {
      const actual = file.slice(offset, offset + part.length);
      for (let i = 0; i < part.length; i++)
        if (actual[i] !== part[i])
          expect(`${part.slice(0, 11)} @${i + 1}: ${actual.slice(i, i + 20)}`).toBe(
            `${part.slice(0, 11)} @${i + 1}: ${part.slice(i, i + 20)}`,
          );
      offset += part.length;
    }
    expect(file).toBe(expected);

    // The last 303 says the company files the 390 (128 = 2, not exempt); earlier ones write 0.
    const q4 = expectStatus<ReturnOut>(await returnAction(t, q[3].id, "confirm"), 200);
    const f303 = (await get(`/api/tax/returns/${q4.id}/file`)).rawPayload.toString("latin1");
    expect(f303.slice(17 + 311 + 127, 17 + 311 + 129)).toBe("20");
  });
});

describe("modelo 390 that cannot be filed", () => {
  it("lists what the year's 303s hold that it cannot place and refuses the file (409)", async () => {
    const other = await documentsFixture(t);
    await createTaxCode(t, other.companyId, {
      code: "IVA0P",
      name: "Compras al 0 %",
      kind: "vat",
      rate: "0",
      operation: "domestic",
    });
    await approvedPurchaseInvoice(
      t,
      other.companyId,
      other.supplier.id,
      [line("1", "80", "IVA0P")],
      "2026-02-02",
    );
    expectStatus(
      await putSettings(other.companyId, {
        activity_description: "Obras",
        activity_key: "A03",
        iae_epigraph: "5011",
      }),
      200,
    );
    const m390 = await draftReturn(t, other.companyId, "390", "0A");
    expect(m390.issues).toEqual([expect.objectContaining({ box_303: "28", rate: "0", amount: "80.00" })]);
    // A confirmed 303 and books that now say otherwise (the box map changed after it): both named.
    const q1 = await draftReturn(t, other.companyId, "303", "1T");
    expectStatus(await returnAction(t, q1.id, "confirm"), 200);
    const where = { model: "303", direction: "purchase", rectifying: false, side: "deductible" };
    await remap(t, other.companyId, "IVA0P", where, { base_box: "30", quota_box: "31" });
    const recomputed = expectStatus<ReturnOut>(await returnAction(t, m390.id, "recompute"), 200);
    const messages = (recomputed.issues as { message: string }[]).map((i) => i.message);
    expect(messages).toContain(
      "303 box 30 at 0 % has no box in the 390: correct the tax code or its box map",
    );
    expect(messages).toContain(
      "the year's 303s hold 80.00 in box 28, the books 0.00: recompute or correct the 303s",
    );
    const confirmed = expectStatus<ReturnOut>(await returnAction(t, m390.id, "confirm"), 200);
    const res = await get(`/api/tax/returns/${confirmed.id}/file`);
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toContain("The 390 cannot be filed as computed");
  });
});

describe("/api/tax/settings/{company_id}", () => {
  it("reads nulls, changes the fields sent, validates each and hides other companies", async () => {
    const other = await documentsFixture(t);
    const initial = expectStatus(await get(`/api/tax/settings/${other.companyId}`), 200);
    expect(initial).toMatchObject({ activity_description: null, activity_key: null, iae_epigraph: null });
    for (const [field, value] of [
      ["activity_key", "A09"],
      ["iae_epigraph", "50.1x"],
      ["activity_description", "x".repeat(41)],
    ] as const) {
      const bad = await putSettings(other.companyId, { [field]: value });
      expect([field, bad.statusCode]).toEqual([field, 400]);
      expect(bad.json().errors[0].path).toContain(field);
    }
    expect((await putSettings(other.companyId, {})).statusCode).toBe(400);
    expect(expectStatus(await putSettings(other.companyId, { activity_key: "C" }), 200)).toMatchObject({
      activity_key: "C",
      activity_description: null,
    });
    const reader = await t.userWith(["tax:leer"], { companyId: fx.companyId });
    expect((await putSettings(fx.companyId, { activity_key: "C" }, reader.token)).statusCode).toBe(403);
    expect(
      (await t.as(reader.token, { method: "GET", url: `/api/tax/settings/${other.companyId}` })).statusCode,
    ).toBe(404);
  });
});
