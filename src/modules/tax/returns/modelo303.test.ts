import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import {
  approvedPurchaseInvoice,
  createContact,
  createTaxCode,
  creditWhole,
  documentsFixture,
  draftReturn,
  expectStatus,
  issuedSalesInvoice,
  line,
  type ReturnOut,
  remap,
} from "../test-support.js";

/**
 * The public OCA case (tax-returns.md §6 "OCA 303"): three sales and three purchase invoices of a
 * quarter with one line per tax, the third of each credited in the period; every box out.
 * OCA's taxes map to Cuadra's codes: S_IVA4B/S → IVA4, 21ISP (charged 21 %) → IVA21, IVA0_E and IVA0
 * → EXP (60), IVA0_IC → EIC and IVA0_SP_I → EICS (59), IVA_E → EXENTO, IVA_NS → NS (120), IVA0_ISP →
 * ISP21 (122); the RE-only sales taxes and the purchase REQ taxes are company codes (below); SC and
 * BC → IVA4/10/21, BI → IVA*BI, IBC → IMP*, IBI → IMP*BI, IC goods/services/capital → IC*, ICS*,
 * IC*BI, SP_EX → ISPEX*, ISP → ISP*.
 */

let t: TestApp;
let fx: Awaited<ReturnType<typeof documentsFixture>>;

const SALE_LINES = [
  // OCA's 1000 and −100 lines: the engine takes no negative line outside a rectification.
  line("1", "900", "IVA4"),
  line("1", "1100", "IVA4"),
  line("1", "1080", "IVA10"),
  line("1", "1300", "IVA10"),
  line("1", "1260", "IVA21"),
  line("1", "1500", "IVA21"),
  line("1", "1600", "IVA21"),
  line("1", "2000", "EXP"),
  line("1", "2400", "EIC"),
  line("1", "2500", "EICS"),
  line("1", "2600", "EXP"),
  line("1", "2100", "EXENTO"),
  line("1", "2200", "NS"),
  line("1", "2300", "ISP21"),
];
const RE_LINES = [line("1", "1700", "RE05V"), line("1", "1800", "RE14V"), line("1", "1900", "RE52V")];
const PURCHASE_LINES = [
  // OCA's 210/220/230 and −21/−22/−23 lines, netted.
  ...[
    ["IVA4", "189"],
    ["IVA10", "198"],
    ["IVA21", "207"],
  ].map(([c, p]) => line("1", p, c)),
  ...(
    [
      ["IVA4", "240"],
      ["IVA10", "250"],
      ["IVA21", "260"],
      ["REQ05P", "270"],
      ["REQ14P", "280"],
      ["REQ52P", "290"],
      ["IVA4BI", "310"],
      ["IVA10BI", "320"],
      ["IVA21BI", "330"],
      ["IMP4", "340"],
      ["IMP10", "350"],
      ["IMP21", "360"],
      ["IMP4BI", "370"],
      ["IMP10BI", "380"],
      ["IMP21BI", "390"],
      ["IC4", "100"],
      ["IC10", "200"],
      ["IC21", "300"],
      ["ICS4", "400"],
      ["ICS10", "500"],
      ["ICS21", "600"],
      ["IC4BI", "700"],
      ["IC10BI", "800"],
      ["IC21BI", "900"],
      ["ISPEX4", "110"],
      ["ISPEX10", "120"],
      ["ISPEX21", "130"],
      ["ISP4", "140"],
      ["ISP10", "150"],
      ["ISP21", "160"],
    ] as const
  ).map(([c, p]) => line("1", p, c)),
];

const EXPECTED: Record<string, string> = {
  "01": "6000.00",
  "03": "240.00",
  "04": "7140.00",
  "06": "714.00",
  "07": "13080.00",
  "09": "2746.80",
  "10": "13500.00",
  "11": "1728.00",
  "12": "2430.00",
  "13": "293.70",
  "14": "-14050.00",
  "15": "-1907.50",
  // OCA's 16/18 (RE 0.5 %) are 168/170 in the 2026 layout.
  "168": "5100.00",
  "170": "25.50",
  "16": "0.00",
  "18": "0.00",
  "19": "5400.00",
  "21": "75.60",
  "22": "5700.00",
  "24": "296.40",
  "25": "-5400.00",
  "26": "-132.50",
  "28": "8982.00",
  "29": "834.84",
  "30": "2880.00",
  "31": "341.10",
  "32": "3150.00",
  "33": "372.60",
  "34": "3420.00",
  "35": "404.10",
  "36": "6300.00",
  "37": "837.00",
  "38": "7200.00",
  "39": "891.00",
  "40": "-10644.00",
  "41": "-1226.88",
  "59": "9800.00",
  "60": "9200.00",
  // Not asserted by OCA: Cuadra's own mapping of IVA_NS and IVA0_ISP (twice 2200 and 2300).
  "120": "4400.00",
  "122": "4600.00",
};

beforeAll(async () => {
  t = await createTestApp();
  fx = await documentsFixture(t);
  const re = await createContact(t, fx.companyId, {
    name: "Minorista RE",
    tax_regime: "recargo_equivalencia",
  });
  for (const [code, reRate] of [
    ["RE05V", "0.5"],
    ["RE14V", "1.4"],
    ["RE52V", "5.2"],
  ])
    await createTaxCode(t, fx.companyId, {
      code,
      name: `Solo recargo ${reRate} %`,
      kind: "vat",
      rate: "0",
      re_rate: reRate,
      operation: "domestic",
    });
  for (const [code, rate] of [
    ["REQ05P", "0.5"],
    ["REQ14P", "1.4"],
    ["REQ52P", "5.2"],
  ])
    await createTaxCode(t, fx.companyId, {
      code,
      name: `Recargo soportado ${rate} %`,
      kind: "vat",
      rate,
      operation: "domestic",
    });
  await createTaxCode(t, fx.companyId, {
    code: "ISPEX4",
    name: "ISP no establecidos 4 %",
    kind: "vat",
    rate: "4",
    operation: "reverse_charge",
  });
  for (const [code, rate, operation] of [
    ["IC4BI", "4", "intra_eu_goods"],
    ["IC10BI", "10", "intra_eu_goods"],
    ["IMP4BI", "4", "import"],
    ["IMP10BI", "10", "import"],
  ])
    await createTaxCode(t, fx.companyId, {
      code,
      name: code,
      kind: "vat",
      rate,
      operation,
      capital_goods: true,
    });
  // The RE-only sales codes declare only their recargo: no base or quota in 150/152 (or 14/15).
  for (const code of ["RE05V", "RE14V", "RE52V"])
    await remap(
      t,
      fx.companyId,
      code,
      { model: "303", direction: "sale" },
      { base_box: null, quota_box: null },
    );

  for (const [i, date] of ["2026-01-15", "2026-02-16", "2026-03-10"].entries()) {
    const sale = await issuedSalesInvoice(t, fx.companyId, fx.customer.id, SALE_LINES, date);
    const reSale = await issuedSalesInvoice(t, fx.companyId, re.id, RE_LINES, date);
    const purchase = await approvedPurchaseInvoice(t, fx.companyId, fx.supplier.id, PURCHASE_LINES, date);
    if (i === 2) {
      await creditWhole(t, "sale", sale.id, "2026-03-20");
      await creditWhole(t, "sale", reSale.id, "2026-03-20");
      await creditWhole(t, "purchase", purchase.id, "2026-03-20");
    }
  }
});
afterAll(async () => {
  await t?.close();
});

describe("modelo 303 from the books (OCA public case)", () => {
  it("fills every box of the OCA case, credit notes in 14/15, 25/26 and 40/41 with their sign", async () => {
    const draft = await draftReturn(t, fx.companyId, "303", "1T");
    expect(draft.estado).toBe("borrador");
    for (const [box, value] of Object.entries(EXPECTED))
      expect([box, draft.boxes[box]]).toEqual([box, value]);
    expect(draft.boxes["27"]).toBe("4080.00");
    expect(draft.boxes["45"]).toBe("2453.76");
    expect(draft.boxes["46"]).toBe("1626.24");

    // OCA's manual boxes: 65 = 95 %, 110 = 250 pending, 77 = 455 import VAT.
    const filled = expectStatus<ReturnOut>(
      await t.as(t.adminToken, {
        method: "PATCH",
        url: `/api/tax/returns/${draft.id}`,
        payload: { manual_boxes: { "65": "95", "110": "250", "77": "455" } },
      }),
      200,
    );
    expect(filled.boxes).toMatchObject({
      "27": "4080.00",
      "45": "2453.76",
      "46": "1626.24",
      "64": "1626.24",
      "65": "95.00",
      "66": "1544.93",
      "77": "455.00",
      "110": "250.00",
      "78": "250.00",
      "87": "0.00",
      "69": "1749.93",
      "71": "1749.93",
    });
    expect(filled.result).toBe("1749.93");
    expect(filled.declaration_type).toBe("I");
    // Labels travel with the boxes.
    const box71 = (filled.box_list as Array<{ box: string; label: string }>).find((b) => b.box === "71");
    expect(box71?.label).toBe("Resultado de la liquidación");
  });

  it("traces a box to the invoices behind it", async () => {
    const list = expectStatus<{ data: ReturnOut[] }>(
      await t.as(t.adminToken, {
        method: "GET",
        url: `/api/tax/returns?company_id=${fx.companyId}&model=303`,
      }),
      200,
    );
    const res = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/tax/returns/${list.data[0].id}/boxes/14`,
    });
    const body = expectStatus<{ invoices: Array<{ amount: string; code: string }> }>(res, 200);
    // Two sales credit notes (one with VAT, one RE-only codes with no base in 14) and the purchase one.
    const total = body.invoices.reduce((acc, i) => acc + Number(i.amount), 0);
    expect(total).toBeCloseTo(-14050, 2);
    expect(body.invoices.every((i) => i.code.startsWith("R") || i.code.includes("R"))).toBe(true);
  });
});
