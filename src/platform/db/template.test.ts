import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { createTestDatabase, onPostgres } from "../../../test/helpers/db.js";
import { openEmbedded } from "../../runtime/embedded-open.js";
import { MIGRATIONS_FOLDER, migrateDatabase } from "./migrate.js";
import { queryOne } from "./sql.js";
import { currentTemplate, isEmptyDir, migrationsFingerprint } from "./template.js";

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "cuadra-template-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A template directory holding a copy of a test database (migrated, with its administrator). */
async function templateFrom(stamp: string) {
  const database = await createTestDatabase();
  const tarball = await (database.handle.dumpDataDir as () => Promise<Blob>)();
  await database.destroy();
  const dir = tempDir();
  writeFileSync(join(dir, "data.tar.gz"), Buffer.from(await tarball.arrayBuffer()));
  writeFileSync(join(dir, "migrations.sha256"), stamp);
  return dir;
}

const silent = { notice: () => undefined };
const users = async (handle: Awaited<ReturnType<typeof openEmbedded>>) =>
  Number((await queryOne<{ n: string }>(handle.db, sql`select count(*) as n from users`))?.n);

describe("migrations fingerprint", () => {
  it("changes with any migration's content and with the journal", () => {
    const folder = join(tempDir(), "drizzle");
    cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
    const original = migrationsFingerprint(folder);
    expect(original).toBe(migrationsFingerprint());
    const first = join(folder, "0000_schema.sql");
    writeFileSync(first, `${readFileSync(first, "utf8")}\n-- edited`);
    expect(migrationsFingerprint(folder)).not.toBe(original);
    cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
    expect(migrationsFingerprint(folder)).toBe(original);
    writeFileSync(join(folder, "meta", "_journal.json"), "{}");
    expect(migrationsFingerprint(folder)).not.toBe(original);
  });
});

describe.skipIf(onPostgres())("a new embedded database from the migrated template", () => {
  it("is used only when built for the current migrations", async () => {
    expect(currentTemplate(join(tempDir(), "missing"))).toBeNull();
    expect(currentTemplate(await templateFrom("0".repeat(64)))).toBeNull();
    expect(currentTemplate(await templateFrom(migrationsFingerprint()))).toBeInstanceOf(Blob);
  });

  it("fills an empty data directory, which then opens as itself; a stale template is ignored", async () => {
    const template = await templateFrom(migrationsFingerprint());
    const dir = join(tempDir(), "db");
    expect(isEmptyDir(dir)).toBe(true);
    const first = await openEmbedded(dir, { ...silent, templateDir: template });
    // The template's copy already holds the migrated tables and the test administrator.
    expect(await users(first)).toBe(1);
    await migrateDatabase(first); // nothing pending
    await first.close();
    expect(isEmptyDir(dir)).toBe(false);

    // A directory with a database is opened as it is, never loaded over (it would throw).
    const again = await openEmbedded(dir, { ...silent, templateDir: template });
    expect(await users(again)).toBe(1);
    await again.close();

    // A template built for other migrations: a plain initdb, no tables until migrated.
    const stale = await templateFrom("f".repeat(64));
    const fresh = join(tempDir(), "db");
    mkdirSync(fresh);
    const plain = await openEmbedded(fresh, { ...silent, templateDir: stale });
    const tables = await queryOne<{ n: string }>(
      plain.db,
      sql`select count(*) as n from pg_tables where schemaname = 'public'`,
    );
    expect(Number(tables?.n)).toBe(0);
    await plain.close();
  }, 120_000);
});
