import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp, type TestUser } from "../../../../test/helpers/app.js";
import { expectProblem } from "../../../../test/helpers/problem.js";
import { idOfCode, uniqueCif } from "../config-test-support.js";
import { instalments } from "../due-dates.js";

let t: TestApp;
let companyA: string;
let companyB: string;
let editorA: TestUser;
let clerkA: TestUser;

const post = (payload: Record<string, unknown>, token = t.adminToken) =>
  t.as(token, { method: "POST", url: "/api/payment-terms", payload });
const put = (id: string, payload: Record<string, unknown>, token = t.adminToken) =>
  t.as(token, { method: "PUT", url: `/api/payment-terms/${id}`, payload });
const get = (url: string, token = t.adminToken) => t.as(token, { method: "GET", url });

let codeCounter = 0;
const term = (lines: unknown[]) => ({
  company_id: companyA,
  code: `T${++codeCounter}`,
  name: "Plazos",
  lines,
});

/** The one field a 400 names, and its message. */
function badField(res: Awaited<ReturnType<typeof post>>) {
  const errors = expectProblem(res, 400).errors ?? [];
  expect(errors).toHaveLength(1);
  return errors[0];
}

beforeAll(async () => {
  t = await createTestApp();
  companyA = await t.createCompany("Terms A", uniqueCif());
  companyB = await t.createCompany("Terms B", uniqueCif());
  editorA = await t.userWith(["companies:editar"], { companyId: companyA });
  clerkA = await t.userWith([], { companyId: companyA });
});
afterAll(async () => {
  await t?.close();
});

describe("/api/payment-terms", () => {
  it("lists the company's cash and 30-day terms", async () => {
    const res = await get(`/api/payment-terms?company_id=${companyA}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      total: 2,
      skip: 0,
      limit: 50,
      data: [
        {
          code: "CONTADO",
          name: "Contado",
          lines: [{ kind: "balance", value: null, days: 0, end_of_month: false }],
        },
        {
          code: "30D",
          name: "30 días",
          lines: [{ kind: "balance", value: null, days: 30, end_of_month: false }],
        },
      ],
    });
    expect((await get(`/api/payment-terms?company_id=${companyA}&search=contado`)).json().total).toBe(1);
  });

  it("creates a term whose lines due-dates.ts splits as stored", async () => {
    const created = await post({
      company_id: companyA,
      code: "30-60-90",
      name: "30, 60 y 90 días fin de mes",
      lines: [
        { kind: "percent", value: "33.3300", days: 30, end_of_month: true },
        { kind: "fixed", value: "100.00", days: 60 },
        { kind: "balance", days: 90, end_of_month: true },
      ],
    });
    expect(created.statusCode, created.body).toBe(201);
    const body = created.json();
    expect(body).toMatchObject({
      code: "30-60-90",
      lines: [
        { kind: "percent", value: "33.33", days: 30, end_of_month: true },
        { kind: "fixed", value: "100", days: 60, end_of_month: false },
        { kind: "balance", value: null, days: 90, end_of_month: true },
      ],
    });
    expect((await get(`/api/payment-terms/${body.id}`)).json()).toEqual(body);
    const lines = body.lines.map(
      (l: { kind: "percent"; value: string | null; days: number; end_of_month: boolean }) => ({
        kind: l.kind,
        value: l.value ?? undefined,
        days: l.days,
        endOfMonth: l.end_of_month,
      }),
    );
    expect(instalments("1000.00", "2026-01-15", lines)).toEqual([
      { dueDate: "2026-02-28", amount: "333.30" },
      { dueDate: "2026-03-16", amount: "100.00" },
      { dueDate: "2026-04-30", amount: "566.70" },
    ]);
    const allPercent = await post(
      term([
        { kind: "percent", value: "50", days: 0 },
        { kind: "percent", value: "50", days: 30 },
      ]),
    );
    expect(allPercent.statusCode, allPercent.body).toBe(201);
  });

  it("refuses an invalid term with a 400 naming lines.N.field", async () => {
    expect(
      badField(
        await post(
          term([
            { kind: "balance", days: 0 },
            { kind: "percent", value: "50", days: 30 },
          ]),
        ),
      ),
    ).toMatchObject({
      path: "lines.0.kind",
      message: "the balance line must be the last line",
    });
    expect(
      badField(
        await post(
          term([
            { kind: "percent", value: "60", days: 0 },
            { kind: "percent", value: "50", days: 30 },
          ]),
        ),
      ),
    ).toMatchObject({ path: "lines.1.value" });
    expect(
      badField(
        await post(
          term([
            { kind: "percent", value: "0", days: 0 },
            { kind: "balance", days: 30 },
          ]),
        ),
      ),
    ).toMatchObject({
      path: "lines.0.value",
    });
    expect(
      badField(
        await post(
          term([
            { kind: "percent", value: "40", days: 0 },
            { kind: "percent", value: "40", days: 30 },
          ]),
        ),
      ),
    ).toMatchObject({
      path: "lines.1.kind",
      message: expect.stringContaining("add up to 80 %"),
    });
    expect(badField(await post(term([{ kind: "fixed", value: "100", days: 0 }])))).toMatchObject({
      path: "lines.0.kind",
      message: expect.stringContaining("balance line"),
    });
    expect(
      badField(
        await post(
          term([
            { kind: "percent", days: 0 },
            { kind: "balance", days: 30 },
          ]),
        ),
      ),
    ).toMatchObject({
      path: "lines.0.value",
    });
    expect(badField(await post(term([{ kind: "balance", value: "10", days: 30 }])))).toMatchObject({
      path: "lines.0.value",
    });
    expect(
      badField(
        await post(
          term([
            { kind: "fixed", value: "10.125", days: 0 },
            { kind: "balance", days: 30 },
          ]),
        ),
      ),
    ).toMatchObject({
      path: "lines.0.value",
    });
    expect(
      badField(
        await post(
          term([
            { kind: "balance", days: 0 },
            { kind: "balance", days: 30 },
          ]),
        ),
      ),
    ).toMatchObject({
      path: "lines.0.kind",
    });
    // Shapes are the schema's: its paths start at the body.
    expect(badField(await post(term([{ kind: "balance", days: -1 }]))).path).toBe("body.lines.0.days");
    expect(badField(await post(term([{ kind: "later", days: 1 }]))).path).toBe("body.lines.0.kind");
    expect(badField(await post(term([{ kind: "percent", value: 50, days: 1 }]))).path).toBe(
      "body.lines.0.value",
    );
    expect(badField(await post(term([]))).path).toBe("body.lines");
  });

  it("keeps codes unique per company and updates lines, name and state", async () => {
    expectProblem(
      await post({
        company_id: companyA,
        code: "contado",
        name: "Otro",
        lines: [{ kind: "balance", days: 0 }],
      }),
      409,
    );
    expect(
      (
        await post({
          company_id: companyB,
          code: "X60",
          name: "60 días",
          lines: [{ kind: "balance", days: 60 }],
        })
      ).statusCode,
    ).toBe(201);
    const id = await idOfCode(t, "/api/payment-terms", companyA, "30D");
    const updated = await put(id, {
      name: "30 y 60 días",
      lines: [
        { kind: "percent", value: "50", days: 30 },
        { kind: "balance", days: 60 },
      ],
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({
      code: "30D",
      name: "30 y 60 días",
      lines: [
        { kind: "percent", value: "50" },
        { kind: "balance", value: null },
      ],
    });
    expect(
      badField(
        await put(id, {
          lines: [
            { kind: "balance", days: 0 },
            { kind: "balance", days: 1 },
          ],
        }),
      ).path,
    ).toBe("lines.0.kind");
    expectProblem(await put(id, { code: "CONTADO" }), 409);
    expect((await put(id, { is_active: false })).json().is_active).toBe(false);
    expect((await get(`/api/payment-terms?company_id=${companyA}&search=30D`)).json().total).toBe(0);
  });
});

describe("/api/payment-terms access", () => {
  it("lets any signed-in caller of the company read, and hides other companies' terms (404)", async () => {
    const list = await get("/api/payment-terms?limit=100", clerkA.token);
    expect(list.statusCode, list.body).toBe(200);
    expect(new Set(list.json().data.map((p: { company_id: string }) => p.company_id))).toEqual(
      new Set([companyA]),
    );
    expect((await get(`/api/payment-terms?company_id=${companyB}`, clerkA.token)).json().total).toBe(0);
    const termB = await idOfCode(t, "/api/payment-terms", companyB, "CONTADO");
    expectProblem(await get(`/api/payment-terms/${termB}`, clerkA.token), 404);
    expectProblem(await put(termB, { name: "Mine" }, editorA.token), 404);
  });

  it("needs companies:editar to write", async () => {
    const payload = { code: "P1", name: "P1", lines: [{ kind: "balance", days: 10 }] };
    expectProblem(await post(payload, clerkA.token), 403);
    const own = await idOfCode(t, "/api/payment-terms", companyA, "CONTADO");
    expectProblem(await put(own, { name: "No" }, clerkA.token), 403);
    const created = await post(payload, editorA.token);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().company_id).toBe(companyA);
  });
});
