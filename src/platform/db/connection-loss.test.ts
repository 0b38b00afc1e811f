/**
 * A PostgreSQL backend terminated under a client (`pg_terminate_backend`, a restarted server, a
 * failover) must cost the request that held it, never the process. PostgreSQL only: PGlite has no
 * connections to lose.
 */
import { sql } from "drizzle-orm";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, onPostgres, type TestDatabase } from "../../../test/helpers/db.js";
import { adminPool } from "../../../test/helpers/postgres.js";
import { isConnectionError, queryOne } from "./sql.js";

describe.skipIf(!onPostgres())(
  "a lost PostgreSQL connection (PostgreSQL only: PGlite has no connections)",
  () => {
    let database: TestDatabase;
    let admin: pg.Pool;
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);

    beforeAll(async () => {
      database = await createTestDatabase();
      admin = adminPool(process.env.TEST_DATABASE_URL as string);
      process.on("uncaughtException", onUncaught);
    });
    afterAll(async () => {
      process.off("uncaughtException", onUncaught);
      await database?.destroy();
      await admin?.end();
    });

    const dbName = () => new URL(database.url as string).pathname.slice(1);
    /** Terminates this database's backends (the app's connections), like a failover would. */
    async function terminateBackends(pid?: number) {
      await admin.query(
        pid
          ? "select pg_terminate_backend($1)"
          : "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
        [pid ?? dbName()],
      );
    }
    const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const backendPid = async (db = database.handle.db) =>
      Number((await queryOne<{ pid: number }>(db, sql`select pg_backend_pid() as pid`))?.pid);

    it("inside a transaction, between two statements: the transaction fails as a connection error", async () => {
      const { db } = database.handle;
      await db.execute(sql`create table if not exists fault_probe (n int)`);
      const error = await db
        .transaction(async (tx) => {
          await tx.execute(sql`insert into fault_probe values (1)`);
          await terminateBackends(await backendPid(tx));
          // No statement is running when the server's goodbye arrives: only the client hears it.
          await tick(200);
          await tx.execute(sql`insert into fault_probe values (2)`);
        })
        .then(
          () => undefined,
          (err: unknown) => err,
        );
      expect(error).toBeDefined();
      expect(isConnectionError(error)).toBe(true);
      expect(uncaught).toEqual([]);
      // The broken client left the pool: the next transaction gets a live one, nothing half-written.
      const rows = await queryOne<{ n: number }>(db, sql`select count(*)::int as n from fault_probe`);
      expect(rows?.n).toBe(0);
    });

    it("while a read runs: the read fails as a connection error, the next one succeeds", async () => {
      const { db } = database.handle;
      const read = db.execute(sql`select pg_sleep(2)`).then(
        () => undefined,
        (err: unknown) => err,
      );
      await tick(300);
      await terminateBackends();
      const error = await read;
      expect(isConnectionError(error)).toBe(true);
      await tick(100);
      expect(uncaught).toEqual([]);
      expect(await queryOne<{ one: number }>(db, sql`select 1 as one`)).toEqual({ one: 1 });
    });

    it("while idle in the pool: the next statements get fresh connections", async () => {
      const { db } = database.handle;
      await Promise.all([1, 2, 3].map(() => db.execute(sql`select 1`)));
      await terminateBackends();
      await tick(200);
      expect(uncaught).toEqual([]);
      for (let i = 0; i < 5; i++)
        expect(await queryOne<{ one: number }>(db, sql`select 1 as one`)).toEqual({ one: 1 });
    });
  },
);
