import { ConfigError } from "../config.js";
import { AppError } from "../platform/http/errors.js";
import { DataDirBusyError } from "../runtime/data-dir-lock.js";
import { DamagedDatabaseError } from "../runtime/embedded-open.js";
import { CliError, CliUsageError } from "./command.js";

/** Postgres error codes an operator can act on. */
const DATABASE_ERRORS: Record<string, string> = {
  "22P02": "a value has the wrong form",
  "23503": "it refers to a record that does not exist",
  "23505": "it already exists",
  "23514": "a value breaks a rule of the database",
  "57P01": "the database server shut down",
  "3D000": "the database does not exist",
  "28P01": "the database refused the password",
};

interface DatabaseErrorLike {
  code?: string;
  message: string;
}

function databaseCause(err: unknown): DatabaseErrorLike | null {
  for (let e = err; e instanceof Error; e = (e as { cause?: unknown }).cause) {
    const code = (e as DatabaseErrorLike).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return { code, message: e.message };
  }
  return null;
}

/**
 * What the operator reads when a command fails: one message, never SQL (a failed query's text and
 * parameters) and never a stack. `expected` is false for what looks like a bug.
 */
export function describeCliError(err: unknown): { message: string; expected: boolean } {
  if (
    err instanceof CliError ||
    err instanceof CliUsageError ||
    err instanceof ConfigError ||
    err instanceof DataDirBusyError ||
    err instanceof DamagedDatabaseError
  ) {
    return { message: err.message, expected: true };
  }
  if (err instanceof AppError) return { message: err.message, expected: true };
  const db = databaseCause(err);
  if (db) {
    const known = db.code ? DATABASE_ERRORS[db.code] : undefined;
    return {
      message: `The database refused the change: ${known ? `${known} (${db.message})` : db.message}`,
      expected: Boolean(known),
    };
  }
  if (err instanceof Error && err.message.startsWith("Failed query")) {
    const cause = (err as { cause?: unknown }).cause;
    return {
      message: `The database refused the change${cause instanceof Error ? `: ${cause.message}` : ""}`,
      expected: false,
    };
  }
  const message = err instanceof Error ? err.message.split("\n")[0] : String(err);
  return { message, expected: false };
}
