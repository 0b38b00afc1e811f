import { createHash } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join, resolve, sep } from "node:path";
import { uuidv7 } from "./ids.js";

export interface StoredFile {
  /** Relative to the storage root; generated here, never derived from a file name. */
  key: string;
  sha256: string;
  sizeBytes: number;
}

export interface FileStorage {
  save(content: Buffer): Promise<StoredFile>;
  read(key: string): Promise<Buffer>;
  /** Removes the file; a file already gone is not an error. */
  remove(key: string): Promise<void>;
}

/** `YYYY/MM/<uuid v7>`: the only shape of key this storage writes or accepts. */
const KEY_PATTERN = /^\d{4}\/\d{2}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export class InvalidStorageKeyError extends Error {
  constructor(key: string) {
    super(`Invalid storage key: ${JSON.stringify(key)}`);
  }
}

export const sha256Hex = (content: Buffer): string => createHash("sha256").update(content).digest("hex");

/** Files on the local disk under `rootDir` (STORAGE_DIR), addressed by server-generated keys. */
export function createFileStorage(rootDir: string): FileStorage {
  const root = resolve(rootDir);

  const pathOf = (key: string): string => {
    if (!KEY_PATTERN.test(key)) throw new InvalidStorageKeyError(key);
    const path = resolve(root, key);
    if (!path.startsWith(root + sep)) throw new InvalidStorageKeyError(key);
    return path;
  };

  return {
    async save(content) {
      const now = new Date();
      const month = String(now.getUTCMonth() + 1).padStart(2, "0");
      const key = `${now.getUTCFullYear()}/${month}/${uuidv7()}`;
      const path = pathOf(key);
      await mkdir(join(path, ".."), { recursive: true });
      // Written aside then renamed, so a reader never sees half a file.
      const partial = `${path}.partial`;
      await writeFile(partial, content, { flag: "wx" });
      await rename(partial, path);
      return { key, sha256: sha256Hex(content), sizeBytes: content.length };
    },
    async read(key) {
      return readFile(pathOf(key));
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}
