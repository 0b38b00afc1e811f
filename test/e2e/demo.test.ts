import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadDemo } from "../../src/cli/demo.js";
import { queryOne } from "../../src/platform/db/sql.js";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { TEST_ADMIN } from "../helpers/constants.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const count = async (table: string) =>
  Number((await queryOne<{ n: string }>(t.db, sql.raw(`select count(*) as n from ${table}`)))?.n);

describe("npm run cli -- demo", () => {
  it("loads the project and enterprise demos once, with balanced books and a live summary", async () => {
    const first = await loadDemo(t.db, TEST_ADMIN.email);
    expect(first.budget.created).toBe(true);
    expect(first.company.created).toBe(true);
    expect(first.entriesCreated).toBe(500);

    const second = await loadDemo(t.db, TEST_ADMIN.email);
    expect(second.budget.created).toBe(false);
    expect(second.company.created).toBe(false);
    expect(second.entriesCreated).toBe(0);

    expect(await count("budgets")).toBe(1);
    expect(await count("companies")).toBe(1);
    expect(await count("contacts")).toBe(50);
    expect(await count("products")).toBe(100);
    expect(await count("entries")).toBe(500);
    const books = await queryOne<{ debit: string; credit: string }>(
      t.db,
      sql`select sum(debit)::text as debit, sum(credit)::text as credit from entry_lines`,
    );
    expect(books?.debit).toBe(books?.credit);

    const budget = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/v1/budgets/${first.budget.budgetId}`,
    });
    expect(budget.statusCode).toBe(200);
    const summary = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/v1/accounting/summary?budget_id=${first.budget.budgetId}`,
    });
    expect(summary.statusCode).toBe(200);
    expect(summary.json().totals.budgeted).toBe(budget.json().pem);
  }, 240_000);
});
