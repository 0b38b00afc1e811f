import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { fixturePath } from "../../../../test/helpers/fixtures.js";
import { multipartFile } from "../budgets/test-support.js";

/** BC3 files as Presto and Arquímedes write them: each case of issue 14, hand-built, plus the real exports. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

let n = 0;
const rootCode = (prefix: string) => `${prefix}${Date.now().toString(36).toUpperCase()}${++n}`;
const file = (lines: string[], encoding: BufferEncoding = "latin1") =>
  Buffer.from(lines.join("\r\n"), encoding);
const api = (method: "GET" | "POST" | "PUT", url: string, extra: Record<string, unknown> = {}) =>
  t.as(t.adminToken, { method, url, ...extra });
const importFile = (bytes: Buffer, fields: Record<string, string> = {}) =>
  api("POST", "/api/v1/budgets/import-bc3", multipartFile(bytes, "obra.bc3", "file", fields));
const itemsOf = async (budgetId: string) =>
  (await api("GET", `/api/v1/budget-items?budget_id=${budgetId}&limit=100`)).json().data as {
    id: string;
    code: string;
    quantity: string | null;
    unit_price: string | null;
    amount: string;
  }[];
const warningsOf = (body: { import: { warnings: { line: number; message: string }[] } }) =>
  body.import.warnings;

const HEAD = ["~V|SOFT|FIEBDC-3/2016|Prog||ANSI||", "~K|\\2\\2\\3\\2\\2\\2\\2\\EUR\\|0|"];

describe("a concept placed in two chapters", () => {
  it("is one concept with two placements sharing its price, and is exported once", async () => {
    const code = rootCode("SH");
    const res = await importFile(
      file([
        ...HEAD,
        `~C|${code}##||Obra|50|`,
        `~D|${code}##|C1#\\1\\1\\C2#\\1\\1\\|`,
        "~C|C1#||Planta 1|20|",
        "~C|C2#||Planta 2|30|",
        "~D|C1#|E1\\1\\2\\|",
        "~D|C2#|E1\\1\\3\\|",
        "~C|E1|m2|Solado de gres|10|",
      ]),
    );
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body.pem).toBe("50.00");
    expect(body.import).toMatchObject({
      concepts: 3,
      placements: 4,
      declared_total: "50.00",
      difference: "0.00",
    });
    const items = await itemsOf(body.id);
    expect(items.map((i) => [i.code, i.quantity])).toEqual([
      ["C1", null],
      ["E1", "2.000"],
      ["C2", null],
      ["E1", "3.000"],
    ]);
    const first = (await api("GET", `/api/v1/budget-items/${items[1].id}`)).json();
    expect(first.concept).toMatchObject({ code: "E1", unit_price: "10.0000", placements: 2 });
    expect(first.other_placements).toEqual([
      { id: items[3].id, parent_id: items[2].id, parent_code: "C2", quantity: "3.000", amount: "30.00" },
    ]);

    // The price is the concept's: changing it in one place changes every placement's amount.
    const patched = await api("PUT", `/api/v1/budget-items/${items[1].id}`, {
      payload: { unit_price: "12", summary: "Solado de gres porcelánico" },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const after = await itemsOf(body.id);
    expect(after[3]).toMatchObject({ unit_price: "12.0000", amount: "36.00" });
    const other = (await api("GET", `/api/v1/budget-items/${items[3].id}`)).json();
    expect(other.summary).toBe("Solado de gres porcelánico");
    expect((await api("GET", `/api/v1/budgets/${body.id}`)).json().pem).toBe("60.00");

    const exported = (await api("GET", `/api/v1/budgets/${body.id}/export-bc3`)).rawPayload.toString(
      "latin1",
    );
    expect(exported.split("~C|E1|")).toHaveLength(2);
    expect(exported).toContain("~D|C1#|E1\\1\\2.000\\|");
    expect(exported).toContain("~D|C2#|E1\\1\\3.000\\|");
  });
});

describe("percentage components", () => {
  it("cost a percentage of the lines before them; the characters before % select which", async () => {
    const code = rootCode("PC");
    const res = await importFile(
      file([
        ...HEAD,
        `~C|${code}##||Obra||`,
        `~D|${code}##|C1#\\1\\1\\|`,
        "~C|C1#||Movimiento de tierras||",
        "~D|C1#|E1\\1\\10\\E2\\1\\1\\|",
        "~C|E1|m3|Excavación con medios auxiliares 3 %|20.6||0|",
        "~D|E1|MO\\1\\0.5\\MQ\\1\\0.25\\%MA\\1\\0.03\\|",
        "~C|E2|m3|Excavación, 10 % sobre la mano de obra|68.2||0|", // line 9: 68.2 applies 10 % to all
        "~D|E2|MO\\1\\1\\MQ\\1\\1\\MO%\\1\\0.10\\|",
        "~C|MO|h|Peón ordinario|18||1|",
        "~C|MQ|h|Retroexcavadora|44||2|",
        "~C|%MA|%|Medios auxiliares|3||0|",
        "~C|MO%|%|Costes sobre mano de obra|10||0|",
      ]),
    );
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    // E1: 0.5 x 18 + 0.25 x 44 = 20.00, + 3 % of it = 20.60 ; E2: 18 + 44 + 10 % of MO (1.80) = 63.80
    expect(body.pem).toBe("269.80");
    const items = await itemsOf(body.id);
    expect(items.map((i) => [i.code, i.unit_price])).toEqual([
      ["C1", null],
      ["E1", "20.6000"],
      ["E2", "63.8000"],
    ]);
    const e1 = (await api("GET", `/api/v1/budget-items/${items[1].id}`)).json();
    expect(e1.decomposition.map((d: { code: string; cost: string }) => [d.code, d.cost])).toEqual([
      ["MO", "9.0000"],
      ["MQ", "11.0000"],
      ["%MA", "0.6000"],
    ]);
    // The file's own ~C price for E2 disagrees with its decomposition: said, not "fixed".
    expect(warningsOf(body)).toContainEqual({
      line: 9,
      message: "E2 costs 63.8 by its decomposition, its ~C states 68.2: the decomposition prevails",
    });
    expect(body.import.declared_total).toBeNull();
  });
});

describe("~K coefficients", () => {
  it("applies a CI of 10 % to the unit prices (Presto export): the root price the file declares", async () => {
    const bytes = readFileSync(fixturePath("bc3", "concreta-presto-mini.bc3"));
    const res = await importFile(bytes, { code: rootCode("MINI") });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    // E01: 0.2 h x 17 = 3.40 + 2 % (0.07) = 3.47, x 1.10 = 3.82 ; E02: 25 x 1.10 = 27.50 ; E03: 12 x 1.10 = 13.20
    // 100 x 3.82 + 10 x 27.50 + 5 x 13.20 = 723.00, what OBRA01## declares.
    expect(body).toMatchObject({ pem: "723.00", indirect_costs_pct: "10.00" });
    expect(body.import).toMatchObject({
      root_code: "OBRA01",
      declared_total: "723.00",
      imported_total: "723.00",
      difference: "0.00",
      measurement_lines: 4,
    });
    const prices = (await itemsOf(body.id)).filter((i) => i.unit_price !== null).map((i) => i.unit_price);
    expect(prices).toEqual(["3.8200", "27.5000", "13.2000"]);
  });

  it("takes GG 13, BI 6, IVA 21 and the decimals of the 2007 field, and rounds with them", async () => {
    const code = rootCode("K");
    const res = await importFile(
      file([
        "~V|SOFT|FIEBDC-3/2007|Prog||ANSI||",
        "~K|\\2\\3\\3\\2\\2\\2\\2\\EUR\\|10\\13\\6\\\\21|\\2\\\\\\3\\\\2\\2\\2\\\\2\\3\\EUR\\||",
        `~C|${code}##||Obra|224.68|`,
        `~D|${code}##|C1#\\1\\1\\|`,
        "~C|C1#||Alicatados|224.68|",
        "~D|C1#|E1\\1\\12.345\\|",
        "~C|E1|m2|Alicatado|16.5432|",
      ]),
    );
    expect(res.statusCode, res.body).toBe(201);
    // 16.5432 x 1.10 = 18.19752 -> 18.20 (DUO 2) ; 12.345 x 18.20 = 224.679 -> 224.68
    expect(res.json()).toMatchObject({
      pem: "224.68",
      overheads_pct: "13.00",
      profit_pct: "6.00",
      vat_pct: "21.00",
      indirect_costs_pct: "10.00",
      decimals: { quantity: 3, yield: 3, line: 2, price: 2, amount: 2 },
      pec: "267.37", // 224.68 x 1.19
    });
    expect(res.json().import).toMatchObject({ difference: "0.00" });
  });
});

describe("stated quantities", () => {
  it("keeps the quantity the file states, the lines as its detail, and warns where they differ", async () => {
    const code = rootCode("Q");
    const res = await importFile(
      file([
        ...HEAD,
        `~C|${code}##||Obra|50|`,
        `~D|${code}##|C1#\\1\\1\\|`,
        "~C|C1#||Fábricas|50|",
        "~D|C1#|E1\\1\\10\\|",
        "~C|E1|m2|Fábrica de ladrillo|5|",
        "~M|C1#\\E1|1\\1\\|10|\\Muro\\2\\3\\1.5\\\\\\Hueco\\-1\\1\\1\\\\|", // line 8: 9 - 1 = 8, not 10
      ]),
    );
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body.pem).toBe("50.00");
    const items = await itemsOf(body.id);
    expect(items[1].quantity).toBe("10.000");
    const detail = (await api("GET", `/api/v1/budget-items/${items[1].id}`)).json();
    expect(
      detail.measurements.map((m: { label: string; quantity: string }) => [m.label, m.quantity]),
    ).toEqual([
      ["Muro", "9.000"],
      ["Hueco", "-1.000"],
    ]);
    expect(warningsOf(body)).toContainEqual({
      line: 8,
      message: "the measurement lines of E1 add up to 8, the file states 10: the stated quantity is kept",
    });
  });
});

describe("charsets", () => {
  const utf8File = (label: string, code: string) =>
    file(
      [
        `~V|SOFT|FIEBDC-3/2016|Prog||${label}||`,
        `~C|${code}##||Rehabilitación en Logroño|0|`,
        `~D|${code}##|E1\\1\\1\\|`,
        "~C|E1|m³|Excavación en zanja, pequeña|8.75|",
      ],
      "utf8",
    );

  it("reads a UTF-8 file labelled ANSI as UTF-8 and says so", async () => {
    const res = await importFile(utf8File("ANSI", rootCode("U")));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().name).toBe("Rehabilitación en Logroño");
    expect(res.json().import.charset).toBe("UTF-8");
    expect(warningsOf(res.json())).toContainEqual({
      line: 1,
      message: "the file is labelled ANSI but holds UTF-8 text: read as UTF-8",
    });
    const items = await itemsOf(res.json().id);
    const detail = (await api("GET", `/api/v1/budget-items/${items[0].id}`)).json();
    expect([detail.unit, detail.summary]).toEqual(["m³", "Excavación en zanja, pequeña"]);
  });

  it("accepts a file labelled UTF-8", async () => {
    const res = await importFile(utf8File("UTF-8", rootCode("U")));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().name).toBe("Rehabilitación en Logroño");
    expect(warningsOf(res.json())).toContainEqual({ line: 1, message: "read as UTF-8, as its ~V says" });
  });

  it("keeps reading a latin-1 ANSI file by its label", async () => {
    const res = await importFile(
      file(["~V|SOFT|FIEBDC-3/2016|Prog||ANSI||", `~C|${rootCode("L")}##||Reforma en Logroño|0|`]),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ name: "Reforma en Logroño", import: { charset: "ANSI" } });
  });
});

describe("root code collisions", () => {
  it("gives a taken root code the next free suffix, or takes the code and name sent", async () => {
    const code = rootCode("OBRA");
    const bytes = file([...HEAD, `~C|${code}##||Obra repetida|0|`]);
    const first = await importFile(bytes);
    expect(first.json()).toMatchObject({ code, import: { root_code: code, budget_code: code } });
    const second = await importFile(bytes);
    expect(second.statusCode).toBe(201);
    expect(second.json()).toMatchObject({ code: `${code}-2`, import: { budget_code: `${code}-2` } });
    const third = await importFile(bytes);
    expect(third.json().code).toBe(`${code}-3`);

    const named = await importFile(bytes, { code: `${code}-B`, name: "Variante B" });
    expect(named.json()).toMatchObject({ code: `${code}-B`, name: "Variante B" });
    const taken = await importFile(bytes, { code });
    expect(taken.statusCode).toBe(409);
    const blank = await importFile(bytes, { code: "" });
    expect(blank.statusCode).toBe(400);
  });
});

describe("real exports", () => {
  it("imports a Concreta/Presto file whose declared total is 6 cents off, and says where", async () => {
    const res = await importFile(readFileSync(fixturePath("bc3", "concreta-trazadora-presto.bc3")), {
      code: rootCode("TRZ"),
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    // DEM010: 0.45 x 17.52 = 7.88 + 1.05 x 98.40 = 103.32 -> 111.20, + 3 % (3.34) = 114.54, x 1.13 = 129.43
    // TRA020: 8.90 x 1.13 = 10.06 ; 30.04 x 129.43 = 3888.08 + 18.5 x 10.06 = 186.11 -> 4074.19
    expect(body.import).toMatchObject({
      declared_total: "4074.13",
      imported_total: "4074.19",
      difference: "0.06",
      placements: 3,
      measurement_lines: 3,
      texts: 2,
    });
    expect(warningsOf(body)).toContainEqual({
      line: 5,
      message: "chapter C1 adds up to 4074.19, its ~C declares 4074.13",
    });
  });

  it.each(["testfull.bc3", "disid-test.bc3"])("imports %s with a report", async (name) => {
    const res = await importFile(readFileSync(fixturePath("bc3", name)), { code: rootCode("FX") });
    expect(res.statusCode, res.body).toBe(201);
    const report = res.json().import;
    expect(report.placements).toBeGreaterThan(0);
    expect(report.imported_total).toBe(res.json().pem);
    for (const w of report.warnings) expect(w.line).toBeGreaterThan(0);
  });
});
