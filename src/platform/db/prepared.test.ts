import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../test/helpers/db.js";
import { companies } from "../../modules/companies/tables.js";
import { uuidv7 } from "../ids.js";
import { preparedRead } from "./prepared.js";
import { inTransaction } from "./sql.js";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.destroy();
});

let builds = 0;
const companyName = preparedRead("cuadra_test_company_name", (db) => {
  builds++;
  return db
    .select({ name: companies.name })
    .from(companies)
    .where(eq(companies.id, sql.placeholder("id")));
});

describe("preparedRead", () => {
  it("builds once per database and answers each call with its own values", async () => {
    const { db } = database.handle;
    const ids = [uuidv7(), uuidv7()];
    await db.insert(companies).values([
      { id: ids[0], name: "Prepared Uno, S.L.", taxId: "B11111118" },
      { id: ids[1], name: "Prepared Dos, S.L.", taxId: "B22222226" },
    ]);
    const before = builds;
    // More calls than a pool has connections: the named statement is prepared on each of them.
    for (let i = 0; i < 12; i++) {
      expect(await companyName(db, { id: ids[i % 2] })).toEqual([
        { name: i % 2 ? "Prepared Dos, S.L." : "Prepared Uno, S.L." },
      ]);
    }
    expect(await companyName(db, { id: uuidv7() })).toEqual([]);
    expect(builds - before).toBeLessThanOrEqual(1);
  });

  it("inside a transaction, runs on the transaction (sees its uncommitted rows)", async () => {
    const { db } = database.handle;
    const id = uuidv7();
    await expect(
      inTransaction(db, async (tx) => {
        await tx.insert(companies).values({ id, name: "Prepared Tres, S.L.", taxId: "B33333334" });
        expect(await companyName(tx, { id })).toEqual([{ name: "Prepared Tres, S.L." }]);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await companyName(db, { id })).toEqual([]);
  });
});
