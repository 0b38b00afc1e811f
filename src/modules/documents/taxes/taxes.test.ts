import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp, type TestUser } from "../../../../test/helpers/app.js";
import { expectProblem } from "../../../../test/helpers/problem.js";
import { draftDocument, idOfCode, uniqueCif } from "../config-test-support.js";
import { DEFAULT_TAX_CODES } from "../defaults.js";

let t: TestApp;
let companyA: string;
let companyB: string;
let editorA: TestUser;
let clerkA: TestUser;

const post = (payload: Record<string, unknown>, token = t.adminToken) =>
  t.as(token, { method: "POST", url: "/api/taxes", payload });
const put = (id: string, payload: Record<string, unknown>, token = t.adminToken) =>
  t.as(token, { method: "PUT", url: `/api/taxes/${id}`, payload });
const get = (url: string, token = t.adminToken) => t.as(token, { method: "GET", url });

/** The paths a 400 names. */
async function badPaths(res: Awaited<ReturnType<typeof post>>) {
  return (expectProblem(res, 400).errors ?? []).map((e) => e.path);
}

beforeAll(async () => {
  t = await createTestApp();
  companyA = await t.createCompany("Taxes A", uniqueCif());
  companyB = await t.createCompany("Taxes B", uniqueCif());
  editorA = await t.userWith(["companies:editar"], { companyId: companyA });
  clerkA = await t.userWith([], { companyId: companyA });
});
afterAll(async () => {
  await t?.close();
});

describe("/api/taxes", () => {
  it("lists VAT and IRPF codes apart, and searches code and name", async () => {
    const vat = (await get(`/api/taxes?company_id=${companyA}&kind=vat&limit=100`)).json();
    const irpf = (await get(`/api/taxes?company_id=${companyA}&kind=irpf&limit=100`)).json();
    expect(vat.total).toBe(DEFAULT_TAX_CODES.filter((c) => c.kind === "vat").length);
    expect(irpf.data.map((c: { code: string }) => c.code)).toEqual([
      "IRPF1",
      "IRPF2",
      "IRPF7",
      "IRPF15",
      "IRPF19",
      "IRPF21",
      "IRPF19A",
      "IRPF15T",
    ]);
    const found = (await get(`/api/taxes?company_id=${companyA}&search=arrendamientos`)).json();
    expect(found.data).toMatchObject([
      { code: "IRPF19A", rate: "19.00", irpf_kind: "rent", operation: null },
    ]);
    const iva21 = (await get(`/api/taxes?company_id=${companyA}&search=IVA21`)).json().data;
    expect(iva21.map((c: { code: string }) => c.code)).toEqual(["IVA21", "IVA21BI"]);
    expect(iva21[0]).toMatchObject({ rate: "21.00", re_rate: "5.20", operation: "domestic" });
  });

  it("creates a code with decimal-string rates, shown with 2 decimals", async () => {
    const created = await post({
      company_id: companyA,
      code: "iva5",
      name: "IVA 5 % (transitorio)",
      kind: "vat",
      rate: "5",
      re_rate: "0.62",
      operation: "domestic",
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      code: "IVA5",
      rate: "5.00",
      re_rate: "0.62",
      operation: "domestic",
      exemption_reason: null,
      irpf_kind: null,
      capital_goods: false,
      is_active: true,
    });
    expect((await get(`/api/taxes/${created.json().id}`)).json()).toEqual(created.json());
    const irpf = await post({
      company_id: companyA,
      code: "IRPF35",
      name: "Consejeros",
      kind: "irpf",
      rate: "35",
      irpf_kind: "work",
    });
    expect(irpf.statusCode, irpf.body).toBe(201);
    expect(irpf.json()).toMatchObject({ kind: "irpf", re_rate: "0.00", irpf_kind: "work", operation: null });
  });

  it("refuses incoherent combinations with a 400 naming the field", async () => {
    const base = { company_id: companyA, code: "BAD", name: "Bad" };
    expect(await badPaths(await post({ ...base, kind: "vat", rate: "21" }))).toEqual(["operation"]);
    expect(
      await badPaths(
        await post({ ...base, kind: "vat", rate: "21", operation: "domestic", irpf_kind: "rent" }),
      ),
    ).toEqual(["irpf_kind"]);
    expect(await badPaths(await post({ ...base, kind: "irpf", rate: "15" }))).toEqual(["irpf_kind"]);
    expect(
      await badPaths(
        await post({ ...base, kind: "irpf", rate: "15", irpf_kind: "activities", operation: "domestic" }),
      ),
    ).toEqual(["operation"]);
    expect(
      await badPaths(
        await post({ ...base, kind: "irpf", rate: "15", irpf_kind: "activities", re_rate: "1.4" }),
      ),
    ).toEqual(["re_rate"]);
    expect(
      await badPaths(
        await post({ ...base, kind: "irpf", rate: "15", irpf_kind: "activities", capital_goods: true }),
      ),
    ).toEqual(["capital_goods"]);
    expect(
      await badPaths(
        await post({ ...base, kind: "vat", rate: "21", operation: "domestic", exemption_reason: "E1" }),
      ),
    ).toEqual(["exemption_reason"]);
    expect(await badPaths(await post({ ...base, kind: "vat", rate: "0", operation: "exempt" }))).toEqual([
      "exemption_reason",
    ]);
    expect(
      await badPaths(
        await post({ ...base, kind: "vat", rate: "21", operation: "export", exemption_reason: "E2" }),
      ),
    ).toEqual(["rate"]);
    expect(
      await badPaths(
        await post({ ...base, kind: "vat", rate: "0", re_rate: "5.2", operation: "not_subject" }),
      ),
    ).toEqual(["re_rate"]);
    expect(await badPaths(await post({ ...base, kind: "vat", rate: "101", operation: "domestic" }))).toEqual([
      "body.rate",
    ]);
    expect(await badPaths(await post({ ...base, kind: "vat", rate: 21, operation: "domestic" }))).toEqual([
      "body.rate",
    ]);
    expect(await badPaths(await post({ ...base, kind: "vat", rate: "-1", operation: "domestic" }))).toContain(
      "body.rate",
    );
    expect(await badPaths(await post({ ...base, kind: "vat", rate: "21", operation: "barter" }))).toEqual([
      "body.operation",
    ]);
    expect(
      await badPaths(await post({ ...base, code: "A B", kind: "vat", rate: "21", operation: "domestic" })),
    ).toEqual(["body.code"]);
  });

  it("keeps codes unique per company", async () => {
    const dup = {
      company_id: companyA,
      code: "IVA21",
      name: "Otro",
      kind: "vat",
      rate: "21",
      operation: "domestic",
    };
    expectProblem(await post(dup), 409);
    expect((await post({ ...dup, code: "IVA21X" })).statusCode).toBe(201);
    expectProblem(await put(await idOfCode(t, "/api/taxes", companyA, "IVA21X"), { code: "iva10" }), 409);
  });

  it("validates an update against the code's resulting combination", async () => {
    const created = (
      await post({
        company_id: companyA,
        code: "CHG",
        name: "Cambia",
        kind: "vat",
        rate: "10",
        operation: "domestic",
      })
    ).json();
    expect(await badPaths(await put(created.id, { kind: "irpf" }))).toEqual(["irpf_kind", "operation"]);
    const toIrpf = await put(created.id, {
      kind: "irpf",
      operation: null,
      irpf_kind: "activities",
      rate: "7",
    });
    expect(toIrpf.statusCode, toIrpf.body).toBe(200);
    expect(toIrpf.json()).toMatchObject({
      kind: "irpf",
      operation: null,
      irpf_kind: "activities",
      rate: "7.00",
    });
    const exempt = await put(created.id, {
      kind: "vat",
      irpf_kind: null,
      operation: "exempt",
      exemption_reason: "E6",
      rate: "0",
    });
    expect(exempt.statusCode, exempt.body).toBe(200);
    expect(await badPaths(await put(created.id, { operation: "domestic" }))).toEqual(["exemption_reason"]);
  });

  it("freezes rates, kind and operation once a document line uses the code; name and is_active still change", async () => {
    const series = await idOfCode(t, "/api/series", companyA, "A");
    const iva10 = await idOfCode(t, "/api/taxes", companyA, "IVA10");
    const irpf15 = await idOfCode(t, "/api/taxes", companyA, "IRPF15");
    await draftDocument(t, { companyId: companyA, seriesId: series, taxCodeId: iva10, irpfCodeId: irpf15 });

    const rate = expectProblem(await put(iva10, { rate: "12" }), 409);
    expect(rate.detail).toMatch(/IVA10 .*rate cannot change/);
    expect(expectProblem(await put(iva10, { re_rate: "1.75" }), 409).detail).toMatch(/re_rate/);
    expect(expectProblem(await put(iva10, { operation: "import" }), 409).detail).toMatch(/operation/);
    expect(expectProblem(await put(iva10, { code: "IVA10B" }), 409).detail).toMatch(/code/);
    expect(expectProblem(await put(irpf15, { rate: "19" }), 409).detail).toMatch(/IRPF15/);
    expect(
      expectProblem(await put(irpf15, { kind: "vat", operation: "domestic", irpf_kind: null }), 409).detail,
    ).toMatch(/kind/);

    // "10" and "10.00" are the same rate: not a change.
    const renamed = await put(iva10, { name: "IVA reducido 10 %", rate: "10.00", is_active: false });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ name: "IVA reducido 10 %", rate: "10.00", is_active: false });
    // The same code of another company is not in use.
    const iva10B = await idOfCode(t, "/api/taxes", companyB, "IVA10");
    expect((await put(iva10B, { rate: "12" })).json().rate).toBe("12.00");
  });
});

describe("/api/taxes access", () => {
  it("lets any signed-in caller of the company read, and hides other companies' codes (404)", async () => {
    const list = await get("/api/taxes?limit=1000", clerkA.token);
    expect(list.statusCode, list.body).toBe(200);
    expect(new Set(list.json().data.map((c: { company_id: string }) => c.company_id))).toEqual(
      new Set([companyA]),
    );
    expect((await get(`/api/taxes?company_id=${companyB}`, clerkA.token)).json().total).toBe(0);
    const ivaB = await idOfCode(t, "/api/taxes", companyB, "IVA21");
    expectProblem(await get(`/api/taxes/${ivaB}`, clerkA.token), 404);
    expectProblem(await put(ivaB, { name: "Mine" }, editorA.token), 404);
    expectProblem(
      await post(
        { company_id: companyB, code: "X", name: "X", kind: "vat", rate: "21", operation: "domestic" },
        editorA.token,
      ),
      404,
    );
  });

  it("needs companies:editar to write", async () => {
    const payload = { code: "NOPE", name: "No", kind: "vat", rate: "21", operation: "domestic" };
    expectProblem(await post(payload, clerkA.token), 403);
    expectProblem(
      await put(await idOfCode(t, "/api/taxes", companyA, "IVA4"), { name: "No" }, clerkA.token),
      403,
    );
    const created = await post(payload, editorA.token);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().company_id).toBe(companyA);
  });
});
