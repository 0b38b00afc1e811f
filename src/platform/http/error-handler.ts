import { STATUS_CODES } from "node:http";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { isConnectionError, sqlState } from "../db/sql.js";
import { AppError, type FieldError, MissingStoredFileError, makeProblem, type Problem } from "./errors.js";
import { setSecurityHeaders } from "./security-headers.js";
import { withSourceStack } from "./source-stack.js";
import { malformedMultipart } from "./uploads.js";

const PROBLEM_CONTENT_TYPE = "application/problem+json; charset=utf-8";

export function sendProblem(reply: FastifyReply, problem: Problem, headers: Record<string, string> = {}) {
  for (const [k, v] of Object.entries(headers)) reply.header(k, v);
  return reply.code(problem.status).type(PROBLEM_CONTENT_TYPE).send(problem);
}

function instanceOf(request: FastifyRequest): string {
  return request.url.split("?")[0];
}

/** Fastify's own errors that are the client's fault, by code. */
const FRAMEWORK_ERRORS: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, "The request body is not valid JSON"],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, "The request body is empty but its Content-Type says JSON"],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, "The request body is too large"],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, "Unsupported Content-Type"],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, "Content-Length does not match the body"],
  FST_REQ_FILE_TOO_LARGE: [413, "The uploaded file is too large"],
  FST_FILES_LIMIT: [413, "Too many files in the upload"],
  FST_PARTS_LIMIT: [413, "Too many parts in the upload"],
  FST_FIELDS_LIMIT: [413, "Too many fields in the upload"],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [415, "The request is not multipart/form-data"],
  FST_PROTO_VIOLATION: [400, "A multipart field name is not allowed"],
  FST_INVALID_JSON_FIELD_ERROR: [400, "A multipart field declared as JSON is not valid JSON"],
  FST_ERR_VALIDATION: [400, "The request is not valid"],
};

/** PostgreSQL errors caused by the data sent, mapped to client errors. */
function databaseProblem(state: string): [number, string] | undefined {
  if (state === "23505") return [409, "A record with the same unique value already exists"];
  if (state === "23503")
    return [409, "The record is referenced by, or refers to, a record that does not exist"];
  if (state === "23514" || state === "23502") return [400, "The data breaks a rule of the database"];
  if (state === "40001" || state === "40P01") return [409, "Concurrent update conflict; retry the request"];
  if (state.startsWith("22")) return [400, "A value is out of range or malformed"];
  return undefined;
}

function validationErrors(error: FastifyError): FieldError[] {
  const where = error.validationContext ?? "request";
  return (error.validation ?? []).map((v) => ({
    path: `${where}${v.instancePath === "/" ? "" : v.instancePath}`.replace(/\//g, "."),
    message: v.message ?? "is invalid",
  }));
}

export function registerErrorHandling(app: FastifyInstance) {
  // Bodies are JSON (or multipart uploads). Fastify also parses text/plain into a string, which
  // would reach validation as a confusing 400; without the parser it is a 415 like any other type.
  app.removeContentTypeParser("text/plain");

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const instance = instanceOf(request);
    if (error instanceof AppError) {
      const problem = makeProblem(error.status, error.message, instance, error.options);
      if (error.status >= 500) request.log.error({ err: withSourceStack(error) }, error.message);
      if (error instanceof MissingStoredFileError) {
        request.log.error(
          { integrity: true, storageKey: error.storageKey },
          `integrity error: ${error.message}`,
        );
      }
      return sendProblem(reply, problem, error.options.headers);
    }
    if (hasZodFastifySchemaValidationErrors(error) || error.validation) {
      const errors = validationErrors(error);
      const detail = errors.length
        ? `Invalid request: ${errors.map((e) => `${e.path} ${e.message}`).join("; ")}`
        : "Invalid request";
      return sendProblem(reply, makeProblem(400, detail, instance, { code: "validation", errors }));
    }
    const known = error.code ? FRAMEWORK_ERRORS[error.code] : undefined;
    if (known) return sendProblem(reply, makeProblem(known[0], known[1], instance));
    const multipart = malformedMultipart(error, request.isMultipart?.() ?? false);
    if (multipart) return sendProblem(reply, makeProblem(400, multipart, instance, { code: "validation" }));
    const state = sqlState(error);
    const db = state ? databaseProblem(state) : undefined;
    if (db) {
      request.log.info({ sqlState: state }, "database rejected the request's data");
      return sendProblem(reply, makeProblem(db[0], db[1], instance));
    }
    if (isConnectionError(error)) {
      request.log.error({ err: withSourceStack(error) }, "database unreachable");
      return sendProblem(
        reply,
        makeProblem(503, "The database is unavailable; try again shortly", instance),
        {
          "retry-after": "5",
        },
      );
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return sendProblem(reply, makeProblem(status, error.message, instance));
    }
    request.log.error({ err: withSourceStack(error) }, "unhandled error");
    return sendProblem(reply, makeProblem(500, "An internal error occurred; it has been logged", instance));
  });

  app.setNotFoundHandler((request, reply) =>
    sendProblem(
      reply,
      makeProblem(404, `No route ${request.method} ${instanceOf(request)}`, instanceOf(request)),
    ),
  );
}

/** What Fastify answers before routing (Fastify's `frameworkErrors` option): problems too. */
export function frameworkErrors(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply | undefined {
  const instance = instanceOf(request);
  setSecurityHeaders(reply); // no hook runs for these
  if (error.code === "FST_ERR_BAD_URL") {
    return sendProblem(
      reply,
      makeProblem(400, "The URL is not valid: a path segment has bad percent-encoding", instance),
    );
  }
  if (error.code === "FST_ERR_MAX_PARAM_LENGTH") {
    return sendProblem(reply, makeProblem(414, "A path parameter of the URL is too long", instance));
  }
  const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 400;
  return sendProblem(reply, makeProblem(status, error.message, instance));
}

const CLIENT_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, "The request's headers (URL included) are larger than the server accepts"],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "The request took too long to arrive"],
};

/**
 * Errors of the HTTP parser, before Fastify sees a request (Node's `clientError`): an oversized head
 * (431), a timeout (408), a malformed request (400), written on the socket as problem+json.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: import("node:net").Socket) {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const [status, detail] = (error.code && CLIENT_ERRORS[error.code]) || [400, "The request is malformed"];
  const body = JSON.stringify(makeProblem(status, detail, "/"));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
