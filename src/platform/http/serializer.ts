import { isDeepStrictEqual } from "node:util";
import fastJson from "fast-json-stringify";
import type { FastifySerializerCompiler } from "fastify/types/schema.js";
import {
  ResponseSerializationError,
  serializerCompiler as zodSerializerCompiler,
} from "fastify-type-provider-zod";
import { z } from "zod";

type JsonSchema = Record<string, unknown>;
type Serialize = (data: unknown) => string;

const PRIMITIVES = new Set(["string", "number", "integer", "boolean"]);

/**
 * The route's zod response schema as the JSON schema fast-json-stringify compiles. Two rewrites,
 * neither of which lets more through than zod did:
 * - `additionalProperties: false` goes: fast-json-stringify writes only the declared properties
 *   of an object whatever that keyword says, but it picks a union branch by validating the data
 *   against it, and an extra field would then match no branch (zod strips it instead);
 * - `anyOf: [T, {type: "null"}]` (zod's nullable) becomes `type: [T, "null"]`, written without
 *   trying each branch.
 */
export function serializationSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, {
    target: "draft-07",
    io: "output",
    unrepresentable: "any",
    cycles: "ref",
    reused: "inline",
  }) as JsonSchema;
  delete json.$schema;
  return rewrite(json) as JsonSchema;
}

function rewrite(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewrite);
  if (node === null || typeof node !== "object") return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "additionalProperties" && value === false) continue;
    // `properties` and `definitions` map names to schemas: rewrite the schemas, keep every name.
    out[key] =
      (key === "properties" || key === "definitions") && value && typeof value === "object"
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewrite(v)]))
        : rewrite(value);
  }
  const anyOf = out.anyOf as JsonSchema[] | undefined;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const isNull = (s: JsonSchema) => s.type === "null" && Object.keys(s).length === 1;
    const other = anyOf.find((s) => !isNull(s));
    const simple =
      other &&
      anyOf.some(isNull) &&
      typeof other.type === "string" &&
      !("anyOf" in other || "oneOf" in other || "allOf" in other || "$ref" in other);
    if (simple) {
      delete out.anyOf;
      const merged = { ...out, ...other, type: [other.type, "null"] } as JsonSchema;
      // fast-json-stringify's enum/const writers reject null; a nullable enum is written as a string.
      if (PRIMITIVES.has(other.type as string)) {
        delete merged.enum;
        delete merged.const;
      }
      return merged;
    }
  }
  return out;
}

const compiled = new WeakMap<object, Serialize>();

/** One fast-json-stringify function per response schema, compiled on its first response. */
export function fastSerializer(schema: z.ZodType): Serialize {
  let serialize = compiled.get(schema);
  if (!serialize) {
    serialize = fastJson(
      serializationSchema(schema) as unknown as Parameters<typeof fastJson>[0],
    ) as Serialize;
    compiled.set(schema, serialize);
  }
  return serialize;
}

/**
 * Responses are written by fast-json-stringify from each route's response schema (declared
 * properties only, so an unknown field never leaks), not zod-parsed row by row. With `strict`
 * (NODE_ENV=test) every response is also zod-encoded as before: a response that breaks its
 * schema fails loudly, and one the two writers would render differently fails too, so the whole
 * test suite checks the fast path against zod.
 */
export function createResponseSerializerCompiler(opts: {
  strict: boolean;
}): FastifySerializerCompiler<unknown> {
  return (route) => {
    const schema = route.schema;
    // Content-type keyed responses (files, CSV) keep zod's serializer.
    if (!(schema instanceof z.ZodType)) return zodSerializerCompiler(route as never);
    let fast: Serialize | undefined;
    if (!opts.strict)
      return (data) => {
        fast ??= fastSerializer(schema);
        return fast(data);
      };
    return (data) => {
      const checked = z.safeEncode(schema, data);
      if (checked.error)
        throw new ResponseSerializationError(route.method, route.url, { cause: checked.error });
      fast ??= fastSerializer(schema);
      const written = fast(data);
      const expected = JSON.stringify(checked.data);
      if (!isDeepStrictEqual(JSON.parse(written), JSON.parse(expected))) {
        throw new Error(
          `Response of ${route.method} ${route.url}: fast-json-stringify wrote ${written}, zod ${expected}`,
        );
      }
      return written;
    };
  };
}
