import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { nodeEntry } from "./cli-process.js";
import { TEST_ADMIN, TEST_JWT_SECRET } from "./constants.js";
import { freePort } from "./net.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  base: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** SIGTERM, then waits for the exit (a no-op once it exited). */
  stop(): Promise<void>;
}

/**
 * The server as `npm start` runs it (dist/main.js, or src/main.ts through tsx when dist/ is stale:
 * nodeEntry), in a child process on a free port, once /api/ready answers 200. `env` adds to or
 * overrides the production defaults (DATABASE_URL, DATA_DIR, ADMIN_PASSWORD...).
 */
export async function startServerProcess(
  env: Record<string, string>,
  options: { nodeArgs?: string[]; timeoutMs?: number } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...nodeEntry("main")], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: base,
      JWT_SECRET: TEST_JWT_SECRET,
      ADMIN_EMAIL: TEST_ADMIN.email,
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d) => {
    output += d;
  });
  child.stderr?.on("data", (d) => {
    output += d;
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once("close", r));
    child.kill("SIGTERM");
    await exited;
  };
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server did not start:\n${output}`);
    const up = await fetch(`${base}/api/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the server did not answer:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, base, output: () => output, stop };
}
