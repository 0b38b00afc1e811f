import type { CliCommand } from "./command.js";

const MCP_SUMMARY = "the read-only MCP server on stdin/stdout (docs/mcp.md)";

export function globalHelp(commands: CliCommand<unknown>[]): string {
  const width = Math.max(...commands.map((c) => c.name.length), 3) + 2;
  const rows = [...commands.map((c) => [c.name, c.summary]), ["mcp", MCP_SUMMARY]];
  return [
    "Usage: npm run cli -- <command> [options]",
    "",
    ...rows.map(([name, summary]) => `  ${name.padEnd(width)}${summary}`),
    "",
    "Help on one command: npm run cli -- <command> --help",
    "With `npm start` running on the embedded database, commands run inside the server (docs/operations.md).",
    "",
  ].join("\n");
}

export function commandHelp(command: CliCommand<unknown>): string {
  const options = Object.entries(command.options).map(([name, o]) => {
    const flag = `--${name}${o.type === "string" ? ` ${o.value ?? "VALUE"}` : ""}`;
    return [flag, `${o.description}${o.multiple ? " (repeatable)" : ""}`];
  });
  options.push(["--help, -h", "this help"]);
  const width = Math.max(...options.map(([flag]) => flag.length)) + 2;
  const serverNote =
    command.whileServerRuns === "relay"
      ? "While `npm start` runs on the embedded database, this command runs inside the server."
      : `While \`npm start\` runs on the embedded database, this command refuses to run: ${command.whileServerRuns.refuse}.`;
  return [
    `Usage: npm run cli -- ${command.name}${command.args ? ` ${command.args}` : ""}${options.length > 1 ? " [options]" : ""}`,
    "",
    `  ${command.summary}`,
    "",
    "Options:",
    ...options.map(([flag, text]) => `  ${flag.padEnd(width)}${text}`),
    "",
    command.examples.length > 1 ? "Examples:" : "Example:",
    ...command.examples.map((e) => `  ${e}`),
    "",
    serverNote,
    "",
  ].join("\n");
}

export const mcpHelp = [
  "Usage: npm run mcp   (or npm run cli -- mcp)",
  "",
  `  ${MCP_SUMMARY}`,
  "",
  "Settings come from the environment: MCP_AUTH_TOKEN, MCP_TENANT, SSE_URL, MCP_AUTHORIZATION (docs/mcp.md).",
  "With `npm start` running on the embedded database it relays to the server.",
  "",
].join("\n");
