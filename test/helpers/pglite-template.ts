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

/** The parts of an Emscripten MEMFS node this loader uses (PGlite's file system, ADR 037 and 045). */
interface MemNode {
  node_ops: { mknod(parent: MemNode, name: string, mode: number, dev: number): MemNode };
  stream_ops: Record<string, (...args: never[]) => unknown>;
  contents: Uint8Array;
  usedBytes: number;
}
interface MemStream {
  node: MemNode;
}

const DIR_MODE = 0o40777;
const FILE_MODE = 0o100666;

/**
 * A PGlite in-memory file system that starts as `tree`. PGlite's own `loadDataDir` untars the whole
 * dump again at every open and creates each file's parent directories one path lookup at a time;
 * this builds the nodes of the dump parsed once per worker straight into the new instance's file
 * system (no path lookups), before PGlite looks for a data directory (ADR 037). A file's bytes are
 * the worker's shared dump until the database first writes to that file: then it gets its own copy
 * (ADR 045), so no database ever writes into the shared bytes and an open copies only what it changes.
 */
export async function templateFs(tree: DataDirTree): Promise<PGliteFs> {
  const { MemoryFS } = await import("@electric-sql/pglite");
  const shared = new Set(tree.files.map((f) => f.data.buffer));
  class TemplateMemoryFS extends MemoryFS {
    override async initialSyncFs(): Promise<void> {
      const module = this.pg?.Module;
      if (!module) throw new Error("PGlite's module is not ready");
      const root = module.ENV.PGDATA as string;
      const fs = module.FS;
      fs.mkdirTree(root);
      const dirs = new Map<string, MemNode>([["", fs.lookupPath(root).node as MemNode]]);
      const dir = (path: string): MemNode => {
        const known = dirs.get(path);
        if (known) return known;
        const slash = path.lastIndexOf("/");
        const parent = dir(slash === -1 ? "" : path.slice(0, slash));
        const node = parent.node_ops.mknod(parent, path.slice(slash + 1), DIR_MODE, 0);
        dirs.set(path, node);
        return node;
      };
      for (const path of tree.dirs) dir(path);
      let copyOnWrite: MemNode["stream_ops"] | undefined;
      for (const file of tree.files) {
        const slash = file.path.lastIndexOf("/");
        const parent = dir(slash === -1 ? "" : file.path.slice(0, slash));
        const node = parent.node_ops.mknod(parent, file.path.slice(slash + 1), FILE_MODE, 0);
        copyOnWrite ??= copyingOnWrite(node.stream_ops, shared);
        node.contents = file.data;
        node.usedBytes = file.data.length;
        node.stream_ops = copyOnWrite;
      }
    }
  }
  return new TemplateMemoryFS();
}

/**
 * MEMFS's file operations, except that the two that change a file's bytes in place (`write`, and
 * `msync`, which writes a shared mapping back) first give a file still holding the shared dump's
 * bytes a copy of its own. Every other change (truncate, rename, unlink) replaces or moves the
 * node's contents without touching the bytes.
 */
function copyingOnWrite(memfs: MemNode["stream_ops"], shared: Set<ArrayBufferLike>): MemNode["stream_ops"] {
  const own = (stream: MemStream) => {
    const node = stream.node;
    if (shared.has(node.contents.buffer)) node.contents = node.contents.slice(0, node.usedBytes);
  };
  const write = memfs.write as (stream: MemStream, ...rest: unknown[]) => number;
  const msync = memfs.msync as (stream: MemStream, ...rest: unknown[]) => number;
  return {
    ...memfs,
    write: ((stream: MemStream, ...rest: unknown[]) => {
      own(stream);
      return write(stream, ...rest);
    }) as MemNode["stream_ops"][string],
    msync: ((stream: MemStream, ...rest: unknown[]) => {
      own(stream);
      return msync(stream, ...rest);
    }) as MemNode["stream_ops"][string],
  };
}
