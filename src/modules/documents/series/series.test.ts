import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp, type TestUser } from "../../../../test/helpers/app.js";
import { expectProblem } from "../../../../test/helpers/problem.js";
import { draftDocument, idOfCode, listAll, uniqueCif } from "../config-test-support.js";

let t: TestApp;
let companyA: string;
let companyB: string;
/** Restricted to company A, may edit it. */
let editorA: TestUser;
/** Restricted to company A, no permission at all. */
let clerkA: TestUser;

const post = (payload: Record<string, unknown>, token = t.adminToken) =>
  t.as(token, { method: "POST", url: "/api/series", payload });
const put = (id: string, payload: Record<string, unknown>, token = t.adminToken) =>
  t.as(token, { method: "PUT", url: `/api/series/${id}`, payload });
const get = (url: string, token = t.adminToken) => t.as(token, { method: "GET", url });

beforeAll(async () => {
  t = await createTestApp();
  companyA = await t.createCompany("Series A", uniqueCif());
  companyB = await t.createCompany("Series B", uniqueCif());
  editorA = await t.userWith(["companies:editar"], { companyId: companyA });
  clerkA = await t.userWith([], { companyId: companyA });
});
afterAll(async () => {
  await t?.close();
});

describe("/api/series", () => {
  it("lists a company's series in the /api envelope, filtered by kind and search", async () => {
    const res = await get(`/api/series?company_id=${companyA}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ total: 3, skip: 0, limit: 50 });
    expect(res.json().data.map((s: { code: string }) => s.code)).toEqual(["A", "R", "S"]);
    const rectifying = (await get(`/api/series?company_id=${companyA}&kind=rectifying`)).json();
    expect(rectifying.data).toMatchObject([{ code: "R", name: "Rectificativas", kind: "rectifying" }]);
    const searched = (await get(`/api/series?company_id=${companyA}&search=simplif`)).json();
    expect(searched.data.map((s: { code: string }) => s.code)).toEqual(["S"]);
    const page = (await get(`/api/series?company_id=${companyA}&skip=1&limit=1`)).json();
    expect(page).toMatchObject({ total: 3, skip: 1, limit: 1, data: [{ code: "R" }] });
    expectProblem(await get("/api/series?limit=10001"), 400);
    expectProblem(await get("/api/series?kind=other"), 400);
  });

  it("creates, reads, renames and deactivates a series; never deletes it", async () => {
    const created = await post({ company_id: companyA, code: "fv", name: "Facturas web", kind: "general" });
    expect(created.statusCode, created.body).toBe(201);
    const series = created.json();
    expect(series).toMatchObject({ company_id: companyA, code: "FV", name: "Facturas web", is_active: true });
    expect((await get(`/api/series/${series.id}`)).json()).toEqual(series);

    const renamed = await put(series.id, { name: "Tienda online", is_active: false });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ code: "FV", name: "Tienda online", is_active: false });
    const active = (await get(`/api/series?company_id=${companyA}`)).json();
    expect(active.data.map((s: { code: string }) => s.code)).not.toContain("FV");
    const all = await listAll<{ code: string }>(t, "/api/series", companyA);
    expect(all.map((s) => s.code)).toContain("FV");
    expect((await t.as(t.adminToken, { method: "DELETE", url: `/api/series/${series.id}` })).statusCode).toBe(
      404,
    );
  });

  it("refuses malformed codes and kinds with a 400 naming the field", async () => {
    for (const code of ["ABCDE", "A-1", "", "Ñ"]) {
      const problem = expectProblem(
        await post({ company_id: companyA, code, name: "X", kind: "general" }),
        400,
      );
      expect(problem.errors?.map((e) => e.path)).toContain("body.code");
    }
    const kind = expectProblem(
      await post({ company_id: companyA, code: "Z", name: "X", kind: "ticket" }),
      400,
    );
    expect(kind.errors?.map((e) => e.path)).toContain("body.kind");
    expectProblem(await put(await idOfCode(t, "/api/series", companyA, "A"), {}), 400);
  });

  it("keeps codes unique per company (409) but free across companies", async () => {
    expectProblem(await post({ company_id: companyA, code: "A", name: "Otra A", kind: "general" }), 409);
    const t1 = await post({ company_id: companyA, code: "T1", name: "T1", kind: "general" });
    expect(t1.statusCode).toBe(201);
    expect((await post({ company_id: companyB, code: "T1", name: "T1", kind: "general" })).statusCode).toBe(
      201,
    );
    expectProblem(await put(t1.json().id, { code: "R" }), 409);
  });

  it("changes code and kind while unused, and only name and is_active once a document uses it", async () => {
    const created = (
      await post({ company_id: companyA, code: "X1", name: "Serie X", kind: "general" })
    ).json();
    const recoded = await put(created.id, { code: "X2", kind: "simplified" });
    expect(recoded.statusCode, recoded.body).toBe(200);
    expect(recoded.json()).toMatchObject({ code: "X2", kind: "simplified" });

    await draftDocument(t, { companyId: companyA, seriesId: created.id });
    const code = expectProblem(await put(created.id, { code: "X3" }), 409);
    expect(code.detail).toMatch(/code cannot change/);
    const kind = expectProblem(await put(created.id, { kind: "general" }), 409);
    expect(kind.detail).toMatch(/kind cannot change/);
    // Sending the current values is not a change.
    const same = await put(created.id, { code: "X2", kind: "simplified", name: "Serie X usada" });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json()).toMatchObject({ code: "X2", name: "Serie X usada" });
    expect((await put(created.id, { is_active: false })).json().is_active).toBe(false);
  });
});

describe("/api/series access", () => {
  it("lets any signed-in caller of the company read, and hides other companies' series (404)", async () => {
    const list = await get("/api/series?limit=100", clerkA.token);
    expect(list.statusCode, list.body).toBe(200);
    expect(new Set(list.json().data.map((s: { company_id: string }) => s.company_id))).toEqual(
      new Set([companyA]),
    );
    const asked = await get(`/api/series?company_id=${companyB}`, clerkA.token);
    expect(asked.json()).toMatchObject({ total: 0, data: [] });

    const seriesB = await idOfCode(t, "/api/series", companyB, "A");
    expectProblem(await get(`/api/series/${seriesB}`, clerkA.token), 404);
    expectProblem(await put(seriesB, { name: "Hijacked" }, editorA.token), 404);
    expectProblem(
      await post({ company_id: companyB, code: "HB", name: "B", kind: "general" }, editorA.token),
      404,
    );
    const own = await get(`/api/series/${await idOfCode(t, "/api/series", companyA, "A")}`, clerkA.token);
    expect(own.statusCode).toBe(200);
  });

  it("needs companies:editar to write (403), and a restricted editor writes its own company", async () => {
    const seriesA = await idOfCode(t, "/api/series", companyA, "S");
    expectProblem(await post({ code: "NP", name: "No", kind: "general" }, clerkA.token), 403);
    expectProblem(await put(seriesA, { name: "No" }, clerkA.token), 403);
    const created = await post({ code: "ED", name: "Editor", kind: "general" }, editorA.token);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().company_id).toBe(companyA);
    expect((await put(seriesA, { name: "Tickets" }, editorA.token)).statusCode).toBe(200);
  });

  it("accepts API tokens with the api_access rule, restricted to their company", async () => {
    const res = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/api-tokens",
      payload: { name: "series reader", scopes: ["api_access"], company_id: companyB },
    });
    expect(res.statusCode, res.body).toBe(201);
    const token = res.json().token as string;
    const list = await get("/api/series?limit=100", token);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.map((s: { company_id: string }) => s.company_id)).toEqual(
      expect.arrayContaining([companyB]),
    );
    expect(list.json().data.every((s: { company_id: string }) => s.company_id === companyB)).toBe(true);
    expectProblem(await get(`/api/series/${await idOfCode(t, "/api/series", companyA, "A")}`, token), 404);
  });
});
