import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { dec, toQuantity } from "../../../platform/money.js";
import type { Bc3Budget, Bc3Node } from "../bc3/types.js";
import { writeBc3 } from "../bc3/write.js";
import { createBudget, multipartFile, uniqueCode } from "../budgets/test-support.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const node = (n: Partial<Bc3Node> & Pick<Bc3Node, "code" | "kind" | "summary">): Bc3Node => ({
  unit: "",
  longText: "",
  quantity: "1.000",
  unitPrice: "0.0000",
  measurements: [],
  decomposition: [],
  children: [],
  ...n,
});

/** Three chapters, a sub-chapter, measurements, decompositions and accented texts (no € so cp850 keeps all). */
function sampleBudget(code: string): Bc3Budget {
  return {
    code,
    name: "Rehabilitación de vivienda en Logroño",
    charset: "ANSI",
    root: {
      code,
      summary: "Rehabilitación de vivienda en Logroño",
      children: [
        node({
          code: "01",
          kind: "chapter",
          summary: "Demoliciones y acción previa",
          children: [
            node({
              code: "01.01",
              kind: "item",
              unit: "m2",
              summary: "Demolición de tabiquería",
              longText:
                "Demolición de tabique de ladrillo hueco, con medios manuales.\nIncluye retirada de escombros.",
              quantity: "39.360",
              unitPrice: "12.3456",
              measurements: [
                { label: "Salón", units: "2", length: "4.5", width: null, height: "2.7" },
                { label: "Baño güeña", units: null, length: "3.2", width: null, height: "2.7" },
                { label: "Cocina", units: "1", length: "3", width: null, height: "2.7" },
                { label: "Hueco de puerta", units: "-1", length: "0.8", width: null, height: "2.1" },
              ],
            }),
            node({
              code: "01.02",
              kind: "chapter",
              summary: "Sub-capítulo: carpinterías",
              children: [
                node({
                  code: "01.02.01",
                  kind: "item",
                  unit: "ud",
                  summary: "Desmontaje de puerta de paso",
                  quantity: "7.000",
                  unitPrice: "18.5000",
                }),
              ],
            }),
          ],
        }),
        node({
          code: "02",
          kind: "chapter",
          summary: "Albañilería: tabiques y trasdosados",
          children: [
            node({
              code: "02.01",
              kind: "item",
              unit: "m2",
              summary: "Tabique de ladrillo, pingüino y cañón",
              longText: "Fábrica de ladrillo cerámico hueco doble; recibido con mortero M-7,5.",
              quantity: "25.300",
              // The decomposition's sum: 9.0675 + 4.0275 + 3.96 + 0.15 (FIEBDC-3: it prevails over ~C).
              unitPrice: "17.2050",
              decomposition: [
                {
                  type: "labour",
                  code: "MO.OF1",
                  unit: "h",
                  summary: "Oficial 1ª albañilería",
                  yield: "0.45",
                  price: "20.1500",
                },
                {
                  type: "labour",
                  code: "MO.PEON",
                  unit: "h",
                  summary: "Peón ordinario",
                  yield: "0.225",
                  price: "17.9000",
                },
                {
                  type: "material",
                  code: "MT.LAD",
                  unit: "ud",
                  summary: "Ladrillo hueco doble",
                  yield: "33",
                  price: "0.1200",
                },
                {
                  type: "machinery",
                  code: "MQ.HORM",
                  unit: "h",
                  summary: "Hormigonera",
                  yield: "0.05",
                  price: "3.0000",
                },
              ],
            }),
          ],
        }),
        node({
          code: "03",
          kind: "chapter",
          summary: "Pinturas y acabados: áéíóú ñ ü ç Ñ Ü Ç É",
          children: [
            node({
              code: "03.01",
              kind: "item",
              unit: "m2",
              summary: "Pintura plástica lisa en paramentos",
              longText: "Dos manos de pintura plástica; acabado mate, según exigencias.",
              quantity: "120.500",
              unitPrice: "6.4000",
              measurements: [
                { label: "Paredes y techos", units: null, length: "120.5", width: null, height: null },
              ],
            }),
          ],
        }),
      ],
    },
  };
}

const api = (method: "GET" | "POST", url: string, extra: Record<string, unknown> = {}) =>
  t.as(t.adminToken, { method, url, ...extra });

type Out = Record<string, unknown> & { id: string; kind: string; children: Out[] };
/** The stored tree with every item's lines, ids replaced by codes, for comparison. */
async function storedTree(budgetId: string) {
  const tree = (await api("GET", `/api/v1/budget-items?budget_id=${budgetId}&tree=true&limit=1000`)).json();
  const describe = async (n: Out): Promise<unknown> => {
    const detail = (await api("GET", `/api/v1/budget-items/${n.id}`)).json();
    return {
      code: n.code,
      kind: n.kind,
      position: n.position,
      unit: n.unit,
      summary: n.summary,
      long_text: n.long_text,
      quantity: n.quantity,
      unit_price: n.unit_price,
      amount: n.amount,
      measurements: detail.measurements,
      decomposition: detail.decomposition,
      children: await Promise.all(n.children.map(describe)),
    };
  };
  return Promise.all((tree.data as Out[]).map(describe));
}

/** What the API must show for a BC3 node: the same texts, quantities, prices and lines. */
function expected(n: Bc3Node, position: number): unknown {
  const chapter = n.kind === "chapter";
  const q = (v: string | null) => (v === null ? null : toQuantity(v));
  return {
    code: n.code,
    kind: n.kind,
    position,
    unit: n.unit,
    summary: n.summary,
    long_text: n.longText,
    quantity: chapter ? null : n.quantity,
    unit_price: chapter ? null : n.unitPrice,
    measurements: n.measurements.map((m) => ({
      label: m.label,
      units: q(m.units),
      length: q(m.length),
      width: q(m.width),
      height: q(m.height),
    })),
    decomposition: n.decomposition.map((d) => ({ ...d, yield: dec(d.yield).toFixed(6) })),
    children: n.children.map(expected),
  };
}

describe("BC3 import and export round trip", () => {
  it("imports a file into a new budget with the same tree, quantities, prices, texts and lines", async () => {
    const source = sampleBudget(uniqueCode("BC3"));
    const res = await api("POST", "/api/v1/budgets/import-bc3", multipartFile(writeBc3(source)));
    expect(res.statusCode).toBe(201);
    const budget = res.json();
    // (24.3 + 8.64 + 8.1 - 1.68) x 12.3456 = 485.92 ; 7 x 18.5 = 129.50 ; 25.3 x 17.205 = 435.29 ;
    // 120.5 x 6.4 = 771.20
    expect(budget).toMatchObject({
      code: source.code,
      name: source.name,
      estado: "borrador",
      pem: "1821.91",
    });
    expect(budget.import).toMatchObject({
      concepts: 8, // the placed ones; components live in their decomposition lines
      placements: 8,
      measurement_lines: 5,
      texts: 3,
      declared_total: "1821.91",
      imported_total: "1821.91",
      difference: "0.00",
    });
    const stored = await storedTree(budget.id);
    expect(stored).toMatchObject(source.root.children.map(expected));
    // The same root code again: the next free suffix, and the answer says so.
    const again = await api("POST", "/api/v1/budgets/import-bc3", multipartFile(writeBc3(source)));
    expect(again.statusCode).toBe(201);
    expect(again.json().code).toBe(`${source.code}-2`);
    expect(again.json().import).toMatchObject({ root_code: source.code, budget_code: `${source.code}-2` });
  });

  for (const charset of ["ANSI", "850", "437"] as const) {
    it(`exports as ${charset} and imports back the same budget`, async () => {
      const source = sampleBudget(uniqueCode("RT"));
      const original = (
        await api("POST", "/api/v1/budgets/import-bc3", multipartFile(writeBc3(source)))
      ).json();
      const exported = await api("GET", `/api/v1/budgets/${original.id}/export-bc3?charset=${charset}`);
      expect(exported.statusCode).toBe(200);
      expect(exported.headers["content-type"]).toBe("application/octet-stream");
      expect(exported.headers["content-disposition"]).toBe(`attachment; filename="${source.code}.bc3"`);
      const bytes = exported.rawPayload;
      expect(bytes.toString("latin1")).toContain(`|${charset}|`);
      // "ñ" is 0xF1 in windows-1252 and 0xA4 in code pages 850 and 437.
      expect(bytes.includes(Buffer.from([charset === "ANSI" ? 0xf1 : 0xa4]))).toBe(true);

      const target = await createBudget(t, t.adminToken);
      const replaced = await api("POST", `/api/v1/budgets/${target.id}/import-bc3`, multipartFile(bytes));
      expect(replaced.statusCode).toBe(200);
      expect(replaced.json()).toMatchObject({ id: target.id, code: target.code, pem: original.pem });
      expect(await storedTree(target.id)).toEqual(await storedTree(original.id));
    });
  }
});
