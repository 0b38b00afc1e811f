import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../test/helpers/db.js";
import { preparedRead } from "./prepared.js";
import { inTransaction } from "./sql.js";
import { tenants } from "./tables.js";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.destroy();
});

let builds = 0;
const tenantStatus = preparedRead("cuadra_test_tenant_status", (db) => {
  builds++;
  return db
    .select({ status: tenants.status })
    .from(tenants)
    .where(eq(tenants.slug, sql.placeholder("slug")));
});

describe("preparedRead", () => {
  it("builds once per database and answers each call with its own values", async () => {
    const { db } = database.handle;
    const slugs = ["prepared-uno", "prepared-dos"];
    await db.insert(tenants).values([
      { slug: slugs[0], status: "active" },
      { slug: slugs[1], status: "suspended" },
    ]);
    const before = builds;
    // More calls than a pool has connections: the named statement is prepared on each of them.
    for (let i = 0; i < 12; i++) {
      expect(await tenantStatus(db, { slug: slugs[i % 2] })).toEqual([
        { status: i % 2 ? "suspended" : "active" },
      ]);
    }
    expect(await tenantStatus(db, { slug: "prepared-none" })).toEqual([]);
    expect(builds - before).toBeLessThanOrEqual(1);
  });

  it("inside a transaction, runs on the transaction (sees its uncommitted rows)", async () => {
    const { db } = database.handle;
    const slug = "prepared-tres";
    await expect(
      inTransaction(db, async (tx) => {
        await tx.insert(tenants).values({ slug, status: "active" });
        expect(await tenantStatus(tx, { slug })).toEqual([{ status: "active" }]);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await tenantStatus(db, { slug })).toEqual([]);
  });
});
