import type { FastifyInstance } from "fastify";
import { errorResponses, statusMap } from "./errors.js";
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
