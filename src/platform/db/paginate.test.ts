import { and, gt, lte, sql } from "drizzle-orm";
import { integer, pgTable } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../test/helpers/db.js";
import { paginateBounded, paginateBoundedByShape } from "./paginate.js";
import { shapeOf } from "./prepared.js";
import { inTransaction } from "./sql.js";

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

describe("paginateBoundedByShape", () => {
  const counted = paginateBoundedByShape("cuadra_test_numbers_count", numbers, (_db, shape, value) =>
    and(
      shape[0] === "1" ? gt(numbers.n, value("min") as number) : undefined,
      shape[1] === "1" ? lte(numbers.n, value("max") as number) : undefined,
    ),
  );
  const page = (f: { min?: number; max?: number }, bound?: number) => {
    const { db } = database.handle;
    const where = and(
      f.min === undefined ? undefined : gt(numbers.n, f.min),
      f.max === undefined ? undefined : lte(numbers.n, f.max),
    );
    const rows = () => db.select().from(numbers).where(where).orderBy(numbers.n).limit(2);
    return counted(db, rows, shapeOf(f, ["min", "max"]), f, bound);
  };

  it("one shape's prepared count answers each call with its own values, bound included", async () => {
    // More calls than the pool has connections, values alternating on the same statement.
    for (let i = 0; i < 6; i++) {
      expect(await page({ min: 450 })).toEqual({
        rows: [{ n: 451 }, { n: 452 }],
        total: 50,
        totalIsEstimate: false,
      });
      expect(await page({ min: 100 }, 1000)).toMatchObject({ total: 400, totalIsEstimate: false });
      expect(await page({ min: 0 }, 500)).toMatchObject({ total: 500, totalIsEstimate: false });
    }
    expect(await page({})).toMatchObject({ rows: [{ n: 1 }, { n: 2 }], total: 500, totalIsEstimate: false });
    expect(await page({ min: 10, max: 20 })).toMatchObject({ total: 10, totalIsEstimate: false });
    expect(await page({ max: 0 })).toEqual({ rows: [], total: 0, totalIsEstimate: false });
  });

  it("past the bound, the planner's estimate of the same filter (never below the bound)", async () => {
    for (let i = 0; i < 2; i++) {
      const result = await page({ min: 0 }, 100);
      expect(result.rows).toEqual([{ n: 1 }, { n: 2 }]);
      expect(result.totalIsEstimate).toBe(true);
      expect(result.total).toBeGreaterThan(250);
      expect(result.total).toBeLessThan(1000);
      expect(await page({ min: 0, max: 150 }, 100)).toMatchObject({ totalIsEstimate: true });
      expect((await page({ min: 0, max: 150 }, 100)).total).toBeGreaterThanOrEqual(101);
    }
  });

  it("inside a transaction, counts the transaction's rows", async () => {
    const { db } = database.handle;
    await expect(
      inTransaction(db, async (tx) => {
        await tx.execute(sql`insert into paginate_numbers values (1001), (1002)`);
        const rows = () => tx.select().from(numbers).where(gt(numbers.n, 1000));
        expect(await counted(tx, rows, "10", { min: 1000 })).toMatchObject({ total: 2 });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await page({ min: 1000 })).toMatchObject({ total: 0 });
  });
});
