import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { formatEs } from "./pdf.js";
import { insertBudget, insertItem } from "./test-support.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const pageCount = (pdf: Buffer) => (pdf.toString("latin1").match(/\/Type \/Page\b(?!s)/g) ?? []).length;

describe("GET /certifications/{id}/pdf", () => {
  it("renders one page per chapter with lines plus a totals page", async () => {
    const budget = await insertBudget(t.db, {
      code: 'OBRA/25 "Norte"',
      name: "Edificio de 12 viviendas en Logroño",
      clientName: "Promociones Ebro, S.L.",
      clientTaxId: "B12345674",
    });
    const ids: string[] = [];
    for (const [i, name] of ["Movimiento de tierras", "Cimentación", "Estructura"].entries()) {
      const chapter = await insertItem(t.db, budget.id, {
        code: `0${i + 1}`,
        kind: "chapter",
        summary: name,
        position: i,
      });
      for (let j = 1; j <= 3; j++) {
        const item = await insertItem(t.db, budget.id, {
          code: `0${i + 1}.0${j}`,
          parentId: chapter.id,
          position: j,
          unit: "m3",
          summary: `Excavación en zanja con medios mecánicos, carga y transporte a vertedero ${j}`,
          quantity: "125.5",
          unitPrice: "18.7525",
        });
        if (i < 2) ids.push(item.id);
      }
    }
    const created = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/v1/certifications",
      payload: {
        budget_id: budget.id,
        period_start: "2025-04-01",
        period_end: "2025-04-30",
        lines: ids.map((id) => ({ budget_item_id: id, quantity_to_origin: "60.25" })),
      },
    });
    expect(created.statusCode, created.body).toBe(201);

    const res = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/v1/certifications/${created.json().id}/pdf`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.headers["content-disposition"]).toBe(
      'attachment; filename="certificacion-OBRA_25_Norte_-1.pdf"',
    );
    const pdf = res.rawPayload;
    expect(pdf.subarray(0, 4).toString("latin1")).toBe("%PDF");
    expect(pageCount(pdf)).toBe(2 + 1);
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

describe("formatEs", () => {
  it("writes numbers the Spanish way", () => {
    expect(formatEs("1234567.89")).toBe("1.234.567,89");
    expect(formatEs("-1234.50")).toBe("-1.234,50");
    expect(formatEs("999.000")).toBe("999,000");
    expect(formatEs("0.00")).toBe("0,00");
  });
});
