import { Session } from "node:inspector";

/**
 * Returns what the start allocated and no longer needs (ADR 046): V8's memory-reducing full
 * collection, the one its memory reducer runs by itself once a process has been idle for ~8-16 s,
 * run once here, between building the API and listening. It shrinks the young generation back to
 * its first size (the start grew it to `--max-semi-space-size`), compacts the old one and drops the
 * bytecode only the start ran. V8 exposes it to embedders as a low-memory notification; node only
 * through its inspector protocol, in process (no port is opened). A node built without the
 * inspector skips it.
 */
export async function releaseStartMemory(): Promise<void> {
  const session = new Session();
  try {
    session.connect();
  } catch {
    return;
  }
  try {
    await new Promise<void>((resolve, reject) =>
      session.post("HeapProfiler.collectGarbage", (err) => (err ? reject(err) : resolve())),
    );
  } finally {
    session.disconnect();
  }
}
