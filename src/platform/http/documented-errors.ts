import type { FastifyInstance } from "fastify";
import { errorResponses } from "./errors.js";
import { acceptsIdempotencyKey } from "./idempotency.js";
import "./route-config.js";

/**
 * Adds to every documented route the problem responses that follow from its declaration, so routes
 * list only their own (404, 409, 413...): 400 when it takes input (a body, query, params or headers
 * schema, a `consumes` list, or the Idempotency-Key header), 401 and 403 unless it is public, and
 * 500/503 everywhere. A route's own schema for a status wins.
 */
export function documentCommonErrors(app: FastifyInstance) {
  app.addHook("onRoute", (route) => {
    const schema = route.schema;
    if (!schema?.response) return;
    const statuses: number[] = [];
    // `consumes` declares a request body read by the handler itself (a multipart upload).
    const input = schema.body || schema.querystring || schema.params || schema.headers || schema.consumes;
    // A malformed Idempotency-Key header is a 400 as well.
    if (input || acceptsIdempotencyKey(route)) statuses.push(400);
    if (route.config?.auth !== "public") statuses.push(401, 403);
    statuses.push(500, 503);
    route.schema = {
      ...schema,
      response: statusMap(errorResponses(...statuses), schema.response as Record<string, unknown>),
    };
  });
}

/** Far beyond any status code: V8 stores the keys of an object that had it in a dictionary. */
const FAR_INDEX = 1 << 20;

/**
 * The route's responses keyed by status code, with the later schema for a status winning. V8 keeps
 * an object's integer keys in an array as long as the highest key: an object literal with 200 and
 * 503 holds ~500 slots (~4.5 kB) for its seven entries, once per route (~2 MB over ~470 routes).
 * Seeded with a far index, the object keeps its keys in a dictionary (~0.5 kB); their order
 * (ascending, as for any integer keys) and so the OpenAPI documents are the same.
 */
export function statusMap(...parts: Record<string, unknown>[]): Record<string, unknown> {
  const map: Record<number, unknown> = { [FAR_INDEX]: undefined };
  delete map[FAR_INDEX];
  return Object.assign(map, ...parts);
}
