import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import type { BudgetState } from "../tables.js";
import { insertBudget, insertItem, setBudgetEstado } from "./test-support.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

type Method = "GET" | "POST" | "PUT" | "DELETE";
const call = (method: Method, url: string, payload?: object, token = t.adminToken) =>
  t.as(token, { method, url: `/api/v1${url}`, payload });

/** A budget in en_ejecucion with one chapter holding two items. */
async function budgetWithItems(estado: BudgetState = "en_ejecucion") {
  const budget = await insertBudget(t.db, { estado });
  const chapter = await insertItem(t.db, budget.id, { code: "01", kind: "chapter" });
  const a = await insertItem(t.db, budget.id, {
    code: "01.01",
    parentId: chapter.id,
    quantity: "10",
    unitPrice: "5",
  });
  const b = await insertItem(t.db, budget.id, {
    code: "01.02",
    parentId: chapter.id,
    quantity: "4",
    unitPrice: "2.5",
  });
  return { budget, chapter, a, b };
}

const body = (budgetId: string, itemId: string, quantity = "1", period = ["2025-01-01", "2025-01-31"]) => ({
  budget_id: budgetId,
  period_start: period[0],
  period_end: period[1],
  lines: [{ budget_item_id: itemId, quantity_to_origin: quantity }],
});

async function createCert(budgetId: string, itemId: string, quantity = "1") {
  const res = await call("POST", "/certifications", body(budgetId, itemId, quantity));
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; number: number; estado: string };
}

const setEstado = (id: string, estado: string, token = t.adminToken) =>
  call("PUT", `/certifications/${id}/estado`, { estado }, token);

async function validated(budgetId: string, itemId: string, quantity = "1") {
  const cert = await createCert(budgetId, itemId, quantity);
  expect((await setEstado(cert.id, "emitida")).statusCode).toBe(200);
  expect((await setEstado(cert.id, "validada")).statusCode).toBe(200);
  return cert;
}

describe("creating certifications", () => {
  it("numbers them 1, 2, 3 within each budget", async () => {
    const one = await budgetWithItems();
    const other = await budgetWithItems();
    const numbers = [];
    for (let i = 0; i < 3; i++) numbers.push((await createCert(one.budget.id, one.a.id)).number);
    expect(numbers).toEqual([1, 2, 3]);
    expect((await createCert(other.budget.id, other.a.id)).number).toBe(1);

    const list = await call("GET", `/certifications?budget_id=${one.budget.id}`);
    expect(list.json().total).toBe(3);
    expect(list.json().data.map((c: { number: number }) => c.number)).toEqual([1, 2, 3]);
  });

  it("refuses a budget that is not en_ejecucion with 409", async () => {
    for (const estado of ["borrador", "aprobado", "finalizado", "cancelado"] as const) {
      const { budget, a } = await budgetWithItems(estado);
      const res = await call("POST", "/certifications", body(budget.id, a.id));
      expect(res.statusCode, estado).toBe(409);
      expect(res.headers["content-type"]).toContain("application/problem+json");
    }
  });

  it("answers 404 for an unknown budget", async () => {
    const res = await call(
      "POST",
      "/certifications",
      body("0190f5a0-0000-7000-8000-000000000000", "0190f5a0-0000-7000-8000-000000000001"),
    );
    expect(res.statusCode).toBe(404);
  });

  it("accepts only leaf items of the same budget, each once, and an ordered period", async () => {
    const { budget, chapter, a } = await budgetWithItems();
    const foreign = await budgetWithItems();
    const cases = [
      body(budget.id, chapter.id),
      body(budget.id, foreign.a.id),
      { ...body(budget.id, a.id), lines: [...body(budget.id, a.id).lines, ...body(budget.id, a.id).lines] },
      body(budget.id, a.id, "1", ["2025-02-01", "2025-01-31"]),
      body(budget.id, a.id, "-1"),
      body(budget.id, a.id, "1.0001"),
      { ...body(budget.id, a.id), lines: [] },
    ];
    for (const payload of cases) {
      const res = await call("POST", "/certifications", payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().status).toBe(400);
    }
    const chapterRes = await call("POST", "/certifications", body(budget.id, chapter.id));
    expect(chapterRes.json().errors[0].path).toBe("body.lines.0.budget_item_id");
  });

  it("answers 400 for a non-UUID id and 404 for an unknown one", async () => {
    expect((await call("GET", "/certifications/not-a-uuid")).statusCode).toBe(400);
    expect((await call("GET", "/certifications/0190f5a0-0000-7000-8000-000000000000")).statusCode).toBe(404);
  });
});

describe("editing and deleting", () => {
  it("replaces the lines of a borrador and refuses to edit once emitida", async () => {
    const { budget, a, b } = await budgetWithItems();
    const cert = await createCert(budget.id, a.id, "3");
    const update = {
      period_start: "2025-01-01",
      period_end: "2025-01-15",
      notes: "Revisada",
      lines: [{ budget_item_id: b.id, quantity_to_origin: "2" }],
    };
    const res = await call("PUT", `/certifications/${cert.id}`, update);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().lines.map((l: { code: string }) => l.code)).toEqual(["01.02"]);
    expect(res.json().period_end).toBe("2025-01-15");
    expect(res.json().notes).toBe("Revisada");

    await setEstado(cert.id, "emitida");
    expect((await call("PUT", `/certifications/${cert.id}`, update)).statusCode).toBe(409);
  });

  it("deletes only the newest certification, and only in borrador", async () => {
    const { budget, a } = await budgetWithItems();
    const first = await createCert(budget.id, a.id);
    const second = await createCert(budget.id, a.id);
    const refused = await call("DELETE", `/certifications/${first.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().newest_number).toBe(2);

    await setEstado(second.id, "emitida");
    expect((await call("DELETE", `/certifications/${second.id}`)).statusCode).toBe(409);
    await setEstado(second.id, "rechazada");
    await setEstado(second.id, "borrador");
    expect((await call("DELETE", `/certifications/${second.id}`)).statusCode).toBe(204);
    expect((await call("GET", `/certifications/${second.id}`)).statusCode).toBe(404);
    expect((await createCert(budget.id, a.id)).number).toBe(2);
  });

  it("answers concurrent deletes of one certification with one 204 and 404s, never a 500", async () => {
    const { budget, a } = await budgetWithItems();
    const cert = await createCert(budget.id, a.id);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => call("DELETE", `/certifications/${cert.id}`)),
    );
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([204, ...Array(9).fill(404)]);
  });
});

describe("states", () => {
  it("allows borrador -> emitida -> rechazada -> borrador -> emitida -> validada", async () => {
    const { budget, a } = await budgetWithItems();
    const cert = await createCert(budget.id, a.id);
    for (const estado of ["emitida", "rechazada", "borrador", "emitida", "validada"]) {
      const res = await setEstado(cert.id, estado);
      expect(res.statusCode, `${estado}: ${res.body}`).toBe(200);
      expect(res.json().estado).toBe(estado);
    }
    const final = (await call("GET", `/certifications/${cert.id}`)).json();
    expect(final.validated_at).not.toBeNull();
    expect(final.validated_by).not.toBeNull();
  });

  it("refuses every other transition with 409 listing the allowed ones", async () => {
    const { budget, a } = await budgetWithItems();
    const cert = await createCert(budget.id, a.id);
    const refusals: [string, string[], string[]][] = [
      ["borrador", ["borrador", "validada", "rechazada"], ["emitida"]],
      ["emitida", ["emitida", "borrador"], ["validada", "rechazada"]],
      ["rechazada", ["rechazada", "emitida", "validada"], ["borrador"]],
    ];
    const path = { borrador: [], emitida: ["emitida"], rechazada: ["rechazada"] } as Record<string, string[]>;
    for (const [from, targets, allowed] of refusals) {
      for (const step of path[from]) expect((await setEstado(cert.id, step)).statusCode).toBe(200);
      for (const to of targets) {
        const res = await setEstado(cert.id, to);
        expect(res.statusCode, `${from} -> ${to}`).toBe(409);
        expect(res.json().allowed, `${from} -> ${to}`).toEqual(allowed);
      }
    }
    expect((await setEstado(cert.id, "banana")).statusCode).toBe(400);
  });

  it("needs certifications:validar to validate or reject (403), not to issue", async () => {
    const { budget, a } = await budgetWithItems();
    const cert = await createCert(budget.id, a.id);
    const editor = await t.userWith(["certifications:leer", "certifications:editar"]);
    expect((await setEstado(cert.id, "emitida", editor.token)).statusCode).toBe(200);
    expect((await setEstado(cert.id, "validada", editor.token)).statusCode).toBe(403);
    expect((await setEstado(cert.id, "rechazada", editor.token)).statusCode).toBe(403);
    const validator = await t.userWith(["certifications:editar", "certifications:validar"]);
    expect((await setEstado(cert.id, "validada", validator.token)).statusCode).toBe(200);
  });

  it("refuses to validate N before N-1 is validated", async () => {
    const { budget, a } = await budgetWithItems();
    const first = await createCert(budget.id, a.id, "1");
    const second = await createCert(budget.id, a.id, "2");
    await setEstado(second.id, "emitida");
    const early = await setEstado(second.id, "validada");
    expect(early.statusCode).toBe(409);
    expect(early.json().blocking_number).toBe(1);
    await setEstado(first.id, "emitida");
    expect((await setEstado(first.id, "validada")).statusCode).toBe(200);
    expect((await setEstado(second.id, "validada")).statusCode).toBe(200);
  });

  it("keeps a validated certification immutable", async () => {
    const { budget, a } = await budgetWithItems();
    const cert = await validated(budget.id, a.id);
    const update = {
      period_start: "2025-01-01",
      period_end: "2025-01-31",
      lines: body(budget.id, a.id).lines,
    };
    expect((await call("PUT", `/certifications/${cert.id}`, update)).statusCode).toBe(409);
    expect((await call("DELETE", `/certifications/${cert.id}`)).statusCode).toBe(409);
    for (const estado of ["borrador", "emitida", "rechazada", "validada"]) {
      expect((await setEstado(cert.id, estado)).statusCode, estado).toBe(409);
    }
  });
});

describe("a finalized budget", () => {
  it("refuses every certification write with 409 but still serves reads", async () => {
    const { budget, a } = await budgetWithItems();
    const done = await validated(budget.id, a.id);
    const draft = await createCert(budget.id, a.id, "2");
    await setBudgetEstado(t.db, budget.id, "finalizado");
    const update = {
      period_start: "2025-01-01",
      period_end: "2025-01-31",
      lines: body(budget.id, a.id).lines,
    };
    const writes = [
      await call("POST", "/certifications", body(budget.id, a.id)),
      await call("PUT", `/certifications/${draft.id}`, update),
      await call("DELETE", `/certifications/${draft.id}`),
      await setEstado(draft.id, "emitida"),
    ];
    for (const res of writes) expect(res.statusCode, res.body).toBe(409);
    expect((await call("GET", `/certifications/${done.id}`)).statusCode).toBe(200);
    expect((await call("GET", `/certifications/${done.id}/pdf`)).statusCode).toBe(200);
  });
});

describe("listing", () => {
  it("filters by budget and estado and pages", async () => {
    const { budget, a } = await budgetWithItems();
    await validated(budget.id, a.id);
    await createCert(budget.id, a.id);
    await createCert(budget.id, a.id);
    const borradores = await call("GET", `/certifications?budget_id=${budget.id}&estado=borrador`);
    expect(borradores.json().total).toBe(2);
    const page = await call("GET", `/certifications?budget_id=${budget.id}&limit=1&offset=1`);
    expect(page.json()).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(page.json().data[0].number).toBe(2);
    expect((await call("GET", "/certifications?estado=nope")).statusCode).toBe(400);
  });
});
