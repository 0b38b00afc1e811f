import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { inTransaction } from "../../../platform/db/sql.js";
import { uuidv7 } from "../../../platform/ids.js";
import { ensureContactSubaccounts, type LedgerContact, listSubaccounts } from "../index.js";
import { createCompany, createFiscalYear, serviceCtx } from "../test-support.js";

let t: TestApp;
let companyId: string;

beforeAll(async () => {
  t = await createTestApp();
  companyId = await createCompany(t);
  const closed = await createFiscalYear(t, companyId, "2025");
  await t.as(t.adminToken, {
    method: "PUT",
    url: `/api/accounting/fiscal-years/${closed.id}/estado`,
    payload: { estado: "cerrado" },
  });
  await createFiscalYear(t, companyId, "2026");
});
afterAll(async () => {
  await t?.close();
});

const contact = (
  contactType: LedgerContact["contactType"],
  name: string,
  company = companyId,
): LedgerContact => ({
  id: uuidv7(),
  companyId: company,
  contactType,
  name,
});

async function subaccountsOf(contactId: string, fiscalYearCode = "2026", company = companyId) {
  const { rows } = await listSubaccounts(serviceCtx(t.ctx), {
    companyId: company,
    fiscalYearCode,
    contactId,
    offset: 0,
    limit: 100,
  });
  return rows.map((r) => r.code);
}

describe("ensureContactSubaccounts", () => {
  it("numbers customers under 430 and suppliers under 400 in the open years, and is idempotent", async () => {
    const ctx = serviceCtx(t.ctx);
    const first = contact("customer", "Primer cliente SL");
    const second = contact("customer", "Segundo cliente SL");
    const supplier = contact("supplier", "Proveedor SA");
    await ensureContactSubaccounts(ctx, first);
    await ensureContactSubaccounts(ctx, second);
    await ensureContactSubaccounts(ctx, supplier);
    expect(await subaccountsOf(first.id)).toEqual(["4300000001"]);
    expect(await subaccountsOf(second.id)).toEqual(["4300000002"]);
    expect(await subaccountsOf(supplier.id)).toEqual(["4000000001"]);
    expect(await subaccountsOf(first.id, "2025")).toEqual([]);

    await ensureContactSubaccounts(ctx, first);
    await ensureContactSubaccounts(ctx, { ...first, contactType: "both" });
    expect(await subaccountsOf(first.id)).toEqual(["4000000002", "4300000001"]);

    const { rows } = await listSubaccounts(ctx, { companyId, fiscalYearCode: "2026", offset: 0, limit: 100 });
    expect(rows.map((r) => r.code)).toEqual(["4000000001", "4000000002", "4300000001", "4300000002"]);
    expect(rows.find((r) => r.code === "4300000002")).toMatchObject({
      name: "Segundo cliente SL",
      contactId: second.id,
      accountCode: "4300",
    });
  });

  it("gives a contact of both types one subaccount of each", async () => {
    const both = contact("both", "Mixto SL");
    await ensureContactSubaccounts(serviceCtx(t.ctx), both);
    expect(await subaccountsOf(both.id)).toEqual(["4000000003", "4300000003"]);
  });

  it("follows the company's subaccount length", async () => {
    const short = await createCompany(t, { subaccountLength: 8 });
    await createFiscalYear(t, short, "2026");
    const customer = contact("customer", "Corto SL", short);
    await ensureContactSubaccounts(serviceCtx(t.ctx), customer);
    expect(await subaccountsOf(customer.id, "2026", short)).toEqual(["43000001"]);
  });

  it("takes part in the caller's transaction", async () => {
    const customer = contact("customer", "Rolled back SL");
    await expect(
      inTransaction(t.db, async (tx) => {
        await ensureContactSubaccounts(serviceCtx({ ...t.ctx, db: tx }), customer);
        throw new Error("the contact could not be saved");
      }),
    ).rejects.toThrow("the contact could not be saved");
    expect(await subaccountsOf(customer.id)).toEqual([]);
  });

  it("hands out distinct numbers to contacts created concurrently", async () => {
    const customers = Array.from({ length: 8 }, (_, i) => contact("customer", `Concurrente ${i}`));
    await Promise.all(customers.map((c) => ensureContactSubaccounts(serviceCtx(t.ctx), c)));
    const codes = (await Promise.all(customers.map((c) => subaccountsOf(c.id)))).flat().sort();
    expect(codes).toEqual(Array.from({ length: 8 }, (_, i) => `43000000${String(i + 4).padStart(2, "0")}`));
  });

  it("answers 404 for a company the caller may not see", async () => {
    const other = await createCompany(t);
    await expect(
      ensureContactSubaccounts(serviceCtx(t.ctx, companyId), contact("customer", "Ajeno SL", other)),
    ).rejects.toMatchObject({ status: 404 });
  });
});
