import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { adminPool, databaseUrl } from "../../test/helpers/postgres.js";
import { loadConfig } from "../config.js";
import { type DatabaseHandle, openDatabase } from "../platform/db/client.js";
import type { CommandEnv } from "./command.js";
import { demoCommand } from "./commands/demo.js";

/**
 * `npm run cli -- demo` before the first `npm start` creates the database and its first administrator:
 * it must print the generated password (once), as `npm start` would have.
 */
const base = process.env.TEST_DATABASE_URL;
const name = `cuadra_first_admin_${randomBytes(4).toString("hex")}`;
let handle: DatabaseHandle | undefined;

afterAll(async () => {
  await handle?.close();
  if (base) {
    const admin = adminPool(base);
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
});

class StopAfterFirstStep extends Error {}

describe("demo on a database no server has started yet", () => {
  it("prints the first administrator's generated password once", async () => {
    let url: string | undefined;
    if (base) {
      const admin = adminPool(base);
      await admin.query(`create database ${name}`);
      await admin.end();
      url = databaseUrl(base, name);
    }
    handle = await openDatabase(url ? { url } : {});
    const config = { ...loadConfig({ ADMIN_EMAIL: "first@example.com" }), databaseUrl: url };
    const env: CommandEnv = {
      config,
      where: "direct",
      main: async () => handle!,
      database: async () => handle!,
    };
    const out: string[] = [];
    const io = {
      out: (line: string) => out.push(line),
      warn: () => {},
      // The password comes before the demo's first step: no need to load the whole demo here.
      progress: (line: string) => {
        if (line.startsWith("demo:")) throw new StopAfterFirstStep();
      },
    };
    await expect(
      demoCommand.run(env, { user: "first@example.com", tenant: undefined }, io),
    ).rejects.toBeInstanceOf(StopAfterFirstStep);
    const text = out.join("\n");
    expect(text).toContain("First administrator created");
    expect(text).toContain("e-mail:   first@example.com");
    const password = /password: (\S+) {3}\(generated; shown only this once\)/.exec(text)?.[1];
    expect(password?.length).toBeGreaterThanOrEqual(16);

    // A second run finds the administrator: no password again.
    const again: string[] = [];
    await expect(
      demoCommand.run(
        env,
        { user: "first@example.com", tenant: undefined },
        { ...io, out: (line) => again.push(line) },
      ),
    ).rejects.toBeInstanceOf(StopAfterFirstStep);
    expect(again.join("\n")).not.toContain("password");
  }, 300_000);
});
