import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers/app.js";
import { createFiscalYear } from "../accounting/test-support.js";
import {
  createContact,
  type DocOut,
  expectStatus,
  issuedSalesInvoice,
  issueSalesInvoice,
  line,
} from "../documents/test-support.js";
import { approvedPurchaseInvoice, createPurchaseInvoice } from "../purchases/test-support.js";

/**
 * Modelo 347 end to end (documents.md): issued sales (key B) and approved purchases (key A) at base +
 * VAT, quarters by date, refunds subtracting, the exclusive 3,005.06 threshold, purchases with IRPF
 * withheld left out, and the AEAT file byte for byte for this hand-computed year.
 */

let t: TestApp;
let companyId: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  companyId = expectStatus<{ id: string }>(
    await t.as(t.adminToken, {
      method: "POST",
      url: "/api/companies",
      payload: { name: "Reformas Ávila, S.L.", tax_id: "B12345674" },
    }),
    201,
  ).id;
  await createFiscalYear(t, companyId, "2026");
  const contact = async (name: string, taxId: string, postalCode: string) =>
    (await createContact(t, companyId, { name, tax_id: taxId, postal_code: postalCode })).id;
  ids.alfa = await contact("Alfa Suministros, S.L.", "12345678Z", "50001");
  ids.beta = await contact("Beta Cliente, S.L.", "87654321X", "28001");
  ids.gamma = await contact("Gamma Retenedor, S.L.", "11111111H", "26001");
  ids.delta = await contact("Delta Umbral, S.L.", "22222222J", "08001");
  ids.pro = await contact("Épsilon Abogados", "33333333P", "28001");

  // Sales (key B).
  await issuedSalesInvoice(t, companyId, ids.beta, [line("1", "2000")], "2026-02-10"); // 2,420.00
  const gamma = await issuedSalesInvoice(
    t,
    companyId,
    ids.gamma,
    [line("1", "4000", "IVA10", { irpf_code: "IRPF15" })], // 4,400.00: IRPF does not reduce it
    "2026-02-20",
  );
  await issuedSalesInvoice(t, companyId, ids.delta, [line("1", "2483.52")], "2026-03-05"); // 3,005.06
  await issuedSalesInvoice(t, companyId, ids.beta, [line("1", "483.53")], "2026-05-10"); // 585.07
  // A draft counts for nothing.
  expectStatus(
    await t.as(t.adminToken, {
      method: "POST",
      url: "/api/sales/invoices",
      payload: {
        company_id: companyId,
        client_id: ids.delta,
        date: "2026-06-01",
        lines: [line("1", "9000")],
      },
    }),
    201,
  );
  // A quarter of Gamma's invoice refunded in Q3: -1,000 base, -100 VAT.
  const refund = expectStatus<DocOut>(
    await t.as(t.adminToken, {
      method: "POST",
      url: `/api/sales/invoices/${gamma.id}/rectify`,
      payload: {
        reason: "Devolución parcial",
        lines: [{ line_id: (gamma.lines as Array<{ id: string }>)[0].id, quantity: "0.25" }],
      },
    }),
    201,
  );
  expect(refund.totals).toMatchObject({ net: "-1000.00", vat: "-100.00", irpf: "-150.00" });
  expectStatus(await issueSalesInvoice(t, refund.id, "2026-07-15"), 200);

  // Purchases (key A): 2,483.53 @ 21 % = 3,005.07; a professional's with IRPF is left out; pending
  // and rejected ones count for nothing.
  await approvedPurchaseInvoice(t, companyId, ids.alfa, [line("1", "2483.53")], { date: "2026-03-01" });
  await approvedPurchaseInvoice(
    t,
    companyId,
    ids.pro,
    [line("1", "5000", "IVA21", { irpf_code: "IRPF15" })],
    {
      date: "2026-04-01",
    },
  );
  expectStatus(
    await createPurchaseInvoice(t, companyId, ids.alfa, [line("1", "10000")], { date: "2026-04-02" }),
    201,
  );
});
afterAll(async () => {
  await t?.close();
});

const report = (query: string) =>
  t.as(t.adminToken, {
    method: "GET",
    url: `/api/sales/reports/modelo-347?company_id=${companyId}&${query}`,
  });

describe("modelo 347", () => {
  it("declares key A and key B contacts over 3,005.06 (exclusive), with refunds subtracting and IRPF purchases left out", async () => {
    const body = expectStatus<{
      threshold: string;
      parties: Array<Record<string, string>>;
      missing_tax_id: string[];
    }>(await report("year=2026"), 200);
    expect(body.threshold).toBe("3005.06");
    expect(body.missing_tax_id).toEqual([]);
    expect(
      body.parties.map((p) => [p.key, p.name, p.tax_id, p.province, p.annual_amount, p.q1, p.q2, p.q3, p.q4]),
    ).toEqual([
      ["A", "Alfa Suministros, S.L.", "12345678Z", "50", "3005.07", "3005.07", "0.00", "0.00", "0.00"],
      ["B", "Beta Cliente, S.L.", "87654321X", "28", "3005.07", "2420.00", "585.07", "0.00", "0.00"],
      ["B", "Gamma Retenedor, S.L.", "11111111H", "26", "3300.00", "4400.00", "0.00", "-1100.00", "0.00"],
    ]);
    // Delta at exactly 3,005.06 and the professional with IRPF withheld are not declared.
    expect(body.parties.map((p) => p.contact_id)).not.toContain(ids.delta);
    expect(body.parties.map((p) => p.contact_id)).not.toContain(ids.pro);
    expect(expectStatus<{ parties: unknown[] }>(await report("year=2025"), 200).parties).toEqual([]);
  });

  it("writes the AEAT file byte for byte (ISO-8859-1, 500-character records, both keys)", async () => {
    const res = await report("year=2026&format=aeat");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/plain; charset=iso-8859-1");
    expect(res.headers["content-disposition"]).toBe('attachment; filename="modelo347-2026.txt"');
    const sp = (n: number) => " ".repeat(n);
    const ZERO = " 000000000000000";
    const party = (nif: string, name: string, province: string, key: string, q: string[], annual: string) =>
      [
        "2347", // 1-4
        "2026", // 5-8
        "B12345674", // 9-17 declarant
        nif, // 18-26
        sp(9), // 27-35
        name.padEnd(40), // 36-75
        "D", // 76
        province, // 77-78
        "  ", // 79-80
        " ", // 81
        key, // 82
        annual, // 83-98
        "  ", // 99-100
        "000000000000000", // 101-115 no cash
        ZERO, // 116-131
        "0000", // 132-135
        q[0], // 136-151
        ZERO,
        q[1], // 168-183
        ZERO,
        q[2], // 200-215
        ZERO,
        q[3], // 232-247
        ZERO,
        sp(17), // 264-280
        sp(3), // 281-283
        ZERO, // 284-299
        sp(201), // 300-500
      ].join("");
    const expected = [
      [
        "1347",
        "2026",
        "B12345674",
        "REFORMAS AVILA, S.L.".padEnd(40), // 18-57
        "T", // 58
        "000000000", // 59-67 no phone
        sp(40), // 68-107 no contact person
        "3472026000001", // 108-120
        "  ", // 121-122
        "0000000000000", // 123-135
        "000000003", // 136-144 three parties
        " 000000000931014", // 145-160: 3,005.07 + 3,005.07 + 3,300.00
        "000000000", // 161-169
        ZERO, // 170-185
        sp(205 + 9 + 88 + 13), // 186-500
      ].join(""),
      party(
        "12345678Z",
        "ALFA SUMINISTROS, S.L.",
        "50",
        "A",
        [" 000000000300507", ZERO, ZERO, ZERO],
        " 000000000300507",
      ),
      party(
        "87654321X",
        "BETA CLIENTE, S.L.",
        "28",
        "B",
        [" 000000000242000", " 000000000058507", ZERO, ZERO],
        " 000000000300507",
      ),
      party(
        "11111111H",
        "GAMMA RETENEDOR, S.L.",
        "26",
        "B",
        [" 000000000440000", ZERO, "N000000000110000", ZERO],
        " 000000000330000",
      ),
    ];
    for (const record of expected) expect(record).toHaveLength(500);
    expect(res.rawPayload.toString("latin1")).toBe(expected.join(""));
    expect(res.rawPayload.equals(Buffer.from(expected.join(""), "latin1"))).toBe(true);
  });

  it("refuses a bad year with a 400 naming it, and another company's report is a 404", async () => {
    const bad = await report("year=26");
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json().errors)).toContain("year");
    const stranger = await t.userWith(["sales:leer"], {
      companyId: (
        await t.as(t.adminToken, {
          method: "POST",
          url: "/api/companies",
          payload: { name: "Otra, S.L.", tax_id: "B00000026" },
        })
      ).json().id,
    });
    const res = await t.as(stranger.token, {
      method: "GET",
      url: `/api/sales/reports/modelo-347?company_id=${companyId}&year=2026`,
    });
    expect(res.statusCode).toBe(404);
  });
});
