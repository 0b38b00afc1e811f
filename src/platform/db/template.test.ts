import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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

/** The gzipped dump of a test database (migrated, with its administrator), made once. */
let tarball: Buffer | undefined;

/** A template directory holding that dump under the given migrations fingerprint. */
async function templateFrom(stamp: string) {
  if (!tarball) {
    const database = await createTestDatabase();
    const dump = await (database.handle.dumpDataDir as () => Promise<Blob>)();
    await database.destroy();
    tarball = Buffer.from(await dump.arrayBuffer());
  }
  const dir = tempDir();
  writeFileSync(join(dir, "data.tar.gz"), tarball);
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

  it("fills an empty data directory, which then opens as itself", async () => {
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
  }, 120_000);
});
