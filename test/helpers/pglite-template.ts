import type { PGliteOptions } from "@electric-sql/pglite";

type PGliteFs = NonNullable<PGliteOptions["fs"]>;

/** The suite's dump, unpacked once per worker: directories and files relative to the data directory. */
export interface DataDirTree {
  dirs: string[];
  files: { path: string; data: Uint8Array }[];
}

const BLOCK = 512;
const decoder = new TextDecoder();

function field(bytes: Uint8Array, offset: number, length: number): string {
  const text = decoder.decode(bytes.subarray(offset, offset + length));
  const end = text.indexOf("\0");
  return end === -1 ? text : text.slice(0, end);
}

/**
 * Reads the uncompressed ustar archive PGlite's `dumpDataDir("none")` writes (regular files and
 * directories, names relative to the data directory). The files are views into `tar`, not copies.
 */
export function readDataDirTar(tar: Uint8Array): DataDirTree {
  const dirs = new Set<string>();
  const files: DataDirTree["files"] = [];
  let offset = 0;
  while (offset + BLOCK <= tar.length && tar[offset] !== 0) {
    const prefix = field(tar, offset + 345, 155);
    const name = (prefix ? `${prefix}/` : "") + field(tar, offset, 100);
    const size = Number.parseInt(field(tar, offset + 124, 12).trim() || "0", 8);
    const type = String.fromCharCode(tar[offset + 156]);
    const path = name.replace(/^\/+|\/+$/g, "");
    offset += BLOCK;
    if (type === "5") dirs.add(path);
    else if (type === "0" || type === "\0") {
      const parent = path.slice(0, Math.max(0, path.lastIndexOf("/")));
      if (parent) dirs.add(parent);
      files.push({ path, data: tar.subarray(offset, offset + size) });
    } else throw new Error(`PGlite dump: unexpected tar entry type ${JSON.stringify(type)} for ${path}`);
    offset += Math.ceil(size / BLOCK) * BLOCK;
  }
  if (!files.some((f) => f.path === "PG_VERSION"))
    throw new Error("PGlite dump: no PG_VERSION, not a data directory");
  return { dirs: [...dirs].sort(), files };
}

/**
 * A PGlite in-memory file system that starts as a copy of `tree`. PGlite's own `loadDataDir`
 * untars the whole dump again at every open and creates each file's parent directories one path
 * lookup at a time; this writes the files parsed once per worker straight into the new instance's
 * file system, before PGlite looks for a data directory (ADR 037). Each file is copied
 * (`FS.writeFile` without `canOwn`), so no database ever writes into the shared bytes.
 */
export async function templateFs(tree: DataDirTree): Promise<PGliteFs> {
  const { MemoryFS } = await import("@electric-sql/pglite");
  class TemplateMemoryFS extends MemoryFS {
    override async initialSyncFs(): Promise<void> {
      const module = this.pg?.Module;
      if (!module) throw new Error("PGlite's module is not ready");
      const root = module.ENV.PGDATA as string;
      const fs = module.FS;
      fs.mkdirTree(root);
      for (const dir of tree.dirs) fs.mkdirTree(`${root}/${dir}`);
      for (const file of tree.files) fs.writeFile(`${root}/${file.path}`, file.data);
    }
  }
  return new TemplateMemoryFS();
}
