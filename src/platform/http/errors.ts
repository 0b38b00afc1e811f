import { STATUS_CODES } from "node:http";
import { z } from "zod";

export interface FieldError {
  path: string;
  message: string;
}

/** RFC 9457 problem details: the one error body of every route. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  errors?: FieldError[];
  [extension: string]: unknown;
}

export const problemSchema = z
  .object({
    type: z.string().describe("URI naming the kind of problem, e.g. urn:cuadra:problem:not-found"),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    instance: z.string().describe("The request path"),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .catchall(z.unknown())
  .describe("RFC 9457 problem details (application/problem+json)");

export const PROBLEM_TYPE_PREFIX = "urn:cuadra:problem:";

const CODE_BY_STATUS: Record<number, string> = {
  400: "bad-request",
  401: "unauthorized",
  403: "forbidden",
  404: "not-found",
  405: "method-not-allowed",
  406: "not-acceptable",
  408: "request-timeout",
  409: "conflict",
  413: "payload-too-large",
  414: "uri-too-long",
  415: "unsupported-media-type",
  422: "unprocessable",
  429: "too-many-requests",
  431: "headers-too-large",
  500: "internal",
  503: "unavailable",
  507: "insufficient-storage",
};

export function problemType(status: number, code?: string): string {
  return PROBLEM_TYPE_PREFIX + (code ?? CODE_BY_STATUS[status] ?? `http-${status}`);
}

export function makeProblem(
  status: number,
  detail: string,
  instance: string,
  extra: { code?: string; errors?: FieldError[]; extensions?: Record<string, unknown> } = {},
): Problem {
  const body: Problem = {
    type: problemType(status, extra.code),
    title: STATUS_CODES[status] ?? "Error",
    status,
    detail,
    instance,
    ...extra.extensions,
  };
  if (extra.errors?.length) body.errors = extra.errors;
  return body;
}

/** Domain and HTTP errors thrown by services and routes; the error handler renders them. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly options: {
      code?: string;
      errors?: FieldError[];
      headers?: Record<string, string>;
      extensions?: Record<string, unknown>;
    } = {},
  ) {
    super(message);
  }
}

export class BadRequestError extends AppError {
  constructor(message: string, errors?: FieldError[]) {
    super(400, message, { code: "validation", errors });
  }
}
export class UnauthorizedError extends AppError {
  constructor(message = "Missing or invalid credentials") {
    super(401, message, { headers: { "www-authenticate": 'Bearer realm="cuadra"' } });
  }
}
export class ForbiddenError extends AppError {
  constructor(message = "You do not have permission to do this") {
    super(403, message);
  }
}
export class NotFoundError extends AppError {
  constructor(what = "Resource") {
    super(404, `${what} not found`);
  }
}
export class ConflictError extends AppError {
  constructor(message: string, extensions?: Record<string, unknown>) {
    super(409, message, { extensions });
  }
}
export class PayloadTooLargeError extends AppError {
  constructor(maxBytes: number) {
    super(413, `The upload is larger than the ${Math.round(maxBytes / 1024 / 1024)} MB allowed`);
  }
}
export class UnsupportedMediaTypeError extends AppError {
  constructor(message: string) {
    super(415, message);
  }
}
export class TooManyRequestsError extends AppError {
  constructor(message: string, retryAfterSeconds: number) {
    super(429, message, {
      headers: { "retry-after": String(Math.max(1, Math.ceil(retryAfterSeconds))) },
      extensions: { retry_after: Math.max(1, Math.ceil(retryAfterSeconds)) },
    });
  }
}
export class ServiceUnavailableError extends AppError {
  constructor(message = "The database is unavailable; try again shortly") {
    super(503, message, { headers: { "retry-after": "5" } });
  }
}

/** The file storage has no room left (ENOSPC, quota): nothing was kept. */
export class InsufficientStorageError extends AppError {
  constructor() {
    super(507, "The file storage is full; nothing was saved. Try again once space has been freed", {
      code: "storage-full",
    });
  }
}

/** The file storage cannot be written or read (permissions, read-only or failing disk). */
export class StorageUnavailableError extends AppError {
  constructor() {
    super(503, "The file storage is unavailable; nothing was saved. Try again shortly", {
      code: "storage-unavailable",
      headers: { "retry-after": "30" },
    });
  }
}

/**
 * A record whose stored file is gone from disk: a 404 naming the file for the client, and an
 * integrity error in the log for the operator (the error handler logs it).
 */
export class MissingStoredFileError extends AppError {
  constructor(
    message: string,
    readonly storageKey: string,
  ) {
    super(404, message, { code: "stored-file-missing" });
  }
}

/** Response schemas every route shares, so each declares all the statuses it can return. */
export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [s, problemSchema])) as Record<number, typeof problemSchema>;

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

/** The response of a route that answers 204 with no body. */
export const noContent = { 204: z.null().describe("No content") };
