import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers/app.js";
import { inTransaction } from "../../platform/db/sql.js";
import { createCompany } from "../accounting/test-support.js";
import { assertPeriodOpen } from "./lock.js";
import { insertReturn, updateReturn } from "./returns/repository.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const firstQuarter = {
  model: "303",
  year: 2026,
  period: "1T",
  dateFrom: "2026-01-01",
  dateTo: "2026-03-31",
  boxes: {},
  computedAt: new Date(),
} as const;
const LOCKED = /inside VAT period 1T 2026/;

describe("the period lock remembered in a transaction (ADR 047)", () => {
  it("sees the 303s the transaction confirms, reopens or corrects, and only in their period", async () => {
    const companyId = await createCompany(t);
    await inTransaction(t.db, async (tx) => {
      await assertPeriodOpen(tx, companyId, "2026-02-10");
      const q1 = await insertReturn(tx, { ...firstQuarter, companyId, estado: "confirmada" });
      await expect(assertPeriodOpen(tx, companyId, "2026-02-10")).rejects.toThrow(LOCKED);
      await assertPeriodOpen(tx, companyId, "2026-04-01");
      await updateReturn(tx, q1.id, { estado: "borrador" });
      await assertPeriodOpen(tx, companyId, "2026-02-10");
      await updateReturn(tx, q1.id, { estado: "presentada" });
      await expect(assertPeriodOpen(tx, companyId, "2026-03-31")).rejects.toThrow(LOCKED);
      // A correcting return still in draft, the period's latest, opens it again until it is confirmed.
      const correcting = await insertReturn(tx, {
        ...firstQuarter,
        companyId,
        declarationKind: "complementaria",
        previousReturnId: q1.id,
        createdAt: new Date(Date.now() + 60_000),
      });
      await assertPeriodOpen(tx, companyId, "2026-03-31");
      await updateReturn(tx, correcting.id, { estado: "confirmada" });
      await expect(assertPeriodOpen(tx, companyId, "2026-01-01")).rejects.toThrow(LOCKED);
    });
  });
});
