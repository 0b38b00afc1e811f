import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../../src/platform/db/client.js";
import { queryRows } from "../../src/platform/db/sql.js";
import { onPostgres } from "./db.js";
import { readDataDirTar, templateFs } from "./pglite-template.js";

/** One ustar header block (what PGlite's dumpDataDir writes), followed by the file's blocks. */
function tarEntry(name: string, type: string, data = new Uint8Array()): Uint8Array {
  const header = new Uint8Array(512);
  header.set(new TextEncoder().encode(name), 0);
  header.set(new TextEncoder().encode(`${data.length.toString(8).padStart(11, "0")}\0`), 124);
  header[156] = type.charCodeAt(0);
  const body = new Uint8Array(Math.ceil(data.length / 512) * 512);
  body.set(data);
  return new Uint8Array([...header, ...body]);
}

const tar = (...entries: Uint8Array[]) =>
  new Uint8Array([...entries.flatMap((e) => [...e]), ...new Uint8Array(1024)]);

describe("reading a PGlite dump", () => {
  it("lists directories (parents included) and files as views of the archive", () => {
    const version = new TextEncoder().encode("17\n");
    const archive = tar(
      tarEntry("/base", "5"),
      tarEntry("/PG_VERSION", "0", version),
      tarEntry("/base/5/1259", "0", new Uint8Array(700).fill(7)),
    );
    const tree = readDataDirTar(archive);
    expect(tree.dirs).toEqual(["base", "base/5"]);
    expect(tree.files.map((f) => [f.path, f.data.length])).toEqual([
      ["PG_VERSION", 3],
      ["base/5/1259", 700],
    ]);
    expect(tree.files[1].data.every((b) => b === 7)).toBe(true);
    expect(tree.files[0].data.buffer).toBe(archive.buffer);
  });

  it("refuses an archive that is not a data directory, or holds links", () => {
    expect(() => readDataDirTar(tar(tarEntry("/base", "5")))).toThrow(/PG_VERSION/);
    expect(() => readDataDirTar(tar(tarEntry("/PG_VERSION", "0"), tarEntry("/pg_wal", "2")))).toThrow(
      /unexpected tar entry type "2"/,
    );
  });
});

const fingerprint = (files: { path: string; data: Uint8Array }[]) => {
  const hash = createHash("sha256");
  for (const f of files) hash.update(f.path).update(f.data);
  return hash.digest("hex");
};

/** Every table's rows, in order: what a test file starts from. */
async function contents(handle: DatabaseHandle) {
  const tables = await queryRows<{ name: string }>(
    handle.db,
    sql`select schemaname || '.' || tablename as name from pg_tables
         where schemaname not in ('pg_catalog', 'information_schema') order by 1`,
  );
  const out: Record<string, unknown[]> = {};
  for (const { name } of tables)
    out[name] = await queryRows(handle.db, sql.raw(`select * from ${name} order by 1`));
  return out;
}

describe.skipIf(onPostgres())("a test database opened from the unpacked dump", () => {
  it("holds what PGlite's own loader gives, and never writes into the shared bytes", async () => {
    const bytes = new Uint8Array(readFileSync(inject("pgliteDump")));
    const tree = readDataDirTar(bytes);
    const before = fingerprint(tree.files);

    const loaded = await openDatabase({ loadDataDir: new Blob([bytes]) });
    const first = await openDatabase({ pgliteFs: await templateFs(tree) });
    try {
      const expected = await contents(loaded);
      expect(Object.keys(expected).length).toBeGreaterThan(50);
      expect(expected["public.users"]).toHaveLength(1);
      expect(await contents(first)).toEqual(expected);

      // A file's writes stay in its own database: the next one starts from the template again.
      await first.db.execute(sql`delete from users`);
      await first.db.execute(sql`create table scratch (id int primary key)`);
      await first.db.execute(sql`checkpoint`);
      const second = await openDatabase({ pgliteFs: await templateFs(tree) });
      try {
        expect(await contents(second)).toEqual(expected);
      } finally {
        await second.close();
      }
      expect(fingerprint(tree.files)).toBe(before);
    } finally {
      await first.close();
      await loaded.close();
    }
  });
});
