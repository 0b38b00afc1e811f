import { parentPort, workerData } from "node:worker_threads";
import { prepareImport } from "./prepare.js";

/**
 * Worker thread entry (started by off-thread.ts): prepares one BC3 import and posts the result in
 * chunks, so the main thread deserializes it a piece at a time between other requests.
 */
const CHUNK_NODES = 500;

const { file, budgetId } = workerData as { file: Uint8Array; budgetId: string };
const port = parentPort;
if (port) {
  const result = prepareImport(Buffer.from(file.buffer, file.byteOffset, file.byteLength), budgetId);
  if (!result.ok) {
    port.postMessage({ type: "invalid", errors: result.errors });
  } else {
    const { ok: _ok, tree, ...head } = result;
    port.postMessage({ type: "head", head });
    for (let i = 0; i < tree.concepts.length; i += CHUNK_NODES) {
      port.postMessage({ type: "concepts", concepts: tree.concepts.slice(i, i + CHUNK_NODES) });
    }
    for (let i = 0; i < tree.nodes.length; i += CHUNK_NODES) {
      port.postMessage({ type: "nodes", nodes: tree.nodes.slice(i, i + CHUNK_NODES) });
    }
    port.postMessage({ type: "done" });
  }
}
