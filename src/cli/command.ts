import type { Config } from "../config.js";
import type { DatabaseHandle } from "../platform/db/client.js";

/** What a command tells its operator; the same calls whether it runs in the CLI or inside the server. */
export interface CommandIo {
  /** The result (stdout): what a script may capture, e.g. the token of `api-token create`. */
  out(line: string): void;
  /** A warning (stderr). */
  warn(line: string): void;
  /** Where long work is (stderr), e.g. "ledger (3/9)". */
  progress(line: string): void;
}

export interface CommandEnv {
  config: Config;
  /** The main database (with BASE_DOMAIN: the tenant registry). */
  main(): Promise<DatabaseHandle>;
  /** The database of `--tenant SLUG`, or the main one without it. */
  database(tenant: string | undefined): Promise<DatabaseHandle>;
  /** "direct": this process opened the databases; "server": running inside the server that holds them. */
  where: "direct" | "server";
}

export interface CliOption {
  type: "string" | "boolean";
  multiple?: boolean;
  /** The value's placeholder in the help, e.g. "SLUG". */
  value?: string;
  description: string;
}

export type ParsedValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

/**
 * One operator command. `parse` runs in the CLI process (bad arguments fail there, before any database
 * is touched, and files are read there); `run` gets only what parse returned, as JSON, so the same code
 * runs in the CLI process or, relayed, inside the server that holds the embedded data directory.
 */
export interface CliCommand<Input = unknown> {
  /** The words after `npm run cli --`, e.g. "tenant create". */
  name: string;
  summary: string;
  /** Positional arguments for the help, e.g. "<slug>". */
  args?: string;
  options: Record<string, CliOption>;
  examples: string[];
  /** With a server on the embedded data directory: run inside it, or refuse with this reason. */
  whileServerRuns: "relay" | { refuse: string };
  parse(values: ParsedValues, positionals: string[], config: Config): Input;
  run(env: CommandEnv, input: Input, io: CommandIo): Promise<void>;
}

/** Wrong arguments: the message and a pointer to the command's help, never a stack. */
export class CliUsageError extends Error {}

/** An expected failure (unknown tenant, no such user...): the message alone. */
export class CliError extends Error {}

export const defineCommand = <Input>(command: CliCommand<Input>): CliCommand<Input> => command;

export const TENANT_OPTION: CliOption = {
  type: "string",
  value: "SLUG",
  description: "act on this tenant's database (multi-tenant mode, BASE_DOMAIN set)",
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function stringOption(values: ParsedValues, name: string): string | undefined {
  const value = values[name];
  return typeof value === "string" ? value : undefined;
}

export function requiredOption(values: ParsedValues, name: string): string {
  const value = stringOption(values, name);
  if (!value) throw new CliUsageError(`--${name} is required`);
  return value;
}

export function uuidOption(values: ParsedValues, name: string): string | undefined {
  const value = stringOption(values, name);
  if (value !== undefined && !UUID.test(value))
    throw new CliUsageError(`--${name} must be an id (a UUID such as 0190a5c2-7b1e-7c3d-9f00-1234567890ab)`);
  return value;
}

export function positiveIntOption(values: ParsedValues, name: string): number | undefined {
  const value = stringOption(values, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new CliUsageError(`--${name} must be a whole number above 0`);
  return Number(value);
}

export function requiredArg(positionals: string[], what: string): string {
  const value = positionals[0];
  if (!value) throw new CliUsageError(`the ${what} is missing`);
  if (positionals.length > 1) throw new CliUsageError(`unexpected argument ${positionals[1]}`);
  return value;
}

export function noArgs(positionals: string[]) {
  if (positionals.length) throw new CliUsageError(`unexpected argument ${positionals[0]}`);
}
