import { createHash } from "node:crypto";
import { and, eq, lt, or, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from "fastify";
import type { Db } from "../db/client.js";
import { idempotencyKeys } from "../db/tables.js";
import { AppError, BadRequestError, ConflictError, errorResponses, statusMap } from "./errors.js";
import "./route-config.js";

/**
 * `Idempotency-Key` on the POST routes of both APIs, with Stripe's semantics: the first request
 * with a key runs and its answer (status, body, Content-Type, Location) is stored; for 24 hours
 * the same tenant and user sending the same key with the same method, URL and body get that
 * answer again (with `Idempotent-Replayed: true`) and nothing runs twice; the same key with
 * another request is a 422; a retry while the first is still running is a 409. Answers of 500
 * and above are not stored (the write did not happen or is unknown: the retry runs). Requests
 * refused before they run (authentication, permission, validation) store nothing either.
 */
export const IDEMPOTENCY_HEADER = "idempotency-key";
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A record still "running" after this long belongs to a request that died with its node. */
export const IDEMPOTENCY_ABANDONED_MS = 60 * 1000;
const KEY = /^[\x21-\x7e]{1,255}$/;
const REPLAYED_HEADERS = ["content-type", "location", "content-disposition"];
const PURGE_EVERY_MS = 10 * 60 * 1000;

interface IdempotencyState {
  tenantId: string;
  userId: string;
  key: string;
  db: Db;
}

declare module "fastify" {
  interface FastifyRequest {
    idempotency: IdempotencyState | null;
  }
}

type RouteLike = Pick<RouteOptions, "method" | "config" | "schema">;

/** POST routes of an authenticated caller whose body is JSON (uploads are read by the handler). */
export function acceptsIdempotencyKey(route: RouteLike): boolean {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  if (!methods.includes("POST")) return false;
  const config = route.config ?? {};
  if (config.auth === "public" || config.credentials === "mcp-token") return false;
  return !(route.schema as { consumes?: unknown } | undefined)?.consumes;
}

/** The header as an OpenAPI parameter, for the docs of the routes that accept it. */
export const idempotencyKeyHeaderSchema = {
  type: "object",
  properties: {
    "Idempotency-Key": {
      type: "string",
      minLength: 1,
      maxLength: 255,
      pattern: "^[\\x21-\\x7e]+$",
      description:
        "Makes the POST safe to retry: the first answer to this key (status and body) is stored for 24 h " +
        "and replayed, with `Idempotent-Replayed: true`, to the same user sending the same key and request; " +
        "the same key with a different request is a 422, a retry while the first is running a 409. " +
        "Any unique string, e.g. a UUID. See docs/errors.md.",
    },
  },
};

function requestHash(request: FastifyRequest): string {
  return createHash("sha256")
    .update(`${request.method} ${request.url}\n`)
    .update(stableJson(request.body ?? null))
    .digest("hex");
}

/** JSON with object keys sorted: the same body sent with its keys in another order is the same request. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object" && !(value instanceof Date)) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

export function registerIdempotency(app: FastifyInstance) {
  app.decorateRequest("idempotency", null);
  const lastPurge = new Map<string, number>();

  // Routes that accept the key may answer 409 (the first request is still running) and 422.
  app.addHook("onRoute", (route) => {
    if (!acceptsIdempotencyKey(route) || !route.schema?.response) return;
    route.schema = {
      ...route.schema,
      response: statusMap(errorResponses(409, 422), route.schema.response as Record<string, unknown>),
    };
  });

  app.addHook("preHandler", async (request, reply) => {
    const header = request.headers[IDEMPOTENCY_HEADER];
    if (header === undefined || !request.actor || !request.tenant) return;
    // GET, PUT and DELETE are idempotent by themselves: the header is ignored there, as Stripe does.
    if (request.method !== "POST" || request.routeOptions.config?.credentials === "mcp-token") return;
    if (!acceptsIdempotencyKey(request.routeOptions as RouteLike)) {
      throw new BadRequestError("File uploads do not accept an Idempotency-Key", [
        { path: "headers.idempotency-key", message: "is only accepted on POST routes with a JSON body" },
      ]);
    }
    if (typeof header !== "string" || !KEY.test(header)) {
      throw new BadRequestError("Invalid Idempotency-Key", [
        { path: "headers.idempotency-key", message: "must be 1 to 255 visible ASCII characters" },
      ]);
    }
    const db = request.tenant.handle.db;
    const state: IdempotencyState = {
      tenantId: request.tenant.id,
      userId: request.actor.userId,
      key: header,
      db,
    };
    const hash = requestHash(request);
    const now = new Date();
    const expiresAt = new Date(now.getTime() + IDEMPOTENCY_TTL_MS);
    const mine = and(
      eq(idempotencyKeys.tenantId, state.tenantId),
      eq(idempotencyKeys.userId, state.userId),
      eq(idempotencyKeys.key, state.key),
    );

    const claimed = await db
      .insert(idempotencyKeys)
      .values({
        tenantId: state.tenantId,
        userId: state.userId,
        key: state.key,
        requestHash: hash,
        expiresAt,
      })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (claimed.length) {
      request.idempotency = state;
      await purgeExpired(db, state.tenantId, lastPurge);
      return;
    }

    // Taken: an expired record, or one abandoned while running, is claimed again in one statement.
    const retaken = await db
      .update(idempotencyKeys)
      .set({
        requestHash: hash,
        status: null,
        responseBody: null,
        responseHeaders: null,
        createdAt: now,
        expiresAt,
      })
      .where(
        and(
          mine,
          or(
            lt(idempotencyKeys.expiresAt, now),
            and(
              sql`${idempotencyKeys.status} is null`,
              lt(idempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_ABANDONED_MS)),
            ),
          ),
        ),
      )
      .returning({ key: idempotencyKeys.key });
    if (retaken.length) {
      request.idempotency = state;
      return;
    }

    const [stored] = await db.select().from(idempotencyKeys).where(mine);
    if (!stored) throw new ConflictError("The Idempotency-Key is being released; retry the request");
    if (stored.requestHash !== hash) {
      throw new AppError(
        422,
        "This Idempotency-Key was used with a different request; use a new key for a new request",
        { code: "idempotency-key-reused" },
      );
    }
    if (stored.status === null) {
      throw new ConflictError(
        "A request with this Idempotency-Key is still being processed; retry after it finishes",
      );
    }
    return replay(reply, stored.status, stored.responseBody ?? "", stored.responseHeaders ?? {});
  });

  // Callback-style: a request without a key (nearly all) passes with no promise made for it.
  app.addHook("onSend", (request, reply, payload, done) => {
    const state = request.idempotency;
    if (!state) return done(null, payload);
    request.idempotency = null;
    storeAnswer(state, reply, payload).then((stored) => done(null, stored), done);
  });
}

/** Stores the first answer to a keyed request for replay (or releases the key when it cannot be replayed). */
async function storeAnswer(state: IdempotencyState, reply: FastifyReply, payload: unknown) {
  const mine = and(
    eq(idempotencyKeys.tenantId, state.tenantId),
    eq(idempotencyKeys.userId, state.userId),
    eq(idempotencyKeys.key, state.key),
  );
  const body =
    payload === undefined || payload === null
      ? ""
      : typeof payload === "string"
        ? payload
        : Buffer.isBuffer(payload)
          ? payload.toString()
          : null;
  if (reply.statusCode >= 500 || body === null) {
    // Not stored: the write failed or its outcome is unknown (or the answer is a stream); a retry runs.
    await state.db.delete(idempotencyKeys).where(mine);
    return payload;
  }
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  await state.db
    .update(idempotencyKeys)
    .set({ status: reply.statusCode, responseBody: body, responseHeaders: headers })
    .where(mine);
  return payload;
}

function replay(reply: FastifyReply, status: number, body: string, headers: Record<string, string>) {
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  reply.header("idempotent-replayed", "true");
  return reply.code(status).send(body);
}

async function purgeExpired(db: Db, tenantId: string, lastPurge: Map<string, number>) {
  const now = Date.now();
  if (now - (lastPurge.get(tenantId) ?? 0) < PURGE_EVERY_MS) return;
  lastPurge.set(tenantId, now);
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, new Date(now)));
}
