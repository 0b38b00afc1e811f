import { gt, sql } from "drizzle-orm";
import { integer, pgTable } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../test/helpers/db.js";
import { paginateBounded } from "./paginate.js";

const numbers = pgTable("paginate_numbers", { n: integer("n").notNull() });
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database.handle;
  await db.execute(sql`create table paginate_numbers (n integer not null)`);
  await db.execute(sql`insert into paginate_numbers select generate_series(1, 500)`);
  await db.execute(sql`analyze paginate_numbers`);
});
afterAll(async () => {
  await database?.destroy();
});

describe("paginateBounded", () => {
  const page = (bound: number, min = 0) => {
    const { db } = database.handle;
    const where = gt(numbers.n, min);
    return paginateBounded(db, () => db.select().from(numbers).where(where).limit(3), numbers, where, bound);
  };

  it("counts exactly up to the bound", async () => {
    expect(await page(1000)).toMatchObject({ total: 500, totalIsEstimate: false });
    expect(await page(500)).toMatchObject({ total: 500, totalIsEstimate: false });
    expect(await page(100, 450)).toMatchObject({ total: 50, totalIsEstimate: false });
  });

  it("beyond the bound, the planner's estimate (never below the bound) flagged as an estimate", async () => {
    const result = await page(100);
    expect(result.rows).toHaveLength(3);
    expect(result.totalIsEstimate).toBe(true);
    expect(result.total).toBeGreaterThan(100);
    // analyzed table, simple range: the estimate lands near the real 500
    expect(result.total).toBeGreaterThan(250);
    expect(result.total).toBeLessThan(1000);
  });
});
