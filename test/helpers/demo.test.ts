import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import type { Db } from "../../src/platform/db/client.js";
import { queryOne, queryRows } from "../../src/platform/db/sql.js";
import { type DemoDatabase, demoDatabase } from "./demo.js";

const opened: DemoDatabase[] = [];
afterAll(async () => {
  for (const { database } of opened) await database.destroy();
});

const open = async () => {
  const demo = await demoDatabase();
  opened.push(demo);
  return demo.database.handle.db;
};

/** Rows per table of the public schema. */
async function rowCounts(db: Db): Promise<Record<string, number>> {
  const tables = await queryRows<{ name: string }>(
    db,
    sql`select table_name as name from information_schema.tables
         where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  );
  const out: Record<string, number> = {};
  for (const { name } of tables)
    out[name] = Number(
      (await queryOne<{ n: string }>(db, sql.raw(`select count(*) as n from "${name}"`)))?.n,
    );
  return out;
}

const contactNames = async (db: Db) =>
  (await queryRows<{ name: string }>(db, sql`select name from contacts order by id`)).map((r) => r.name);

describe("demoDatabase (the demo loaded once per run, ADR 039)", () => {
  it("gives each caller its own copy of the same demo: a write in one never reaches another", async () => {
    const first = await open();
    const second = await open();
    const counts = await rowCounts(first);
    expect(counts.companies).toBe(1);
    expect(counts.entries).toBeGreaterThan(500);
    expect(counts.documents).toBeGreaterThan(300);
    expect(await rowCounts(second)).toEqual(counts);
    expect(opened[1].loaded).toEqual(opened[0].loaded);

    const names = await contactNames(second);
    await first.execute(sql`update contacts set name = 'changed by the first copy'`);
    await first.execute(sql`delete from verifactu_queue`);
    expect(await contactNames(second)).toEqual(names);
    // A copy made after those writes still starts from the demo as loaded.
    const third = await open();
    expect(await rowCounts(third)).toEqual(counts);
    expect(await contactNames(third)).toEqual(names);
  }, 400_000);
});
