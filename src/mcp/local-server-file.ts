import { randomBytes, timingSafeEqual } from "node:crypto";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { FastifyRequest } from "fastify";
import type { Config } from "../config.js";
import type { TenantDirectory } from "../platform/db/tenancy.js";
import { ForbiddenError, UnauthorizedError } from "../platform/http/errors.js";

/**
 * PGlite admits one process per data directory. A running server therefore publishes, in
 * DATA_DIR/server.json (mode 0600), where it listens and a random key; `npm run mcp` relays to it
 * with that key, accepted only from loopback as unrestricted local access to this server's data.
 */
export interface LocalServerInfo {
  pid: number;
  /** Base URL reachable from this machine, e.g. http://127.0.0.1:8000 */
  url: string;
  key: string;
  startedAt: string;
}

export const LOCAL_SERVER_FILE = "server.json";

/** Keys per tenant directory: a key opens only the data of the server that published it. */
const keys = new WeakMap<TenantDirectory, Set<string>>();

export function isLocalKey(tenants: TenantDirectory, candidate: string): boolean {
  const given = Buffer.from(candidate);
  let match = false;
  for (const key of keys.get(tenants) ?? []) {
    const expected = Buffer.from(key);
    if (expected.length === given.length && timingSafeEqual(expected, given)) match = true;
  }
  return match;
}

function reachableUrl(address: string | AddressInfo | null): string | null {
  if (!address || typeof address === "string") return null;
  const wildcard = ["0.0.0.0", "::", "127.0.0.1", "::ffff:127.0.0.1"].includes(address.address);
  if (wildcard) return `http://127.0.0.1:${address.port}`;
  if (address.address === "::1") return `http://[::1]:${address.port}`;
  return null;
}

/**
 * Call once the server listens (embedded mode only; with DATABASE_URL `npm run mcp` opens the
 * database itself). Returns what to call at shutdown.
 */
export function publishLocalServer(
  config: Pick<Config, "dataDir" | "databaseUrl">,
  tenants: TenantDirectory,
  address: string | AddressInfo | null,
): { remove(): void } {
  const url = reachableUrl(address);
  if (config.databaseUrl || !url) return { remove() {} };
  const key = randomBytes(32).toString("base64url");
  const set = keys.get(tenants) ?? new Set<string>();
  set.add(key);
  keys.set(tenants, set);
  const info: LocalServerInfo = { pid: process.pid, url, key, startedAt: new Date().toISOString() };
  mkdirSync(config.dataDir, { recursive: true });
  const file = join(config.dataDir, LOCAL_SERVER_FILE);
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temp, 0o600);
  renameSync(temp, file);
  return {
    remove() {
      set.delete(key);
      // Another server may have taken the directory over since: remove only our own file.
      if (readLocalServer(config.dataDir)?.key === key) unlinkSync(file);
    },
  };
}

/** The running server's file, or null when there is none (or it is not ours to read). */
export function readLocalServer(dataDir: string): LocalServerInfo | null {
  const file = join(dataDir, LOCAL_SERVER_FILE);
  if (!existsSync(file)) return null;
  try {
    const info = JSON.parse(readFileSync(file, "utf8")) as LocalServerInfo;
    return typeof info.url === "string" && typeof info.key === "string" ? info : null;
  } catch {
    return null;
  }
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/**
 * A preHandler for the routes the local key opens (the MCP relay, the CLI's control channel): from
 * this machine only, never through a proxy, with the key of DATA_DIR/server.json. Whoever can read
 * that file can read the database files too, so the key grants nothing they do not already have.
 */
export function assertLocalCaller(tenants: TenantDirectory, what: { access: string; key: string }) {
  return async (request: FastifyRequest) => {
    const proxied = ["x-forwarded-for", "forwarded", "x-real-ip"].some(
      (h) => request.headers[h] !== undefined,
    );
    if (proxied || !LOOPBACK.test(request.socket.remoteAddress ?? "")) {
      throw new ForbiddenError(`${what.access} is accepted only from this machine`);
    }
    const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? "");
    if (!match || !isLocalKey(tenants, match[1])) throw new UnauthorizedError(`Invalid ${what.key}`);
  };
}
