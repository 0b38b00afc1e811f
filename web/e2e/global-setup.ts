import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "../..");
const ADMIN_PASSWORD = "E2e-Admin-2026";
const JWT_SECRET = "e2e-only-secret-e2e-only-secret-0123456789";

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      srv.close(() =>
        typeof address === "object" && address ? ok(address.port) : fail(new Error("no port")),
      );
    });
  });
}

async function waitFor(url: string, ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${url} did not answer in ${ms} ms`);
}

/** A fresh data dir with the demo loaded (`npm run cli demo`), then the server on a free port. */
export default async function globalSetup() {
  if (process.env.E2E_BASE_URL) {
    process.env.E2E_ADMIN_PASSWORD ??= ADMIN_PASSWORD;
    return;
  }
  const dataDir = mkdtempSync(join(tmpdir(), "cuadra-e2e-"));
  const port = await freePort();
  const env = {
    ...process.env,
    NODE_ENV: "production",
    DATA_DIR: dataDir,
    ADMIN_EMAIL: "admin@example.com",
    ADMIN_PASSWORD,
    JWT_SECRET,
    LOG_LEVEL: "warn",
    PORT: String(port),
    HOST: "127.0.0.1",
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    // webtreasury.spec.ts connects an assistant (RFC 7591, no metadata document to host) and revokes it.
    OAUTH_DYNAMIC_REGISTRATION: "true",
  };
  const tsx = join(ROOT, "node_modules", ".bin", "tsx");
  const demo = spawnSync(tsx, ["src/cli.ts", "demo"], { cwd: ROOT, env, encoding: "utf8" });
  if (demo.status !== 0) throw new Error(`demo failed: ${demo.stderr}`);
  const server: ChildProcess = spawn(tsx, ["src/main.ts"], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "inherit", "inherit"],
  });
  await waitFor(`http://127.0.0.1:${port}/api/health`, 120_000);
  process.env.E2E_BASE_URL = `http://127.0.0.1:${port}`;
  process.env.E2E_ADMIN_PASSWORD = ADMIN_PASSWORD;
  return async () => {
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
    rmSync(dataDir, { recursive: true, force: true });
  };
}
