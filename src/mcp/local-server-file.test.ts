import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TenantDirectory } from "../platform/db/tenancy.js";
import { AppError } from "../platform/http/errors.js";
import { assertLocalCaller, publishLocalServer, readLocalServer } from "./local-server-file.js";

const tenants = {
  mode: "single",
  resolve: async () => null,
  close: async () => {},
} as unknown as TenantDirectory;
let dir: string;
let app: FastifyInstance;
let published: { remove(): void };
let key: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "cuadra-local-"));
  published = publishLocalServer({ dataDir: dir, databaseUrl: undefined }, tenants, {
    address: "127.0.0.1",
    family: "IPv4",
    port: 8123,
  });
  key = readLocalServer(dir)!.key;
  app = Fastify();
  app.setErrorHandler((err, _request, reply) => {
    reply.status(err instanceof AppError ? err.status : 500).send({ detail: (err as Error).message });
  });
  app.get(
    "/local",
    { preHandler: assertLocalCaller(tenants, { access: "Local test", key: "test key" }) },
    () => ({
      ok: true,
    }),
  );
  await app.ready();
});

afterAll(async () => {
  await app.close();
  published.remove();
  rmSync(dir, { recursive: true, force: true });
});

const call = (headers: Record<string, string>, remoteAddress = "127.0.0.1") =>
  app.inject({ method: "GET", url: "/local", headers, remoteAddress });

describe("the local key's guard (MCP relay and the CLI's control channel)", () => {
  it("lets in a loopback caller with the key of server.json", async () => {
    expect((await call({ authorization: `Bearer ${key}` })).statusCode).toBe(200);
    expect((await call({ authorization: `Bearer ${key}` }, "::1")).statusCode).toBe(200);
  });

  it("refuses another key, no key, and a key no longer published", async () => {
    expect((await call({ authorization: "Bearer not-the-key" })).json()).toEqual({
      detail: "Invalid test key",
    });
    expect((await call({})).statusCode).toBe(401);
    const otherDir = mkdtempSync(join(tmpdir(), "cuadra-local-"));
    const other = publishLocalServer({ dataDir: otherDir, databaseUrl: undefined }, tenants, {
      address: "127.0.0.1",
      family: "IPv4",
      port: 8124,
    });
    const otherKey = readLocalServer(otherDir)!.key;
    expect((await call({ authorization: `Bearer ${otherKey}` })).statusCode).toBe(200);
    other.remove();
    expect((await call({ authorization: `Bearer ${otherKey}` })).statusCode).toBe(401);
    rmSync(otherDir, { recursive: true, force: true });
  });

  it("refuses the right key from another machine or through a proxy", async () => {
    const remote = await call({ authorization: `Bearer ${key}` }, "10.0.0.7");
    expect(remote.statusCode).toBe(403);
    expect(remote.json().detail).toBe("Local test is accepted only from this machine");
    for (const header of ["x-forwarded-for", "forwarded", "x-real-ip"]) {
      const proxied = await call({ authorization: `Bearer ${key}`, [header]: "127.0.0.1" });
      expect(proxied.statusCode, header).toBe(403);
    }
  });
});
