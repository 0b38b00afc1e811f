import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers/app.js";
import { expectProblem } from "../../../test/helpers/problem.js";
import type { AuthedCtx } from "../../platform/http/context.js";
import { AppError } from "../../platform/http/errors.js";
import { createContact, updateContact } from "./service.js";

let t: TestApp;
let companyId: string;

const post = (payload: Record<string, unknown>) =>
  t.as(t.adminToken, { method: "POST", url: "/api/clients", payload: { company_id: companyId, ...payload } });
const put = (id: string, payload: Record<string, unknown>) =>
  t.as(t.adminToken, { method: "PUT", url: `/api/clients/${id}`, payload });

beforeAll(async () => {
  t = await createTestApp();
  companyId = await t.createCompany("Regimes", "B12345674");
});
afterAll(async () => {
  await t?.close();
});

describe("contacts: tax regime and payment days", () => {
  it("default to the general regime and no payment days", async () => {
    const res = await post({ contact_type: "customer", name: "General" });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ tax_regime: "general", payment_days: [] });
  });

  it("are stored, read back and updated; payment days ascending", async () => {
    const res = await post({
      contact_type: "customer",
      name: "Ferretería Pérez",
      tax_regime: "recargo_equivalencia",
      payment_days: [20, 5],
    });
    expect(res.statusCode, res.body).toBe(201);
    const contact = res.json();
    expect(contact).toMatchObject({ tax_regime: "recargo_equivalencia", payment_days: [5, 20] });
    expect((await t.as(t.adminToken, { method: "GET", url: `/api/clients/${contact.id}` })).json()).toEqual(
      contact,
    );
    const listed = await t.as(t.adminToken, { method: "GET", url: `/api/clients?search=ferreter` });
    expect(listed.json().data).toMatchObject([{ tax_regime: "recargo_equivalencia", payment_days: [5, 20] }]);

    const updated = await put(contact.id, { tax_regime: "intracomunitario", payment_days: [31, 1, 15] });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ tax_regime: "intracomunitario", payment_days: [1, 15, 31] });
    const untouched = await put(contact.id, { name: "Ferretería Pérez e Hijos" });
    expect(untouched.json()).toMatchObject({ tax_regime: "intracomunitario", payment_days: [1, 15, 31] });
    const cleared = await put(contact.id, { payment_days: [] });
    expect(cleared.json().payment_days).toEqual([]);
  });

  it("refuses an unknown regime and bad payment days with a 400 naming the field", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ tax_regime: "simplificado" }, "body.tax_regime"],
      [{ payment_days: [0] }, "body.payment_days.0"],
      [{ payment_days: [5, 32] }, "body.payment_days.1"],
      [{ payment_days: [5.5] }, "body.payment_days.0"],
      [{ payment_days: [5, 10, 15, 20] }, "body.payment_days"],
      [{ payment_days: [10, 10] }, "body.payment_days"],
      [{ payment_days: "5" }, "body.payment_days"],
    ];
    for (const [extra, path] of cases) {
      const problem = expectProblem(await post({ contact_type: "supplier", name: "Bad", ...extra }), 400);
      expect(
        problem.errors?.map((e) => e.path),
        JSON.stringify(extra),
      ).toEqual([path]);
    }
    const existing = (await post({ contact_type: "supplier", name: "Valid" })).json();
    expectProblem(await put(existing.id, { payment_days: [1, 1] }), 400);
    expectProblem(await put(existing.id, { tax_regime: "" }), 400);
  });

  it("are validated by the service itself for callers other than HTTP", async () => {
    const ctx: AuthedCtx = {
      ...t.ctx,
      actor: {
        kind: "user",
        userId: "01900000-0000-7000-8000-0000000000c1",
        email: "svc@example.com",
        fullName: "Service",
        permissions: new Set(),
        roles: [],
        companyId: null,
      },
    };
    const rejected = await createContact(ctx, {
      companyId,
      contactType: "customer",
      name: "Service",
      paymentDays: [3, 3, 40, 1],
    }).catch((e: unknown) => e);
    expect(rejected).toBeInstanceOf(AppError);
    expect((rejected as AppError).options.errors?.map((e) => e.path)).toEqual([
      "payment_days.1",
      "payment_days.2",
      "payment_days",
    ]);
    const ok = await createContact(ctx, {
      companyId,
      contactType: "customer",
      name: "Svc",
      paymentDays: [25, 10],
    });
    expect(ok.paymentDays).toEqual([10, 25]);
    expect((await updateContact(ctx, ok.id, { taxRegime: "exportacion" })).taxRegime).toBe("exportacion");
  });
});
