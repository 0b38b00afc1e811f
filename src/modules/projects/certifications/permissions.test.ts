import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const ACTIONS = ["leer", "crear", "editar", "eliminar", "validar"];
const ID = "0190f5a0-0000-7000-8000-000000000000";
const certBody = {
  budget_id: ID,
  period_start: "2025-01-01",
  period_end: "2025-01-31",
  lines: [{ budget_item_id: ID, quantity_to_origin: "1" }],
};

/** Every certification route and the action it needs. */
const ROUTES: [string, "GET" | "POST" | "PUT" | "DELETE", string, object?][] = [
  ["leer", "GET", "/api/v1/certifications"],
  ["leer", "GET", `/api/v1/certifications/${ID}`],
  ["leer", "GET", `/api/v1/certifications/${ID}/pdf`],
  ["crear", "POST", "/api/v1/certifications", certBody],
  ["editar", "PUT", `/api/v1/certifications/${ID}`, certBody],
  ["editar", "PUT", `/api/v1/certifications/${ID}/estado`, { estado: "emitida" }],
  ["eliminar", "DELETE", `/api/v1/certifications/${ID}`],
];

describe("certification permissions", () => {
  it("answers 403 on each route to a user holding every certifications permission but the one it needs", async () => {
    for (const action of ["leer", "crear", "editar", "eliminar"]) {
      const user = await t.userWith(ACTIONS.filter((a) => a !== action).map((a) => `certifications:${a}`));
      for (const [needed, method, url, payload] of ROUTES.filter(([a]) => a === action)) {
        const res = await t.as(user.token, { method, url, payload });
        expect(res.statusCode, `${method} ${url} without ${needed}`).toBe(403);
        expect(res.json().detail).toContain(`certifications:${needed}`);
      }
    }
  });

  it("answers 401 without a token", async () => {
    for (const [, method, url, payload] of ROUTES) {
      expect((await t.app.inject({ method, url, payload })).statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it("lists every route in the OpenAPI document", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" })).json();
    for (const path of [
      "/certifications",
      "/certifications/{id}",
      "/certifications/{id}/estado",
      "/certifications/{id}/pdf",
    ]) {
      expect(doc.paths[`/api/v1${path}`], path).toBeDefined();
    }
  });
});
