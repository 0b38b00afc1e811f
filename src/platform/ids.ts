import { randomBytes } from "node:crypto";
import { z } from "zod";

let lastMs = 0;
let sequence = 0;

// One getrandom call per 256 ids instead of one per id (ids are minted on every request).
const POOL_SIZE = 16 * 256;
let pool = Buffer.alloc(0);
let poolOffset = POOL_SIZE;
function random16(): Buffer {
  if (poolOffset >= POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    poolOffset = 0;
  }
  const out = Buffer.from(pool.subarray(poolOffset, poolOffset + 16));
  poolOffset += 16;
  return out;
}

/** UUID v7 (RFC 9562): 48-bit Unix ms timestamp, then random bits; monotonic within a process. */
export function uuidv7(): string {
  let ms = Date.now();
  if (ms <= lastMs) {
    sequence = (sequence + 1) & 0xfff;
    if (sequence === 0) lastMs += 1;
    ms = lastMs;
  } else {
    lastMs = ms;
    sequence = -1;
  }
  const bytes = random16();
  if (sequence < 0) sequence = bytes.readUInt16BE(14) & 0x7ff;
  bytes.writeUIntBE(ms, 0, 6);
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Path/query id: any RFC 4122/9562 UUID; anything else is a 400. */
export const uuidParam = z.uuid({ message: "must be a UUID" });
export const idParams = z.object({ id: uuidParam });
