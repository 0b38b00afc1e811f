import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp, type TestUser } from "../../../../test/helpers/app.js";
import { TEST_ADMIN } from "../../../../test/helpers/constants.js";
import { bringBudgetTo, createBudget } from "./test-support.js";
import { allowedBudgetTransitions } from "./transitions.js";

let t: TestApp;
let editor: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  editor = await t.userWith(["budgets:leer", "budgets:crear", "budgets:editar"]);
});
afterAll(async () => {
  await t?.close();
});

const STATES = ["borrador", "aprobado", "en_ejecucion", "finalizado", "cancelado"] as const;
const ALLOWED: Record<string, string[]> = {
  borrador: ["aprobado", "cancelado"],
  aprobado: ["en_ejecucion", "cancelado"],
  en_ejecucion: ["finalizado"],
  finalizado: [],
  cancelado: [],
};

const setEstado = (token: string, id: string, estado: string) =>
  t.as(token, { method: "PUT", url: `/api/v1/budgets/${id}/estado`, payload: { estado } });

describe("budget transitions", () => {
  it("declares the transition table of the issue", () => {
    for (const from of STATES)
      expect(allowedBudgetTransitions(from).sort()).toEqual([...ALLOWED[from]].sort());
  });

  for (const from of STATES) {
    for (const to of STATES) {
      const allowed = ALLOWED[from].includes(to);
      it(`${from} -> ${to} is ${allowed ? "allowed" : "refused with 409 listing the allowed states"}`, async () => {
        const b = await createBudget(t, t.adminToken);
        await bringBudgetTo(t, t.adminToken, b.id, from);
        const res = await setEstado(t.adminToken, b.id, to);
        if (allowed) {
          expect(res.statusCode).toBe(200);
          expect(res.json().estado).toBe(to);
        } else {
          expect(res.statusCode).toBe(409);
          expect(res.json()).toMatchObject({ status: 409, estado: from, allowed: ALLOWED[from] });
        }
      });
    }
  }

  it("needs budgets:validar to approve and to finalize (403), budgets:editar for the rest", async () => {
    const b = await createBudget(t, t.adminToken);
    const approve = await setEstado(editor.token, b.id, "aprobado");
    expect(approve.statusCode).toBe(403);
    expect(approve.json().detail).toContain("budgets:validar");
    await bringBudgetTo(t, t.adminToken, b.id, "aprobado");
    expect((await setEstado(editor.token, b.id, "en_ejecucion")).statusCode).toBe(200);
    expect((await setEstado(editor.token, b.id, "finalizado")).statusCode).toBe(403);
    const other = await createBudget(t, t.adminToken);
    expect((await setEstado(editor.token, other.id, "cancelado")).statusCode).toBe(200);
    const validator = await t.userWith(["budgets:validar"]);
    expect((await setEstado(validator.token, b.id, "finalizado")).statusCode).toBe(403);
  });

  it("refuses an unknown state with 400 and an unknown budget with 404", async () => {
    const b = await createBudget(t, t.adminToken);
    expect((await setEstado(t.adminToken, b.id, "cerrado")).statusCode).toBe(400);
    const unknown = await setEstado(t.adminToken, "0190a0b4-0000-7000-8000-000000000000", "aprobado");
    expect(unknown.statusCode).toBe(404);
  });
});

describe("GET /budgets/{id}/history", () => {
  it("lists every transition with who, when, from and to, oldest first", async () => {
    const b = await createBudget(t, t.adminToken);
    await bringBudgetTo(t, t.adminToken, b.id, "aprobado");
    expect((await setEstado(editor.token, b.id, "en_ejecucion")).statusCode).toBe(200);
    expect((await setEstado(editor.token, b.id, "borrador")).statusCode).toBe(409);
    const res = await t.as(t.adminToken, { method: "GET", url: `/api/v1/budgets/${b.id}/history` });
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page.total).toBe(2);
    expect(page.data).toMatchObject([
      { from_estado: "borrador", to_estado: "aprobado", user_email: TEST_ADMIN.email },
      { from_estado: "aprobado", to_estado: "en_ejecucion", user_id: editor.id, user_email: editor.email },
    ]);
    for (const entry of page.data) expect(Number.isNaN(Date.parse(entry.created_at))).toBe(false);
    expect(Date.parse(page.data[0].created_at)).toBeLessThanOrEqual(Date.parse(page.data[1].created_at));
  });

  it("records nothing for a refused transition and 404s for an unknown budget", async () => {
    const b = await createBudget(t, t.adminToken);
    expect((await setEstado(t.adminToken, b.id, "finalizado")).statusCode).toBe(409);
    expect((await setEstado(editor.token, b.id, "aprobado")).statusCode).toBe(403);
    const res = await t.as(t.adminToken, { method: "GET", url: `/api/v1/budgets/${b.id}/history` });
    expect(res.json()).toMatchObject({ data: [], total: 0 });
    const unknown = await t.as(t.adminToken, {
      method: "GET",
      url: "/api/v1/budgets/0190a0b4-0000-7000-8000-000000000000/history",
    });
    expect(unknown.statusCode).toBe(404);
  });
});
