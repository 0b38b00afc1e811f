import type { LocalServerInfo } from "../mcp/local-server-file.js";
import { CliError, type CommandIo } from "./command.js";

export const CONTROL_PATH = "/api/local/cli";

/** One line of the server's answer (application/x-ndjson). */
export type ControlEvent =
  | { kind: "out" | "warn" | "progress"; text: string }
  | { kind: "error"; message: string }
  | { kind: "done" };

/** Runs a command inside the server holding the data directory, printing what it reports as it comes. */
export async function runInServer(
  server: LocalServerInfo,
  command: string,
  input: unknown,
  io: CommandIo,
): Promise<void> {
  let res: Response;
  try {
    res = await fetch(new URL(CONTROL_PATH, server.url), {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
      body: JSON.stringify({ command, input: input ?? null }),
    });
  } catch (err) {
    throw new CliError(`The server at ${server.url} did not answer: ${(err as Error).message}`);
  }
  if (!res.ok || !res.body) {
    const text = await res.text();
    let detail = text;
    try {
      detail = (JSON.parse(text) as { detail?: string }).detail ?? text;
    } catch {}
    throw new CliError(`The server at ${server.url} refused the command (HTTP ${res.status}): ${detail}`);
  }
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of res.body) {
    buffered += decoder.decode(chunk, { stream: true });
    let newline = buffered.indexOf("\n");
    while (newline >= 0) {
      const event = JSON.parse(buffered.slice(0, newline)) as ControlEvent;
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf("\n");
      if (event.kind === "done") return;
      if (event.kind === "error") throw new CliError(event.message);
      io[event.kind](event.text);
    }
  }
  throw new CliError(
    `The server at ${server.url} ended the connection before the command finished; its log says why`,
  );
}
