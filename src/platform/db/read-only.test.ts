import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, onPostgres, type TestDatabase } from "../../../test/helpers/db.js";
import { queryOne, queryRows, readOnly, sqlState } from "./sql.js";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database.handle;
  await db.execute(sql`create table read_only_notes (id integer primary key, body text not null)`);
  await db.execute(sql`insert into read_only_notes values (1, 'kept')`);
});
afterAll(async () => {
  await database?.destroy();
});

const READ_ONLY_TRANSACTION = "25006";
const body = async () =>
  (await queryOne<{ body: string }>(database.handle.db, sql`select body from read_only_notes where id = 1`))
    ?.body;

describe("readOnly (what every MCP tool runs through)", () => {
  it("reads", async () => {
    const rows = await readOnly(database.handle, (db) =>
      queryRows<{ body: string }>(db, sql`select body from read_only_notes`),
    );
    expect(rows).toEqual([{ body: "kept" }]);
  });

  it.each([
    ["update", sql`update read_only_notes set body = 'changed' where id = 1`],
    ["insert", sql`insert into read_only_notes values (2, 'new')`],
    ["delete", sql`delete from read_only_notes`],
    ["DDL", sql`create table read_only_sneaky (id integer)`],
  ])("refuses a write (%s) in the database itself", async (_what, statement) => {
    const write = readOnly(database.handle, (db) => db.execute(statement));
    await expect(write).rejects.toSatisfy((err) => sqlState(err) === READ_ONLY_TRANSACTION);
    expect(await body()).toBe("kept");
    const count = await queryOne<{ n: number }>(
      database.handle.db,
      sql`select count(*)::int as n from read_only_notes`,
    );
    expect(count?.n).toBe(1);
  });

  it("refuses a write in a transaction the work opens itself", async () => {
    const write = readOnly(database.handle, (db) =>
      db.transaction((tx) => tx.execute(sql`update read_only_notes set body = 'changed' where id = 1`)),
    );
    await expect(write).rejects.toSatisfy((err) => sqlState(err) === READ_ONLY_TRANSACTION);
    expect(await body()).toBe("kept");
  });

  it("leaves the application's own database writable", async () => {
    await readOnly(database.handle, (db) => queryRows(db, sql`select 1`));
    await database.handle.db.execute(sql`update read_only_notes set body = 'kept' where id = 1`);
    expect(await body()).toBe("kept");
  });

  it.runIf(onPostgres())("runs independent statements in parallel, on two connections", async () => {
    const backend = (db: Parameters<Parameters<typeof readOnly>[1]>[0]) =>
      queryOne<{ pid: number }>(db, sql`select pg_backend_pid() as pid, pg_sleep(0.2)`);
    const [a, b] = await readOnly(database.handle, (db) => Promise.all([backend(db), backend(db)]));
    expect(a?.pid).toBeTypeOf("number");
    expect(a?.pid).not.toBe(b?.pid);
    const own = await queryOne<{ on: string }>(
      database.handle.readOnly!(),
      sql`select current_setting('default_transaction_read_only') as on`,
    );
    expect(own?.on).toBe("on");
  });
});
