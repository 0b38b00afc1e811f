import { STATUS_CODES } from "node:http";
import { z } from "zod";
import { problemSchema } from "./errors.js";

/**
 * What @fastify/swagger builds from the route schemas, finished into a document client generators
 * and gateways accept (redocly lint, 0 errors): one `Problem` component every error references
 * with its real media type, response descriptions, security stated on every operation (public
 * ones say `[]`), servers, license and tag descriptions.
 */

export const PROBLEM_MEDIA_TYPE = "application/problem+json";
const PROBLEM_REF = "#/components/schemas/Problem";

/** Why an operation answers each error status; a route's own description of a status wins. */
const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "The request is invalid: a malformed body, query or path, or a business rule refused it (`errors` names each field)",
  401: "Missing, expired or revoked credentials (`WWW-Authenticate: Bearer`)",
  403: "The caller does not hold the permission the operation requires",
  404: "Not found, or not visible to the caller (another company's or tenant's record)",
  405: "The method is not offered on this path",
  406: "None of the media types the request accepts can be produced",
  409: "The record's state or another record conflicts with the request",
  413: "The upload is larger than MAX_UPLOAD_MB",
  415: "The request's media type is not accepted",
  422: "The Idempotency-Key was already used with another request",
  429: "Too many attempts: wait the seconds in `Retry-After`",
  500: "Unexpected server error; the log holds the details under the request id (X-Request-Id)",
  503: "The database or file storage is unavailable: retry after the seconds in `Retry-After`",
  507: "The file storage is full: nothing was saved",
};

const RETRY_AFTER = {
  "Retry-After": {
    description: "Seconds to wait before trying again",
    schema: { type: "integer", minimum: 1 },
  },
};

export interface License {
  name: string;
  /** SPDX identifier, when the license has one. */
  identifier?: string;
}

export interface DocumentOptions {
  /** Descriptions of the tags the surface's operations use. */
  tags: Record<string, string>;
  license: License;
}

type Json = Record<string, unknown>;
interface Response {
  description?: string;
  content?: Record<string, { schema?: Json }>;
  headers?: Json;
}
interface Operation {
  summary?: string;
  tags?: string[];
  security?: unknown[];
  responses?: Record<string, Response>;
}

const GENERIC = new Set(["Default Response", problemSchema.description]);
const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"] as const;

let problemComponent: Json | undefined;
function problemJsonSchema(): Json {
  problemComponent ??= z.toJSONSchema(problemSchema, { target: "draft-2020-12", io: "output" }) as Json;
  const { $schema: _drop, ...schema } = problemComponent;
  return schema;
}

export function finishOpenApiDocument(doc: Json, options: DocumentOptions): Json {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Operation>>;
  const usedTags = new Set<string>();
  for (const item of Object.values(paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      op.security ??= [];
      for (const tag of op.tags ?? []) usedTags.add(tag);
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        finishResponse(method, Number(status), response);
      }
    }
  }
  const components = (doc.components ?? {}) as Json;
  const info = (doc.info ?? {}) as Json;
  return {
    ...doc,
    info: { ...info, license: options.license },
    // Relative: the server that served this document, whatever its host (each tenant has its own).
    servers: [{ url: "/", description: "The server that serves this document" }],
    tags: [...usedTags].sort().map((name) => {
      const description = options.tags[name];
      return description ? { name, description } : { name };
    }),
    components: {
      ...components,
      schemas: { ...(components.schemas as Json | undefined), Problem: problemJsonSchema() },
    },
  };
}

function finishResponse(method: string, status: number, response: Response) {
  if (status >= 400) {
    const media = Object.values(response.content ?? {})[0];
    if (!isProblem(media?.schema)) return;
    response.content = { [PROBLEM_MEDIA_TYPE]: { schema: { $ref: PROBLEM_REF } } };
    // The shared schema's own description says what a problem is, not why this status happens.
    if (!response.description || GENERIC.has(response.description)) {
      response.description = ERROR_DESCRIPTIONS[status] ?? STATUS_CODES[status] ?? "Error";
    }
    if (status === 429 || status === 503) response.headers = { ...RETRY_AFTER, ...response.headers };
    return;
  }
  if (response.description && response.description !== "Default Response") return;
  response.description = successDescription(method, status, response);
}

function isProblem(schema: Json | undefined): boolean {
  const properties = schema?.properties as Json | undefined;
  return !!properties && "type" in properties && "instance" in properties && "detail" in properties;
}

function successDescription(method: string, status: number, response: Response): string {
  if (status === 204) return "Done; no content";
  const schema = response.content?.["application/json"]?.schema;
  const properties = (schema?.properties ?? {}) as Json;
  if ("data" in properties && "total" in properties) {
    return "One page of the matching records (`data`), how many match in all (`total`) and the paging applied";
  }
  if (status === 201) return "Created: the new record, as reading it returns it";
  if (method === "put" || method === "patch") return "The record as it is after the change";
  if (method === "get") return "The record";
  return "The result of the operation";
}

/** A multipart/form-data upload: the file part and the text parts beside it (documentation only). */
export interface UploadForm {
  /** What the `file` part holds. */
  file: string;
  /** Text parts, e.g. bank_account_id. */
  fields?: Record<string, { description: string; format?: string; required?: boolean }>;
}

/** The request body of an upload, for the document: the handler reads the parts itself. */
export function uploadBodySchema(form: UploadForm): Json {
  const fields = Object.entries(form.fields ?? {});
  return {
    type: "object",
    required: ["file", ...fields.filter(([, f]) => f.required !== false).map(([name]) => name)],
    properties: {
      file: { type: "string", format: "binary", description: form.file },
      ...Object.fromEntries(
        fields.map(([name, f]) => [
          name,
          { type: "string", description: f.description, ...(f.format ? { format: f.format } : {}) },
        ]),
      ),
    },
  };
}
