import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { pngLogo } from "../../companies/test-support.js";
import { multipartFile } from "../budgets/test-support.js";
import { decimalsFormatter, formatEs, longDateEs } from "./document/format.js";
import { insertBudget, insertItem } from "./test-support.js";

let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await createTestApp();
  dir = mkdtempSync(join(tmpdir(), "cuadra-cert-pdf-"));
});
afterAll(async () => {
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const LONG_SUMMARY =
  "Forjado unidireccional de canto 25+5 cm con viguetas pretensadas, bovedilla de hormigón y capa de " +
  "compresión armada con mallazo ME 20x20 Ø5, incluso encofrado, vibrado y curado";

/** The PDF's text layer (pdftotext, columns kept) and its fonts (pdffonts). */
function inspect(pdf: Buffer, name: string) {
  const file = join(dir, name);
  writeFileSync(file, pdf);
  const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
  const flow = execFileSync("pdftotext", [file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
  const fonts = execFileSync("pdffonts", [file], { encoding: "utf8" }).trim().split("\n").slice(2);
  return { text, flow, fonts };
}

const lineWith = (text: string, start: RegExp) => text.split("\n").find((l) => start.test(l)) ?? "";
const cells = (line: string) => line.trim().split(/\s{2,}/);

async function ok(res: { statusCode: number; body: string }, status = 200) {
  expect(res.statusCode, res.body).toBe(status);
}

/**
 * A company with a logo, a budget of 4 chapters (PEM 44.298,00), certification 1 validated and
 * certification 2 (this one) certifying chapters 02 and 03 only.
 */
async function scenario() {
  const companyId = await t.createCompany("Construcciones Rioja", "B26123455");
  await ok(
    await t.as(t.adminToken, {
      method: "PUT",
      url: `/api/companies/${companyId}`,
      payload: {
        legal_name: "Construcciones Rioja, S.L.",
        address: "Calle Vara de Rey 41, 3º",
        postal_code: "26002",
        city: "Logroño",
        province: "La Rioja",
      },
    }),
  );
  await ok(
    await t.as(t.adminToken, {
      method: "PUT",
      url: `/api/companies/${companyId}/logo`,
      ...multipartFile(pngLogo(240, 80), "logo.png"),
    }),
  );
  const budget = await insertBudget(t.db, {
    companyId,
    code: "OBRA-2025-014",
    name: "Edificio de 12 viviendas en Logroño",
    clientName: "Promociones Ebro, S.L.",
    clientTaxId: "B12345674",
  });
  await ok(
    await t.as(t.adminToken, {
      method: "PUT",
      url: `/api/v1/budgets/${budget.id}`,
      payload: {
        owner_address: "Avenida de Portugal 12, 26001 Logroño",
        site_address: "Calle Duquesa de la Victoria 88, Logroño",
        contract_amount: "52712.62",
        file_number: "EXP-2025/014",
        site_manager_name: "Lucía Martínez Sáenz, arquitecta",
        contractor_signatory: "Javier Pérez Ruiz",
        owner_signatory: "Ana Gómez Ibáñez",
      },
    }),
  );
  const chapters = [
    [
      "01",
      "Movimiento de tierras",
      [
        ["01.01", "m3", "Excavación a cielo abierto", "12.50", "400"],
        ["01.02", "m3", "Relleno de trasdós", "8.40", "250"],
      ],
    ],
    [
      "02",
      "Cimentación",
      [
        ["02.01", "m3", "Hormigón HA-25 en zapatas", "95.30", "60"],
        ["02.02", "kg", "Acero B500S en barras", "1.15", "4200"],
      ],
    ],
    ["03", "Estructura", [["03.01", "m2", LONG_SUMMARY, "48.75", "320"]]],
    ["04", "Albañilería", [["04.01", "m2", "Fábrica de ladrillo perforado", "22.10", "500"]]],
  ] as const;
  const ids: Record<string, string> = {};
  for (const [i, [code, summary, items]] of chapters.entries()) {
    const chapter = await insertItem(t.db, budget.id, { code, kind: "chapter", summary, position: i });
    for (const [j, [itemCode, unit, itemSummary, unitPrice, quantity]] of items.entries()) {
      const item = await insertItem(t.db, budget.id, {
        code: itemCode,
        parentId: chapter.id,
        position: j,
        unit,
        summary: itemSummary,
        unitPrice,
        quantity,
      });
      ids[itemCode] = item.id;
    }
  }
  const certify = async (period: [string, string], lines: [string, string][]) => {
    const res = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/v1/certifications",
      payload: {
        budget_id: budget.id,
        period_start: period[0],
        period_end: period[1],
        lines: lines.map(([code, q]) => ({ budget_item_id: ids[code], quantity_to_origin: q })),
      },
    });
    await ok(res, 201);
    return res.json().id as string;
  };
  const first = await certify(
    ["2025-03-01", "2025-03-31"],
    [
      ["01.01", "400"],
      ["01.02", "250"],
      ["02.01", "20"],
    ],
  );
  for (const estado of ["emitida", "validada"]) {
    const url = `/api/v1/certifications/${first}/estado`;
    await ok(await t.as(t.adminToken, { method: "PUT", url, payload: { estado } }));
  }
  const second = await certify(
    ["2025-04-01", "2025-04-30"],
    [
      ["02.01", "60"],
      ["02.02", "3000"],
      ["03.01", "100"],
    ],
  );
  return { budget, second };
}

describe("GET /certifications/{id}/pdf", () => {
  it("prints a certificación de obra whose text layer carries the parties, figures, clause and signatures", async () => {
    const { second } = await scenario();
    await ok(
      await t.as(t.adminToken, {
        method: "PATCH",
        url: `/api/v1/certifications/${second}`,
        payload: { issue_place: "Logroño", issue_date: "2025-04-30", retention_pct: "10" },
      }),
    );
    const res = await t.as(t.adminToken, { method: "GET", url: `/api/v1/certifications/${second}/pdf` });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.headers["content-disposition"]).toBe(
      'attachment; filename="certificacion-OBRA-2025-014-2.pdf"',
    );
    const { text, flow, fonts } = inspect(res.rawPayload, "second.pdf");

    // Contractor, owner, work, contract.
    for (const fact of [
      "Construcciones Rioja, S.L.",
      "CIF/NIF: B26123455",
      "Calle Vara de Rey 41, 3º",
      "26002 Logroño (La Rioja)",
      "CERTIFICACIÓN Nº 2",
      "Periodo: del 01/04/2025 al 30/04/2025",
      "Expediente: EXP-2025/014",
      "Promociones Ebro, S.L.",
      "B12345674",
      "Avenida de Portugal 12, 26001 Logroño",
      "Calle Duquesa de la Victoria 88, Logroño",
      "52.712,62 € (IVA excluido)",
      "44.298,00 €",
    ])
      expect(flow).toContain(fact);
    expect(flow).not.toContain("Cuadra");
    expect(flow).not.toMatch(/borrador|emitida/i);

    // Chapter summary: budget, to origin, previous, this period, % executed.
    expect(cells(lineWith(text, /^\s*01\s+Movimiento de tierras/))).toEqual([
      "01",
      "Movimiento de tierras",
      "7.100,00",
      "7.100,00",
      "7.100,00",
      "0,00",
      "100,00 %",
    ]);
    expect(cells(lineWith(text, /^\s*02\s+Cimentación/)).slice(2)).toEqual([
      "10.548,00",
      "9.168,00",
      "1.906,00",
      "7.262,00",
      "86,92 %",
    ]);
    expect(cells(lineWith(text, /^\s*04\s+Albañilería/)).slice(2)).toEqual([
      "11.050,00",
      "0,00",
      "0,00",
      "0,00",
      "0,00 %",
    ]);
    expect(cells(lineWith(text, /Total ejecución material/)).slice(1)).toEqual([
      "44.298,00",
      "21.143,00",
      "9.006,00",
      "12.137,00",
      "47,73 %",
    ]);
    expect(flow).toContain("2 capítulos sin obra en este periodo figuran solo en este resumen");

    // Settlement: 12.137,00 + GG 13 % + BI 6 % + IVA 21 % - retention 10 % of the base.
    const settlement: [RegExp, string][] = [
      [/Ejecución material a origen/, "21.143,00 €"],
      [/certificado hasta la nº 1/, "-9.006,00 €"],
      [/Ejecución material de esta certificación/, "12.137,00 €"],
      [/Gastos generales \(13,00 %\)/, "1.577,81 €"],
      [/Beneficio industrial \(6,00 %\)/, "728,22 €"],
      [/Importe de ejecución por contrata/, "14.443,03 €"],
      [/Base imponible/, "14.443,03 €"],
      [/IVA \(21,00 %\)/, "3.033,04 €"],
      [/Total certificación/, "17.476,07 €"],
      [/Retención de garantía \(10,00 %/, "-1.444,30 €"],
      [/LÍQUIDO A PERCIBIR/, "16.031,77 €"],
    ];
    for (const [label, amount] of settlement)
      expect(cells(lineWith(text, label)).at(-1), String(label)).toBe(amount);

    // Clause, place and date, signature blocks with names and dates.
    expect(flow).toContain("abono a buena cuenta");
    expect(flow).toContain("medición final");
    expect(flow).toContain("En Logroño, a 30 de abril de 2025");
    for (const s of [
      "LA DIRECCIÓN FACULTATIVA",
      "EL CONTRATISTA",
      "CONFORME, LA PROPIEDAD",
      "Fdo.: Lucía Martínez Sáenz, arquitecta",
      "Fdo.: Javier Pérez Ruiz",
      "Fdo.: Ana Gómez Ibáñez",
      "Fecha: 30/04/2025",
    ])
      expect(flow).toContain(s);

    // Detail: only the chapters with work this period, previous amounts, the description wrapped whole.
    expect(flow).toContain("RELACIÓN VALORADA — CERTIFICACIÓN Nº 2");
    expect(text).toContain("CIMENTACIÓN");
    expect(text).toContain("ESTRUCTURA");
    expect(text).not.toContain("MOVIMIENTO DE TIERRAS");
    expect(text).not.toContain("ALBAÑILERÍA");
    expect(cells(lineWith(text, /^\s*02\.01\s/))).toEqual([
      "02.01",
      "m3",
      "Hormigón HA-25 en zapatas",
      "95,30",
      "60,00",
      "20,00",
      "40,00",
      "5.718,00",
      "1.906,00",
      "3.812,00",
    ]);
    expect(flow).toContain("incluso encofrado, vibrado y curado");
    expect(flow).not.toContain("…");
    expect(cells(lineWith(text, /Total relación valorada/)).slice(1)).toEqual([
      "14.043,00",
      "1.906,00",
      "12.137,00",
    ]);
    expect(flow).toMatch(/Página 1 de 2/);
    expect(flow).toMatch(/Página 2 de 2/);

    // Every font is a TrueType subset embedded in the file.
    expect(fonts.length).toBeGreaterThanOrEqual(2);
    for (const font of fonts) {
      expect(font).toMatch(/DejaVuSansCondensed/);
      expect(font).toMatch(/TrueType\s.*\byes\s+yes\b/);
    }
  });

  it("prints prices to the budget's declared decimals", async () => {
    const budget = await insertBudget(t.db, { decimals: { price: 3, quantity: 2 } });
    const item = await insertItem(t.db, budget.id, { code: "A1", unitPrice: "18.7525", quantity: "10" });
    const res = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/v1/certifications",
      payload: {
        budget_id: budget.id,
        period_start: "2025-05-01",
        period_end: "2025-05-31",
        lines: [{ budget_item_id: item.id, quantity_to_origin: "2.5" }],
      },
    });
    await ok(res, 201);
    const pdf = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/v1/certifications/${res.json().id}/pdf`,
    });
    const { text, flow } = inspect(pdf.rawPayload, "decimals.pdf");
    expect(cells(lineWith(text, /^\s*A1\s/)).slice(3, 5)).toEqual(["18,753", "2,50"]);
    // Without a company the document says so instead of printing another name.
    expect(flow).toContain("Contratista sin empresa asignada");
    expect(flow).toContain("En ______________________, a ____ de ______________ de ______");
  });

  it("continues a long chapter on the next page under its heading, every line whole", async () => {
    const budget = await insertBudget(t.db);
    const chapter = await insertItem(t.db, budget.id, {
      code: "07",
      kind: "chapter",
      summary: "Carpintería",
    });
    const lines = [];
    for (let i = 1; i <= 45; i++) {
      const item = await insertItem(t.db, budget.id, {
        code: `07.${String(i).padStart(2, "0")}`,
        parentId: chapter.id,
        position: i,
        summary: `Ventana ${i} de aluminio con rotura de puente térmico, doble acristalamiento bajo emisivo`,
        unitPrice: "410",
        quantity: "2",
      });
      lines.push({ budget_item_id: item.id, quantity_to_origin: "1" });
    }
    const res = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/v1/certifications",
      payload: { budget_id: budget.id, period_start: "2025-06-01", period_end: "2025-06-30", lines },
    });
    await ok(res, 201);
    const pdf = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/v1/certifications/${res.json().id}/pdf`,
    });
    const { text, flow } = inspect(pdf.rawPayload, "long.pdf");
    expect(flow).toContain("RELACIÓN VALORADA — CERTIFICACIÓN Nº 1 (continuación)");
    expect(flow).toContain("CARPINTERÍA (continuación)");
    expect(flow).toMatch(/Página 4 de 4/);
    for (let i = 1; i <= 45; i++) expect(flow).toContain(`Ventana ${i} de aluminio`);
    expect(cells(lineWith(text, /Total capítulo 07/)).slice(1)).toEqual(["18.450,00", "0,00", "18.450,00"]);
  });

  it("answers 404 for an unknown certification", async () => {
    const res = await t.as(t.adminToken, {
      method: "GET",
      url: "/api/v1/certifications/0190f5a0-0000-7000-8000-000000000000/pdf",
    });
    expect(res.statusCode).toBe(404);
    expect(res.headers["content-type"]).toContain("application/problem+json");
  });
});

describe("document formats", () => {
  it("writes numbers and dates the Spanish way", () => {
    expect(formatEs("1234567.89")).toBe("1.234.567,89");
    expect(formatEs("-1234.50")).toBe("-1.234,50");
    expect(formatEs("999.000")).toBe("999,000");
    expect(formatEs("0.00")).toBe("0,00");
    expect(longDateEs("2025-04-30")).toBe("30 de abril de 2025");
    expect(longDateEs("2025-01-05")).toBe("5 de enero de 2025");
  });

  it("shows a column to the declared decimals, else to what its most precise value needs", () => {
    expect(decimalsFormatter(2, 2, 4)("1234.5")).toBe("1.234,50");
    expect(decimalsFormatter(3, 2, 4, ["18.7525"])("18.7525")).toBe("18,753");
    const prices = decimalsFormatter(undefined, 2, 4, ["18.7525", "18.7000", "1200"]);
    expect(["18.7525", "18.7", "1200"].map(prices)).toEqual(["18,7525", "18,7000", "1.200,0000"]);
    const round = decimalsFormatter(undefined, 2, 4, ["18.7000", "1200.0000"]);
    expect(["18.7", "1200"].map(round)).toEqual(["18,70", "1.200,00"]);
    const quantities = decimalsFormatter(undefined, 2, 3, ["2.125", "12.5", "0.00001"]);
    expect(["2.125", "12.5"].map(quantities)).toEqual(["2,125", "12,500"]);
  });
});
