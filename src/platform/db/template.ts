import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openDatabase } from "./client.js";
import { MIGRATIONS_FOLDER, migrateDatabase } from "./migrate.js";

/**
 * The migrated PGlite template: a data directory that went through initdb and every migration,
 * as a gzipped tarball. `npm run build:server` (postinstall) makes it from this checkout's
 * migrations; a new embedded database (the first `npm start` on an empty DATA_DIR, a new tenant)
 * starts from it instead of running initdb and the migrations in WebAssembly. Same path from
 * src/ and dist/ (three levels up, like the migrations folder).
 */
export const TEMPLATE_DIR = fileURLToPath(new URL("../../../.pglite-template", import.meta.url));
const TARBALL = "data.tar.gz";
const STAMP = "migrations.sha256";

/** Hash of every migration file and the journal: a template is used only for exactly these. */
export function migrationsFingerprint(folder = MIGRATIONS_FOLDER): string {
  const hash = createHash("sha256");
  const files = [
    join("meta", "_journal.json"),
    ...readdirSync(folder)
      .filter((f) => f.endsWith(".sql"))
      .sort(),
  ];
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(folder, file)));
    hash.update("\0");
  }
  return hash.digest("hex");
}

/** The template's tarball when it exists and was built from the current migrations; otherwise null. */
export function currentTemplate(dir = TEMPLATE_DIR): Blob | null {
  try {
    if (readFileSync(join(dir, STAMP), "utf8") !== migrationsFingerprint()) return null;
    return new Blob([readFileSync(join(dir, TARBALL))]);
  } catch {
    return null; // not built (or a production install that never ran build:server)
  }
}

/** Builds the template in memory and writes it next to its fingerprint, replacing any older one. */
export async function buildTemplate(dir = TEMPLATE_DIR): Promise<{ bytes: number }> {
  const fingerprint = migrationsFingerprint();
  const handle = await openDatabase({});
  let tarball: Blob;
  try {
    await migrateDatabase(handle);
    tarball = await (handle.dumpDataDir as () => Promise<Blob>)();
  } finally {
    await handle.close();
  }
  const scratch = `${dir}.build-${process.pid}`;
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  writeFileSync(join(scratch, TARBALL), Buffer.from(await tarball.arrayBuffer()));
  writeFileSync(join(scratch, STAMP), fingerprint);
  rmSync(dir, { recursive: true, force: true });
  renameSync(scratch, dir);
  return { bytes: tarball.size };
}

/** Whether `dir` holds nothing yet (missing or empty): only such a directory may be filled from the template. */
export function isEmptyDir(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}
