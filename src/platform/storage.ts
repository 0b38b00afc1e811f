import { createHash } from "node:crypto";
import * as nodeFs from "node:fs/promises";
import { join, resolve, sep } from "node:path";
import { InsufficientStorageError, StorageUnavailableError } from "./http/errors.js";
import { uuidv7 } from "./ids.js";

export interface StoredFile {
  /** Relative to the storage root; generated here, never derived from a file name. */
  key: string;
  sha256: string;
  sizeBytes: number;
}

export interface FileStorage {
  /** 507 when the disk is full, 503 when it cannot be written; either way nothing is left behind. */
  save(content: Buffer): Promise<StoredFile>;
  /** StoredFileNotFoundError when the file is gone. */
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

export class StoredFileNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`No stored file under ${JSON.stringify(key)}`);
  }
}

/** The file system calls the storage makes (a test injects faults here; production uses node:fs). */
export type StorageFs = Pick<typeof nodeFs, "mkdir" | "readFile" | "rename" | "rm" | "writeFile">;

const errno = (err: unknown) => (err as NodeJS.ErrnoException | undefined)?.code;

/** A failed write as the client sees it: full (507) or otherwise unusable (503). */
function writeFailure(err: unknown): Error {
  const code = errno(err);
  if (code === "ENOSPC" || code === "EDQUOT") return new InsufficientStorageError();
  if (code && /^E[A-Z]+$/.test(code)) return new StorageUnavailableError();
  return err as Error;
}

export const sha256Hex = (content: Buffer): string => createHash("sha256").update(content).digest("hex");

/** Files on the local disk under `rootDir` (STORAGE_DIR), addressed by server-generated keys. */
export function createFileStorage(rootDir: string, fs: StorageFs = nodeFs): FileStorage {
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
      // Written aside then renamed, so a reader never sees half a file; a failed write (disk full
      // half-way) removes what it wrote.
      const partial = `${path}.partial`;
      try {
        await fs.mkdir(join(path, ".."), { recursive: true });
        await fs.writeFile(partial, content, { flag: "wx" });
        await fs.rename(partial, path);
      } catch (err) {
        await fs.rm(partial, { force: true }).catch(() => {});
        throw writeFailure(err);
      }
      return { key, sha256: sha256Hex(content), sizeBytes: content.length };
    },
    async read(key) {
      const path = pathOf(key);
      try {
        return await fs.readFile(path);
      } catch (err) {
        if (errno(err) === "ENOENT") throw new StoredFileNotFoundError(key);
        throw err;
      }
    },
    async remove(key) {
      await fs.rm(pathOf(key), { force: true });
    },
  };
}
