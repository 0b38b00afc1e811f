import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../test/helpers/db.js";
import { preparedByShape, preparedRead, preparedSql, shapeOf } from "./prepared.js";
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

const shapeBuilds: string[] = [];
/** Tenants by status and/or slug prefix, each filter present or not: four shapes. */
const tenantsByShape = preparedByShape(
  "cuadra_test_tenants_by_shape",
  (db, shape) => {
    shapeBuilds.push(shape);
    return db
      .select({ slug: tenants.slug })
      .from(tenants)
      .where(
        and(
          sql`${tenants.slug} like 'shape-%'`,
          shape[0] === "1" ? eq(tenants.status, sql.placeholder("status")) : undefined,
          shape[1] === "1" ? sql`${tenants.slug} like ${sql.placeholder("prefix")}` : undefined,
        ),
      )
      .orderBy(asc(tenants.slug));
  },
  3,
);
const slugsOf = async (p: Promise<{ slug: string }[]>) => (await p).map((r) => r.slug);

describe("preparedByShape", () => {
  const rows = [
    { slug: "shape-a1", status: "active" as const },
    { slug: "shape-a2", status: "active" as const },
    { slug: "shape-b1", status: "suspended" as const },
  ];
  beforeAll(async () => {
    await database.handle.db.insert(tenants).values(rows);
  });

  it("keys the SQL by shape and the values by call: the same shape never answers with another call's value", async () => {
    const { db } = database.handle;
    const list = (f: { status?: string; prefix?: string }) =>
      slugsOf(tenantsByShape(db, shapeOf(f, ["status", "prefix"]), f));
    shapeBuilds.length = 0;
    // One shape, two scopes, alternating on a pool: each call sees only its own rows.
    for (let i = 0; i < 6; i++) {
      expect(await list({ status: "active" })).toEqual(["shape-a1", "shape-a2"]);
      expect(await list({ status: "suspended" })).toEqual(["shape-b1"]);
    }
    // A shape change is another statement; a filter given as "" or undefined is absent.
    expect(await list({})).toEqual(["shape-a1", "shape-a2", "shape-b1"]);
    expect(await list({ status: "", prefix: undefined })).toEqual(["shape-a1", "shape-a2", "shape-b1"]);
    expect(await list({ status: "active", prefix: "shape-a2%" })).toEqual(["shape-a2"]);
    expect(await list({ status: "suspended", prefix: "shape-a%" })).toEqual([]);
    expect([...new Set(shapeBuilds)].sort()).toEqual(["00", "10", "11"]);
    expect(shapeBuilds).toHaveLength(3);
  });

  it("past its bound, a new shape is built on every call and still answers right", async () => {
    const { db } = database.handle;
    shapeBuilds.length = 0;
    // The three shapes of the previous test filled the bound (3); "01" is one too many.
    for (let i = 0; i < 3; i++)
      expect(await slugsOf(tenantsByShape(db, "01", { prefix: "shape-b%" }))).toEqual(["shape-b1"]);
    expect(shapeBuilds).toEqual(["01", "01", "01"]);
    expect(await slugsOf(tenantsByShape(db, "10", { status: "suspended" }))).toEqual(["shape-b1"]);
    expect(shapeBuilds).toHaveLength(3);
  });

  it("inside a transaction, runs on the transaction", async () => {
    const { db } = database.handle;
    await expect(
      inTransaction(db, async (tx) => {
        await tx.insert(tenants).values({ slug: "shape-c1", status: "suspended" });
        expect(await slugsOf(tenantsByShape(tx, "10", { status: "suspended" }))).toEqual([
          "shape-b1",
          "shape-c1",
        ]);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await slugsOf(tenantsByShape(db, "10", { status: "suspended" }))).toEqual(["shape-b1"]);
  });
});

describe("preparedSql", () => {
  it("prepares raw SQL with placeholders and answers with rows", async () => {
    const { db } = database.handle;
    const bySlug = preparedRead("cuadra_test_raw_tenant", (d) =>
      preparedSql<{ status: string }>(
        d,
        sql`select status from tenants where slug = ${sql.placeholder("slug")}`,
      ),
    );
    await db.insert(tenants).values({ slug: "raw-uno", status: "active" });
    for (let i = 0; i < 8; i++)
      expect((await bySlug(db, { slug: "raw-uno" })).rows).toEqual([{ status: "active" }]);
    expect((await bySlug(db, { slug: "raw-none" })).rows).toEqual([]);
    const unnamed = await preparedSql<{ n: number }>(
      db,
      sql`select ${sql.placeholder("n")}::int as n`,
    ).execute({ n: 7 });
    expect(unnamed.rows).toEqual([{ n: 7 }]);
  });
});

describe("rows of a flat prepared select", () => {
  const select = (db: typeof database.handle.db) =>
    db
      .select({
        slug: tenants.slug,
        databaseUrl: tenants.databaseUrl,
        createdAt: tenants.createdAt,
        length: sql<number>`length(${tenants.slug})`.mapWith(Number),
        upper: sql<string>`upper(${tenants.slug})`.as("upper_slug"),
        status: tenants.status,
      })
      .from(tenants)
      .where(sql`${tenants.slug} like ${sql.placeholder("prefix")}`)
      .orderBy(asc(tenants.slug));
  const flat = preparedRead("cuadra_test_flat_rows", select);
  const nested = preparedRead("cuadra_test_nested_rows", (db) =>
    db
      .select({ tenant: { slug: tenants.slug, createdAt: tenants.createdAt }, status: tenants.status })
      .from(tenants)
      .where(sql`${tenants.slug} like ${sql.placeholder("prefix")}`)
      .orderBy(asc(tenants.slug)),
  );

  it("are the objects drizzle maps: same keys in the same order, same decoded values, nulls", async () => {
    const { db } = database.handle;
    await db.insert(tenants).values([
      { slug: "flat-uno", status: "active", databaseUrl: "postgres://x/uno" },
      { slug: "flat-dos", status: "suspended" },
    ]);
    const expected = await select(db).execute({ prefix: "flat-%" });
    expect(expected).toHaveLength(2);
    for (let i = 0; i < 3; i++) {
      const rows = await flat(db, { prefix: "flat-%" });
      expect(rows).toEqual(expected);
      expect(rows.map((r) => Object.keys(r))).toEqual(expected.map((r) => Object.keys(r)));
    }
    const [dos] = await flat(db, { prefix: "flat-dos" });
    expect(dos).toMatchObject({ slug: "flat-dos", databaseUrl: null, length: 8, upper: "FLAT-DOS" });
    expect(dos.createdAt).toBeInstanceOf(Date);
    // A nested selection keeps drizzle's own mapping.
    expect(await nested(db, { prefix: "flat-uno" })).toEqual([
      { tenant: { slug: "flat-uno", createdAt: expected[1].createdAt }, status: "active" },
    ]);
  });
});
