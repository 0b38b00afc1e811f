import type { StandardSchemaWithJSON, Tool } from "@modelcontextprotocol/server";
import { z } from "zod";
import { READ_ONLY, type ToolSpec } from "./tool-kit.js";
import { TOOLS } from "./tools/index.js";

/** The draft the SDK converts every tool schema to (its JSON_SCHEMA_CONVERSION_TARGET). */
const TARGET = "draft-2020-12";

type Json = Record<string, unknown>;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * A Zod schema as the SDK takes it (Standard Schema with JSON Schema), its JSON Schema converted
 * once per process: the SDK converts a tool's schemas on every server that serves a call (the
 * Mcp-Param header scan, the output projection), and HTTP builds a server per request. Validation
 * stays Zod's own, messages included. The JSON is frozen: no request can alter what the next sees.
 */
export interface ConvertedSchema {
  schema: StandardSchemaWithJSON;
  input: Json;
  output: Json;
}

export function convertOnce(zod: z.ZodType): ConvertedSchema {
  const std = zod["~standard"] as StandardSchemaWithJSON["~standard"];
  const input = deepFreeze(std.jsonSchema.input({ target: TARGET }) as Json);
  const output = deepFreeze(std.jsonSchema.output({ target: TARGET }) as Json);
  const schema: StandardSchemaWithJSON = {
    "~standard": {
      version: 1,
      vendor: std.vendor,
      validate: std.validate,
      jsonSchema: { input: () => input, output: () => output },
    },
  };
  return { schema, input, output };
}

/** What a tool is registered with, built once per process rather than at every stateless request. */
export interface PreparedTool {
  spec: ToolSpec;
  input: StandardSchemaWithJSON;
  output: StandardSchemaWithJSON;
  /** Its tools/list entry. */
  listed: Tool;
}

/** The arguments of a tool the principal may not call: anything, answered with the reason. */
export const ANY_ARGUMENTS = convertOnce(z.object({}).loose()).schema;

function prepare(spec: ToolSpec): PreparedTool {
  const input = convertOnce(spec.input);
  const output = convertOnce(spec.output);
  return {
    spec,
    input: input.schema,
    output: output.schema,
    listed: deepFreeze({
      name: spec.name,
      title: spec.title,
      description: spec.description,
      inputSchema: { type: "object", ...input.input } as Tool["inputSchema"],
      outputSchema: { type: "object", ...output.output } as Tool["outputSchema"],
      annotations: READ_ONLY,
    }),
  };
}

export const PREPARED_TOOLS: readonly PreparedTool[] = TOOLS.map(prepare);
