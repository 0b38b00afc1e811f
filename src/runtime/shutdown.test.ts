import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { nodeEntry } from "../../test/helpers/cli-process.js";
import { TEST_ADMIN } from "../../test/helpers/constants.js";
import { onPostgres } from "../../test/helpers/db.js";
import { freePort } from "../../test/helpers/net.js";
import { openDatabase } from "../platform/db/client.js";
import { closedCleanly } from "./embedded-open.js";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A stopping server whose client never finishes sending its request: Node would wait for that
 * connection until its 60 s headers timeout, past the hard exit, and the embedded database would be
 * left unclosed. After SHUTDOWN_GRACE_SECONDS the connection is closed and the database closes cleanly.
 */
describe.skipIf(onPostgres())("stopping the server (SIGTERM)", () => {
  it("closes a connection still open after the grace and closes the embedded database cleanly", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "cuadra-shutdown-"));
    dirs.push(dataDir);
    const dump = new Blob([readFileSync(inject("pgliteDump"))]);
    await (await openDatabase({ dataDir: join(dataDir, "db"), loadDataDir: dump })).close();
    const port = await freePort();
    const child = spawn(process.execPath, nodeEntry("main"), {
      cwd: process.cwd(),
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        NODE_ENV: "production",
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        ADMIN_EMAIL: TEST_ADMIN.email,
        SHUTDOWN_GRACE_SECONDS: "1",
        LOG_LEVEL: "info",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => {
      output += d;
    });
    child.stderr.on("data", (d) => {
      output += d;
    });
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error(`the server did not start:\n${output}`);
      const up = await fetch(`http://127.0.0.1:${port}/api/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (i > 600) throw new Error(`the server did not answer:\n${output}`);
      await tick(100);
    }

    const socket = connect(port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write("GET /api/ready HTTP/1.1\r\nHost: 127.0.0.1\r\n"); // headers never finished
    const dropped = new Promise((resolve) => socket.once("close", resolve));
    socket.on("error", () => {});
    await tick(200);
    child.kill("SIGTERM");

    expect(await exited, output).toBe(0);
    await dropped;
    expect(output).toContain("requests still open after 1 s: closing their connections");
    expect(output).toContain('"msg":"bye"');
    expect(closedCleanly(join(dataDir, "db"))).toBe(true);
  }, 90_000);
});
