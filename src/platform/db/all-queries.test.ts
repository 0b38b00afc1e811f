import { count, sql } from "drizzle-orm";
import { integer, pgTable } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, onPostgres, type TestDatabase } from "../../../test/helpers/db.js";
import { watchPgOverlaps } from "../../../test/helpers/pg-overlap.js";
import { paginate } from "./paginate.js";
import { allQueries, inTransaction, isTransaction } from "./sql.js";

const numbers = pgTable("all_queries_numbers", { n: integer("n").notNull() });
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database.handle;
  await db.execute(sql`create table all_queries_numbers (n integer not null)`);
  await db.execute(sql`insert into all_queries_numbers select generate_series(1, 50)`);
});
afterAll(async () => {
  await database?.destroy();
});

/** A query that records when it starts and ends (pg_sleep keeps it in flight a little). */
function traced(db: TestDatabase["handle"]["db"], name: string, log: string[]) {
  return async () => {
    log.push(`start ${name}`);
    const rows = await db.execute(sql`select pg_sleep(0.02), ${name}::text as name`);
    log.push(`end ${name}`);
    return rows;
  };
}

describe("allQueries", () => {
  it("in a transaction, starts each query only when the one before has ended", async () => {
    const log: string[] = [];
    await inTransaction(database.handle.db, async (tx) => {
      expect(isTransaction(tx)).toBe(true);
      await allQueries(tx, [traced(tx, "a", log), traced(tx, "b", log), traced(tx, "c", log)]);
    });
    expect(log).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"]);
  });

  it("outside a transaction, starts them all at once and returns the results in order", async () => {
    const { db } = database.handle;
    expect(isTransaction(db)).toBe(false);
    const log: string[] = [];
    const [a, b] = await allQueries(db, [traced(db, "a", log), traced(db, "b", log)]);
    expect(log.slice(0, 2)).toEqual(["start a", "start b"]);
    expect([a, b].map((r) => (r as unknown as { rows: Array<{ name: string }> }).rows[0]!.name)).toEqual([
      "a",
      "b",
    ]);
  });

  it("a page and its count in a transaction never send a query while another is in flight", async () => {
    const watch = watchPgOverlaps();
    try {
      const page = await inTransaction(database.handle.db, (tx) =>
        paginate(
          tx,
          () => tx.select().from(numbers).orderBy(numbers.n).limit(5),
          () => tx.select({ total: count() }).from(numbers),
        ),
      );
      expect(page.rows.map((r) => r.n)).toEqual([1, 2, 3, 4, 5]);
      expect(page.total).toBe(50);
    } finally {
      watch.restore();
    }
    expect(watch.overlaps).toEqual([]);
  });

  it.runIf(onPostgres())(
    "the overlap watch sees a Promise.all of two queries on one transaction",
    async () => {
      const watch = watchPgOverlaps();
      try {
        await inTransaction(database.handle.db, (tx) =>
          Promise.all([tx.execute(sql`select 1`), tx.execute(sql`select 2`)]),
        );
      } finally {
        watch.restore();
      }
      expect(watch.overlaps).toEqual(["select 2"]);
    },
  );
});
