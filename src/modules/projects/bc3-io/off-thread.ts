import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { NewConcept, NewTreeNode } from "../items/bulk.js";
import { type ImportHead, type PreparedImport, prepareImport } from "./prepare.js";

/**
 * Files up to this size are prepared on the main thread: a few thousand items take a few
 * milliseconds, less than starting a worker. Larger ones go to a worker thread, so a 100,000-item
 * import does not stall every other request for seconds.
 */
export const INLINE_MAX_BYTES = 64 * 1024;

/** At most this many imports are parsed at once; more wait their turn (each worker holds a file). */
const MAX_WORKERS = Math.max(1, Math.min(4, availableParallelism() - 1));

// Compiled (dist/), the worker is JavaScript and plain Node runs it. Under tsx (dev) or vitest this
// file is TypeScript and so is the worker: a small bootstrap registers tsx's loader in the worker
// thread first (loader hooks of the main thread do not reach workers).
const RUNNING_TS = import.meta.url.endsWith(".ts");
const WORKER_URL = new URL(RUNNING_TS ? "./worker.ts" : "./worker.js", import.meta.url);

function startWorker(workerData: unknown): Worker {
  if (!RUNNING_TS) return new Worker(WORKER_URL, { workerData });
  const bootstrap = `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(WORKER_URL.href)}); })`;
  return new Worker(bootstrap, { eval: true, workerData });
}

let running = 0;
const waiting: (() => void)[] = [];

async function acquire(): Promise<void> {
  if (running < MAX_WORKERS) {
    running++;
    return;
  }
  await new Promise<void>((resolve) => waiting.push(resolve));
}

function release(): void {
  const next = waiting.shift();
  if (next) next();
  else running--;
}

type WorkerMessage =
  | { type: "invalid"; errors: Extract<PreparedImport, { ok: false }>["errors"] }
  | { type: "head"; head: ImportHead }
  | { type: "concepts"; concepts: NewConcept[] }
  | { type: "nodes"; nodes: NewTreeNode[] }
  | { type: "done" };

function prepareInWorker(file: Buffer, budgetId: string): Promise<PreparedImport> {
  return new Promise((resolve, reject) => {
    const worker = startWorker({ file, budgetId });
    let head: ImportHead | undefined;
    const concepts: NewConcept[] = [];
    const nodes: NewTreeNode[] = [];
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      outcome();
    };
    worker.on("message", (message: WorkerMessage) => {
      if (message.type === "invalid") settle(() => resolve({ ok: false, errors: message.errors }));
      else if (message.type === "head") head = message.head;
      else if (message.type === "concepts") for (const c of message.concepts) concepts.push(c);
      else if (message.type === "nodes") for (const node of message.nodes) nodes.push(node);
      else if (head) {
        const done = head;
        settle(() => resolve({ ok: true, ...done, tree: { concepts, nodes } }));
      }
    });
    worker.on("error", (err) => settle(() => reject(err)));
    worker.on("exit", (code) =>
      settle(() => reject(new Error(`the BC3 worker stopped (exit code ${code}) before answering`))),
    );
  });
}

/**
 * prepareImport, off the main thread for files over INLINE_MAX_BYTES (a worker per import, at
 * most MAX_WORKERS at once). Same result either way.
 */
export async function prepareImportOffThread(file: Buffer, budgetId: string): Promise<PreparedImport> {
  if (file.length <= INLINE_MAX_BYTES) return prepareImport(file, budgetId);
  await acquire();
  try {
    return await prepareInWorker(file, budgetId);
  } finally {
    release();
  }
}
