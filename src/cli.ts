import { parseArgs } from "node:util";
import { type CliCommand, CliError, CliUsageError, type CommandIo } from "./cli/command.js";
import { COMMANDS } from "./cli/commands/index.js";
import { directEnv } from "./cli/env.js";
import { describeCliError } from "./cli/errors.js";
import { commandHelp, globalHelp, mcpHelp } from "./cli/help.js";
import { runInServer } from "./cli/relay.js";
import { terminalIo } from "./cli/terminal-io.js";
import { type Config, loadConfig } from "./config.js";
import { readLocalServer } from "./mcp/local-server-file.js";
import { runMcpStdio } from "./mcp/stdio.js";
import { findRunningServer } from "./mcp/stdio-relay.js";
import { runWasmOnBaselineCode } from "./platform/db/client.js";
import {
  DataDirBusyError,
  describeHolder,
  type LockHolder,
  readDataDirLock,
} from "./runtime/data-dir-lock.js";
import { claimDataDir, wasmOnBaselineCode } from "./runtime/database.js";

/** How long a command waits for a server that holds the directory but does not listen yet (first start). */
const STARTING_SERVER_WAIT_MS = 90_000;

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

/** The longest command name the leading words spell ("tenant create" before "tenant"). */
function pickCommand(argv: string[]): { command: CliCommand<unknown> | undefined; rest: string[] } {
  const words = argv.slice(0, 2);
  for (let n = words.length; n > 0; n--) {
    const name = words.slice(0, n).join(" ");
    const command = COMMANDS.find((c) => c.name === name);
    if (command) return { command, rest: argv.slice(n) };
  }
  return { command: undefined, rest: argv };
}

function parseCommandArgs(command: CliCommand<unknown>, argv: string[], config: Config) {
  const options = Object.fromEntries(
    Object.entries(command.options).map(([name, o]) => [
      name,
      { type: o.type, multiple: o.multiple ?? false },
    ]),
  );
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { ...options, help: { type: "boolean", short: "h" } },
    });
  } catch (err) {
    // node:util's messages name the option; drop its advice about "--" that does not apply here.
    throw new CliUsageError((err as Error).message.split(". To specify")[0]);
  }
  if (parsed.values.help) return { help: true as const };
  return { help: false as const, input: command.parse(parsed.values, parsed.positionals, config) };
}

/** The server holding the embedded directory, once it answers; null when a non-server process holds it. */
async function serverOf(config: Config, holder: LockHolder, io: CommandIo) {
  if (holder.role !== "server") return null;
  const deadline = Date.now() + STARTING_SERVER_WAIT_MS;
  let told = false;
  for (;;) {
    const info = readLocalServer(config.dataDir);
    const running = info?.pid === holder.pid ? await findRunningServer(info) : null;
    if (running) return running;
    if (Date.now() > deadline || !readDataDirLock(config.dataDir)) return null;
    if (!told) io.progress(`waiting for the server (pid ${holder.pid}) to finish starting`);
    told = true;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function runCommand(command: CliCommand<unknown>, input: unknown, config: Config, io: CommandIo) {
  let lock: ReturnType<typeof claimDataDir>;
  try {
    lock = claimDataDir(config, `cli ${command.name}`);
  } catch (err) {
    if (!(err instanceof DataDirBusyError)) throw err;
    const holder = err.holder;
    const server = await serverOf(config, holder, io);
    const stop = `stop it (Ctrl-C in its terminal, or kill ${holder.pid}) and run the command again`;
    if (!server) {
      throw new CliError(`${err.message}.\nWait for it to finish, or ${stop}.`);
    }
    if (command.whileServerRuns !== "relay") {
      throw new CliError(
        `The Cuadra server (pid ${holder.pid}, port ${holder.port}) holds the data directory ${config.dataDir}: ${command.name} cannot run beside it.\n` +
          `Why: ${command.whileServerRuns.refuse}.\nTo run it now: ${stop}.`,
      );
    }
    io.progress(
      `running inside the server at ${server.url} (pid ${holder.pid}), which holds ${config.dataDir}`,
    );
    await runInServer(server, command.name, input, io);
    return;
  }
  if (lock?.recovered) {
    io.warn(
      `the previous user of ${config.dataDir}, ${describeHolder(lock.recovered)}, ended without closing it`,
    );
  }
  if (wasmOnBaselineCode(config)) runWasmOnBaselineCode();
  const env = directEnv(config);
  try {
    await command.run(env, input, io);
  } finally {
    await env.close();
    lock?.release();
  }
}

const print = (text: string) => {
  process.stdout.write(text);
  return "done" as const;
};

/** "serving": the process goes on (the MCP server); "done": the command finished. */
async function main(argv: string[]): Promise<"serving" | "done"> {
  if (argv[0] === "mcp") {
    if (argv.includes("--help") || argv.includes("-h")) return print(mcpHelp);
    // stdout belongs to the MCP protocol from here on: messages only, logs go to stderr.
    await runMcpStdio();
    return "serving";
  }
  const { command, rest } = pickCommand(argv);
  if (!command) {
    const asked = argv.length === 0 || ["help", "--help", "-h"].includes(argv[0]);
    if (asked && argv[1]) {
      const { command: topic } = pickCommand(argv.slice(1));
      if (topic) return print(commandHelp(topic));
    }
    if (asked) return print(globalHelp(COMMANDS));
    fail(`Unknown command: ${argv.slice(0, 2).join(" ")}\n\n${globalHelp(COMMANDS)}`);
  }
  const config = loadConfig();
  let parsed: ReturnType<typeof parseCommandArgs>;
  try {
    parsed = parseCommandArgs(command, rest, config);
  } catch (err) {
    if (err instanceof CliUsageError || err instanceof CliError)
      fail(`${command.name}: ${err.message}\nSee: npm run cli -- ${command.name} --help`);
    throw err;
  }
  if (parsed.help) return print(commandHelp(command));
  await runCommand(command, parsed.input, config, terminalIo());
  return "done";
}

main(process.argv.slice(2)).then(
  // The lock and databases are closed: nothing left to wait for (a tenant pool's idle timer, a worker).
  (state) => {
    if (state === "done") process.exit(0);
  },
  (err) => {
    const { message, expected } = describeCliError(err);
    fail(expected ? message : `${message}\n(unexpected: if it persists, report it with the command you ran)`);
  },
);
