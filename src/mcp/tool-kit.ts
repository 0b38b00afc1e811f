import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/server";
import { z } from "zod";
import { sqlState } from "../platform/db/sql.js";
import type { AuthedCtx } from "../platform/http/context.js";
import { AppError } from "../platform/http/errors.js";
import type { ToolAccess } from "./principal.js";

/** Every tool reads and nothing else: the annotations say so and a read-only transaction enforces it. */
export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

export const MAX_LIMIT = 200;

export const limitArg = z
  .number({ message: "limit must be a whole number from 1 to 200" })
  .int({ message: "limit must be a whole number from 1 to 200" })
  .min(1, { message: "limit must be at least 1" })
  .max(MAX_LIMIT, { message: "limit is at most 200: fetch further pages with offset" })
  .default(50)
  .describe("Page size, 1 to 200 (default 50)");

export const offsetArg = z
  .number({ message: "offset must be a whole number, 0 or more" })
  .int({ message: "offset must be a whole number, 0 or more" })
  .min(0, { message: "offset must be 0 or more" })
  .default(0)
  .describe("Items to skip (default 0); the next page starts at offset + limit");

export const dateArg = (what: string) =>
  z.iso
    .date({ message: `${what} must be a date YYYY-MM-DD, e.g. 2026-01-31` })
    .describe(`${what}, YYYY-MM-DD`);

export const uuidArg = (what: string, from: string) =>
  z
    .uuid({ message: `${what} must be a UUID as returned by ${from}` })
    .describe(`${what} (a UUID from ${from})`);

export const companyIdArg = z
  .uuid({ message: "company_id must be a UUID: the company_id field of any record" })
  .optional()
  .describe(
    "Company to read. Only needed when the tenant has several companies and the token may see all of them; " +
      "a token restricted to one company always reads that company.",
  );

/** A tool's arguments: unknown ones are refused, naming those the tool accepts. */
export const toolArgs = <T extends z.ZodRawShape>(shape: T) =>
  z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `Unknown argument ${issue.keys.join(", ")}: this tool accepts ${Object.keys(shape).join(", ")}`
        : undefined,
  });

/** A list result: one page of items with the total matching the filters. */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    total: z.number().int().describe("Items matching the filters, across all pages"),
    limit: z.number().int(),
    offset: z.number().int(),
  });

export interface ToolSpec<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  access: ToolAccess;
  input: I;
  output: O;
  /** What the assistant should do when the record asked for does not exist. */
  notFoundHint: string;
  run(ctx: AuthedCtx, args: z.output<I>): Promise<z.input<O>>;
}

/** Keeps each tool's own argument and result types while the registry holds them all alike. */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(spec: ToolSpec<I, O>): ToolSpec {
  return spec as unknown as ToolSpec;
}

/**
 * Whether a tool's data is checked against its output schema before it is sent: under NODE_ENV=test
 * only, so the whole test suite checks every tool it calls. Tools build their data with the typed
 * serializers the REST routes use (toContactOut...), so in production the check only cost time
 * (~the parse of every row); the SDK never sent the parsed value anyway, only the data (ADR 042).
 */
export const CHECK_TOOL_OUTPUT = process.env.NODE_ENV === "test";

export function toolResult(data: unknown): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(data) }],
    structuredContent: data as Record<string, unknown>,
  };
}

export function toolError(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

/** A message the assistant can act on; null for internal failures (the caller logs those). */
export function explainFailure(err: unknown, tool: ToolSpec): string | null {
  if (err instanceof AppError && err.status < 500) {
    const fields = (err.options.errors ?? []).map((e) => `${e.path} ${e.message}`).join("; ");
    const detail = fields ? `${err.message} (${fields})` : err.message;
    if (err.status === 404) return `${detail}. ${tool.notFoundHint}`;
    if (err.status === 400) return `${detail}. Correct the arguments and call ${tool.name} again.`;
    return detail;
  }
  const state = sqlState(err);
  if (state?.startsWith("22")) {
    return `A value given to ${tool.name} is out of range or malformed. Correct the arguments and try again.`;
  }
  return null;
}

export const INTERNAL_FAILURE =
  "The tool failed because of an internal error (the server logged it). Try again later; if it keeps " +
  "failing, tell the administrator of this Cuadra server.";
