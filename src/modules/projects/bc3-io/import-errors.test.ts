import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import {
  bringBudgetTo,
  createBudget,
  createItem,
  multipartFile,
  uniqueCode,
} from "../budgets/test-support.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const bc3 = (lines: string[]) => Buffer.from(lines.join("\r\n"), "latin1");
const validFile = (code: string) =>
  bc3([
    "~V|SOFT|FIEBDC-3/2016|Prog||ANSI||",
    `~C|${code}##||Obra nueva|0|`,
    `~D|${code}##|01#\\1\\1\\|`,
    "~C|01#||Movimiento de tierras|0|",
    "~D|01#|E01\\1\\12.5\\|",
    "~C|E01|m3|Excavación en zanja|8.75|",
  ]);
const countBudgets = async () =>
  (await t.as(t.adminToken, { method: "GET", url: "/api/v1/budgets?limit=1" })).json().total as number;
const countItems = async (budgetId: string) =>
  (
    await t.as(t.adminToken, { method: "GET", url: `/api/v1/budget-items?budget_id=${budgetId}&limit=1` })
  ).json().total as number;
const importNew = (file: Buffer) =>
  t.as(t.adminToken, { method: "POST", url: "/api/v1/budgets/import-bc3", ...multipartFile(file) });
const replace = (budgetId: string, file: Buffer) =>
  t.as(t.adminToken, {
    method: "POST",
    url: `/api/v1/budgets/${budgetId}/import-bc3`,
    ...multipartFile(file),
  });

describe("malformed BC3 files", () => {
  it("answers 400 listing every problem by line, and saves nothing", async () => {
    const before = await countBudgets();
    const file = bc3([
      "~V|SOFT|FIEBDC-3/2016|Prog||ANSI||",
      "~C|ROTO##||Presupuesto roto|0|",
      "~D|ROTO##|X1\\1\\1\\NOPE\\1\\1\\|",
      "~C|X1|m|Partida|abc|",
      "~M|ROTO##\\X1|1\\|2|\\Muro\\dos\\1\\1\\\\|",
    ]);
    const res = await importNew(file);
    expect(res.statusCode).toBe(400);
    expect(res.headers["content-type"]).toContain("application/problem+json");
    const errors = res.json().errors as { path: string; message: string }[];
    expect(errors.map((e) => e.path)).toEqual(["line 3", "line 4", "line 5"]);
    expect(errors[0].message).toContain("NOPE");
    expect(errors[1].message).toContain("abc");
    expect(errors[2].message).toContain("dos");
    expect(await countBudgets()).toBe(before);
  });

  it("reports a file without ~V or root, an unknown charset and an empty file", async () => {
    const cases: [Buffer, string][] = [
      [bc3(["~C|X1|m|Partida|1|"]), "line 1"],
      [bc3(["~V|SOFT|FIEBDC-3/2016|Prog||KOI8-R||", "~C|R##||Raíz|0|"]), "line 1"],
      [bc3(["", "~V|SOFT|FIEBDC-3/2016|Prog||ANSI||", "~C|X1|m|Partida|1|"]), "line 1"],
      [Buffer.alloc(0), "line 1"],
    ];
    const before = await countBudgets();
    for (const [file, path] of cases) {
      const res = await importNew(file);
      expect(res.statusCode).toBe(400);
      expect(res.json().errors.map((e: { path: string }) => e.path)).toContain(path);
    }
    expect(await countBudgets()).toBe(before);
  });

  it("leaves a borrador budget's items untouched when the replacement file is malformed", async () => {
    const b = await createBudget(t, t.adminToken);
    await createItem(t, t.adminToken, { budget_id: b.id, quantity: "2", unit_price: "3" });
    const res = await replace(
      b.id,
      bc3(["~V|SOFT|FIEBDC-3/2016|Prog||ANSI||", "~C|X##||R|0|", "~D|X##|Y\\1\\1\\|"]),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ path: "line 3", message: expect.stringContaining("Y") }]);
    expect(await countItems(b.id)).toBe(1);
  });
});

describe("BC3 upload requests", () => {
  it("answers 400 without a file field and 415 for a non-multipart body", async () => {
    const wrongField = multipartFile(validFile(uniqueCode()), "x.bc3", "document");
    const res = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/v1/budgets/import-bc3",
      ...wrongField,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].path).toBe("body.file");
    const json = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/v1/budgets/import-bc3",
      payload: { file: "x" },
    });
    expect(json.statusCode).toBe(415);
  });
});

describe("POST /budgets/{id}/import-bc3", () => {
  it("replaces every item of a borrador budget and keeps its settings", async () => {
    const b = await createBudget(t, t.adminToken, { name: "Mantener nombre", discount_pct: "5" });
    await createItem(t, t.adminToken, { budget_id: b.id, code: "OLD", quantity: "100", unit_price: "100" });
    const res = await replace(b.id, validFile(uniqueCode()));
    expect(res.statusCode).toBe(200);
    // 12.5 x 8.75 = 109.375 -> 109.38
    expect(res.json()).toMatchObject({
      id: b.id,
      code: b.code,
      name: "Mantener nombre",
      discount_pct: "5.00",
      pem: "109.38",
    });
    const items = (
      await t.as(t.adminToken, { method: "GET", url: `/api/v1/budget-items?budget_id=${b.id}` })
    ).json();
    expect(items.data.map((i: { code: string }) => i.code)).toEqual(["01", "E01"]);
  });

  for (const estado of ["aprobado", "en_ejecucion", "finalizado", "cancelado"]) {
    it(`answers 409 for a ${estado} budget and changes nothing`, async () => {
      const b = await createBudget(t, t.adminToken);
      await createItem(t, t.adminToken, { budget_id: b.id, quantity: "1", unit_price: "1" });
      await bringBudgetTo(t, t.adminToken, b.id, estado);
      const res = await replace(b.id, validFile(uniqueCode()));
      expect(res.statusCode).toBe(409);
      expect(res.json().estado).toBe(estado);
      expect(await countItems(b.id)).toBe(1);
    });
  }

  it("answers 404 for an unknown budget and 400 for a non-UUID id", async () => {
    const unknown = await replace("0190a0b4-0000-7000-8000-000000000000", validFile(uniqueCode()));
    expect(unknown.statusCode).toBe(404);
    expect((await replace("nope", validFile(uniqueCode()))).statusCode).toBe(400);
  });
});

describe("BC3 permissions", () => {
  it("needs budgets:crear to import, budgets:editar to replace and budgets:leer to export", async () => {
    const b = await createBudget(t, t.adminToken);
    const reader = await t.userWith(["budgets:leer", "budgets:editar"]);
    const creator = await t.userWith(["budgets:crear"]);
    const importAs = (token: string) =>
      t.as(token, {
        method: "POST",
        url: "/api/v1/budgets/import-bc3",
        ...multipartFile(validFile(uniqueCode())),
      });
    expect((await importAs(reader.token)).statusCode).toBe(403);
    expect((await importAs(creator.token)).statusCode).toBe(201);
    const replaceAs = (token: string) =>
      t.as(token, {
        method: "POST",
        url: `/api/v1/budgets/${b.id}/import-bc3`,
        ...multipartFile(validFile(uniqueCode())),
      });
    expect((await replaceAs(creator.token)).statusCode).toBe(403);
    expect((await replaceAs(reader.token)).statusCode).toBe(200);
    const exportAs = (token: string) =>
      t.as(token, { method: "GET", url: `/api/v1/budgets/${b.id}/export-bc3` });
    expect((await exportAs(creator.token)).statusCode).toBe(403);
    expect((await exportAs(reader.token)).statusCode).toBe(200);
    const badCharset = await t.as(reader.token, {
      method: "GET",
      url: `/api/v1/budgets/${b.id}/export-bc3?charset=UTF8`,
    });
    expect(badCharset.statusCode).toBe(400);
  });
});
