import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { terminalLogStream } from "./logging.js";

function fakeStdout(isTTY: boolean) {
  const out = new PassThrough() as PassThrough & { isTTY: boolean };
  out.isTTY = isTTY;
  let text = "";
  out.on("data", (chunk) => {
    text += String(chunk);
  });
  return { out: out as unknown as NodeJS.WriteStream, text: () => text };
}

describe("the start log's form", () => {
  it("is JSON lines when stdout is not a terminal (the logger's own stdout)", async () => {
    expect(await terminalLogStream(fakeStdout(false).out)).toBeUndefined();
  });

  it("is readable lines at a terminal: time, level and message, no JSON", async () => {
    const tty = fakeStdout(true);
    const stream = (await terminalLogStream(tty.out))!;
    // What the server's logger writes: one JSON object per line.
    const entry = { level: 30, time: Date.now(), database: "PGlite at ./data/db", msg: "Cuadra listening" };
    stream.write(`${JSON.stringify(entry)}\n`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the terminal colours are escape sequences
    const line = tty.text().replace(/\u001b\[\d+m/g, "");
    expect(line).toMatch(/^\[\d\d:\d\d:\d\d\] .*INFO.*: Cuadra listening/);
    expect(line).toContain('"database":"PGlite at ./data/db"');
    expect(line.trim().startsWith("{")).toBe(false);
  });
});
