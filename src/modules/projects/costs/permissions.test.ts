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
const entryBody = { budget_id: ID, date: "2025-01-01", category: "other", net_amount: "1" };
const multipart = {
  payload: `--b\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\na;b\r\n--b--\r\n`,
  headers: { "content-type": "multipart/form-data; boundary=b" },
};

/** Every accounting route and the action it needs. */
const ROUTES: [string, "GET" | "POST" | "PUT" | "DELETE", string, object?][] = [
  ["leer", "GET", "/api/v1/accounting"],
  ["leer", "GET", `/api/v1/accounting/summary?budget_id=${ID}`],
  ["leer", "GET", `/api/v1/accounting/${ID}`],
  ["leer", "GET", `/api/v1/accounting/${ID}/attachments`],
  ["leer", "GET", `/api/v1/accounting/${ID}/attachments/${ID}`],
  ["crear", "POST", "/api/v1/accounting", { payload: entryBody }],
  ["crear", "POST", `/api/v1/accounting/${ID}/attachments`, multipart],
  ["editar", "PUT", `/api/v1/accounting/${ID}`, { payload: { concept: "x" } }],
  ["eliminar", "DELETE", `/api/v1/accounting/${ID}`],
  ["eliminar", "DELETE", `/api/v1/accounting/${ID}/attachments/${ID}`],
];

describe("accounting permissions", () => {
  it("answers 403 on each route to a user holding every accounting permission but the one it needs", async () => {
    for (const action of ["leer", "crear", "editar", "eliminar"]) {
      const user = await t.userWith(ACTIONS.filter((a) => a !== action).map((a) => `accounting:${a}`));
      for (const [needed, method, url, extra] of ROUTES.filter(([a]) => a === action)) {
        const res = await t.as(user.token, { method, url, ...extra });
        expect(res.statusCode, `${method} ${url} without ${needed}`).toBe(403);
        expect(res.json().detail).toContain(`accounting:${needed}`);
      }
    }
  });

  it("answers 401 without a token", async () => {
    for (const [, method, url, extra] of ROUTES) {
      expect((await t.app.inject({ method, url, ...extra })).statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it("lists every route in the OpenAPI document", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" })).json();
    const paths = ["/accounting", "/accounting/summary", "/accounting/{id}", "/accounting/{id}/attachments"];
    for (const path of [...paths, "/accounting/{id}/attachments/{attachment_id}"]) {
      expect(doc.paths[`/api/v1${path}`], path).toBeDefined();
    }
    expect(JSON.stringify(doc.paths["/api/v1/accounting/summary"])).toContain("deviation_pct");
  });
});
