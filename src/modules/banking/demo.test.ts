import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers/app.js";
import { serviceCtx } from "../accounting/test-support.js";
import { line } from "../documents/test-support.js";
import { issuedSalesInvoice } from "../treasury/test-support.js";
import { loadBankingDemo } from "./index.js";
import { bankingFixture, listMovements } from "./test-support.js";

let t: TestApp;
let fx: Awaited<ReturnType<typeof bankingFixture>>;
beforeAll(async () => {
  t = await createTestApp();
  fx = await bankingFixture(t);
  for (let i = 1; i <= 10; i++)
    await issuedSalesInvoice(t, fx.companyId, fx.customer.id, [line("1", `${100 + i * 10}`)], "2026-01-15");
});
afterAll(async () => {
  await t?.close();
});

describe("banking demo", () => {
  it("imports a statement generated from the receipts and auto-matches it, once", async () => {
    const ctx = serviceCtx(t.ctx);
    const result = await loadBankingDemo(ctx, fx.companyId);
    // 10 receipts: one left unpaid, 9 transfers (one by amount only), 2 transfer fees, monthly fees.
    expect(result.created).toBe(true);
    expect(result.reconciled).toBe(8);
    expect(result.suggested).toBe(1);
    const { data } = await listMovements(t, `&company_id=${fx.companyId}`);
    expect(data.length).toBe(result.movements);
    expect(data.filter((m) => m.status === "conciliado")).toHaveLength(8);
    const fees = data.filter((m) => m.amount.startsWith("-"));
    expect(fees.map((m) => m.amount)).toEqual(expect.arrayContaining(["-2.50", "-15.00"]));
    const byAmount = data.find((m) => m.status === "sugerido")!;
    expect(byAmount.concepts).toEqual(["TRANSFERENCIA RECIBIDA"]);
    expect(byAmount.suggestions[0]!.reasons.map((r) => r.code)).toEqual(["amount_exact", "due_date"]);

    expect(await loadBankingDemo(ctx, fx.companyId)).toMatchObject({ created: false });
    expect((await listMovements(t, `&company_id=${fx.companyId}`)).total).toBe(data.length);
  });
});
