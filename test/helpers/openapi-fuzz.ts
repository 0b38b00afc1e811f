import fc from "fast-check";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import type { TestApp } from "./app.js";

/**
 * Schema-derived malformed requests for every operation of an OpenAPI document: path parameters,
 * query strings and bodies built from the declared schemas, then bent (wrong types, missing or
 * unknown fields, out-of-range numbers, broken strings, bodies that are not JSON...). A finding is
 * any 5xx, or an error answer that is not application/problem+json with its status.
 */

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI documents are walked by hand
type Json = any;

export interface Operation {
  method: string;
  path: string;
  op: Json;
}

export interface Finding {
  operation: string;
  request: string;
  status: number;
  contentType: string;
  body: string;
}

const METHODS = ["get", "post", "put", "patch", "delete"];

/** MCP speaks JSON-RPC, not problem+json: its protocol errors are excepted. */
const isMcp = (path: string) => /\/mcp(\/|$)/.test(path);

export function operationsOf(spec: Json): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries<Json>(spec.paths ?? {})) {
    if (isMcp(path)) continue;
    for (const method of METHODS) if (item[method]) out.push({ method, path, op: item[method] });
  }
  return out;
}

const junkString = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom(
    "",
    " ",
    "null",
    "-1",
    "1e309",
    "99999999999999999999999",
    "0.123456789",
    " 12.50 ",
    "2024-02-30",
    "30/02/26",
    "%00",
    "\u0000",
    "'; drop table x; --",
    "../../etc/passwd",
    "ñ€😀",
    "a".repeat(3000),
  ),
);
const junkJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  junkString,
  fc.constantFrom(null, true, -1, 0, 1.5, 2 ** 53, -(2 ** 63), 1e308),
);

function resolve(spec: Json, schema: Json): Json {
  let s = schema;
  for (let i = 0; i < 10 && s?.$ref; i++) {
    s = s.$ref
      .replace(/^#\//, "")
      .split("/")
      .reduce((node: Json, key: string) => node?.[key], spec);
  }
  return s ?? {};
}

/** A value shaped like `schema` most of the time, and junk the rest. */
function fuzzValue(spec: Json, schema: Json, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(spec, schema);
  const shaped = shapedValue(spec, s, depth);
  return fc.oneof({ arbitrary: shaped, weight: 3 }, { arbitrary: junkJson, weight: 1 });
}

function shapedValue(spec: Json, s: Json, depth: number): fc.Arbitrary<unknown> {
  if (depth > 4) return junkJson;
  const variants = s.anyOf ?? s.oneOf;
  if (Array.isArray(variants) && variants.length) {
    return fc.oneof(...variants.map((v: Json) => shapedValue(spec, resolve(spec, v), depth + 1)));
  }
  if (Array.isArray(s.allOf) && s.allOf.length)
    return shapedValue(spec, resolve(spec, s.allOf[0]), depth + 1);
  if (s.enum) return fc.oneof(fc.constantFrom(...s.enum), junkString);
  if (s.const !== undefined) return fc.constant(s.const);
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== "null") : s.type;
  switch (type) {
    case "object": {
      const props = Object.entries<Json>(s.properties ?? {});
      if (!props.length) return fc.dictionary(fc.string({ maxLength: 8 }), junkJson, { maxKeys: 3 });
      const filled = fc
        .tuple(
          fc.record(Object.fromEntries(props.map(([k, v]) => [k, fuzzValue(spec, v, depth + 1)])), {
            requiredKeys: [],
          }),
          fc.option(fc.dictionary(fc.string({ maxLength: 8 }), junkJson, { maxKeys: 2 }), { nil: undefined }),
        )
        .map(([known, extra]) => ({ ...extra, ...known }));
      // an empty object often: "nothing to change" and "everything missing" are classic 500s
      return fc.oneof({ arbitrary: filled, weight: 3 }, { arbitrary: fc.constant({}), weight: 1 });
    }
    case "array":
      return fc.array(fuzzValue(spec, s.items ?? {}, depth + 1), { maxLength: 4 });
    case "integer":
      return fc.oneof(
        fc.integer({ min: (s.minimum ?? -10) - 2, max: (s.maximum ?? 1000) + 2 }),
        fc.constantFrom(2 ** 31, 2 ** 53, -(2 ** 31) - 1),
      );
    case "number":
      return fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer());
    case "boolean":
      return fc.boolean();
    case "string":
      return stringFor(s);
    default:
      return junkJson;
  }
}

function stringFor(s: Json): fc.Arbitrary<string> {
  const junk = junkString;
  if (s.format === "uuid") return fc.oneof(fc.uuid(), junk);
  if (s.format === "date") {
    return fc.oneof(
      fc
        .date({ min: new Date("1900-01-01"), max: new Date("2100-12-31"), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10)),
      junk,
    );
  }
  if (s.format === "date-time")
    return fc.oneof(
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      junk,
    );
  if (s.format === "email") return fc.oneof(fc.emailAddress(), junk);
  if (typeof s.pattern === "string") {
    try {
      return fc.oneof(fc.stringMatching(new RegExp(s.pattern), { maxLength: 30 }), junk);
    } catch {
      return junk;
    }
  }
  return fc.oneof(
    fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 30, 60) }),
    junk,
  );
}

const contentTypes = (op: Json): string[] => Object.keys(op.requestBody?.content ?? {});

/** Path parameter values: ids that exist (to get past the 404s), random UUIDs and junk. */
function pathValue(known: string[]): fc.Arbitrary<string> {
  const arbs = [
    { arbitrary: fc.uuid(), weight: 1 },
    { arbitrary: junkString.filter((v) => v !== "" && !v.includes("/")), weight: 1 },
  ];
  if (known.length) arbs.push({ arbitrary: fc.constantFrom(...known), weight: 3 });
  return fc.oneof(...arbs).map((v) => encodeURIComponent(v));
}

/** A raw multipart body: with or without its boundary, whole, cut, empty, several files. */
const multipartBody = fc
  .record({
    boundary: fc.constantFrom("----fuzz", ""),
    field: fc.constantFrom("file", "other", ""),
    files: fc.integer({ min: 0, max: 2 }),
    content: fc.uint8Array({ maxLength: 200 }),
    cut: fc.nat(400),
    close: fc.boolean(),
  })
  .map(({ boundary, field, files, content, cut, close }) => {
    const b = boundary || "----fuzz";
    const parts: Buffer[] = [];
    for (let i = 0; i < files; i++) {
      parts.push(
        Buffer.from(
          `--${b}\r\nContent-Disposition: form-data; name="${field}"; filename="f${i}.pdf"\r\n` +
            "Content-Type: application/octet-stream\r\n\r\n",
        ),
        Buffer.from(content),
        Buffer.from("\r\n"),
      );
    }
    if (close) parts.push(Buffer.from(`--${b}--\r\n`));
    const whole = Buffer.concat(parts);
    return {
      payload: cut > 200 ? whole : whole.subarray(0, Math.min(whole.length, cut)),
      contentType: boundary ? `multipart/form-data; boundary=${boundary}` : "multipart/form-data",
    };
  });

/** One malformed (or occasionally valid) request for the operation. */
export function requestFor(spec: Json, operation: Operation, known: string[]): fc.Arbitrary<InjectOptions> {
  const params: Json[] = operation.op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === "path");
  const queryParams = params.filter((p) => p.in === "query");
  const types = contentTypes(operation.op);
  const hasBody = types.length > 0;
  const isMultipart = types.some((t) => t.startsWith("multipart/"));
  const schema = types.includes("application/json")
    ? operation.op.requestBody.content["application/json"].schema
    : {};

  const path = fc.tuple(...pathParams.map(() => pathValue(known))).map((values) => {
    let url = operation.path;
    pathParams.forEach((p, i) => {
      url = url.replace(`{${p.name}}`, values[i]);
    });
    return url;
  });
  const query = fc
    .tuple(
      fc.record(
        Object.fromEntries(
          queryParams.map((p) => [
            p.name,
            fuzzValue(spec, p.schema ?? {}).map((v) => (typeof v === "string" ? v : JSON.stringify(v))),
          ]),
        ),
        { requiredKeys: [] },
      ),
      fc.option(
        fc.dictionary(fc.constantFrom("x", "limit", "skip", "offset", "__proto__"), junkString, {
          maxKeys: 2,
        }),
        {
          nil: undefined,
        },
      ),
    )
    .map(([declared, extra]) => {
      const qs = new URLSearchParams({ ...extra, ...declared } as Record<string, string>).toString();
      return qs ? `?${qs}` : "";
    });

  const jsonBody = fuzzValue(spec, schema).map((v) => ({
    payload: JSON.stringify(v) ?? "",
    contentType: "application/json",
  }));
  const rawBody = fc.oneof(
    fc.constant({ payload: "{", contentType: "application/json" }),
    fc.constant({ payload: "", contentType: "application/json" }),
    fc.string({ maxLength: 40 }).map((s) => ({ payload: s, contentType: "text/plain" })),
    fc.constant({ payload: "a=1", contentType: "application/x-www-form-urlencoded" }),
  );
  const body = isMultipart
    ? fc.oneof({ arbitrary: multipartBody, weight: 4 }, { arbitrary: rawBody, weight: 1 })
    : hasBody
      ? fc.oneof({ arbitrary: jsonBody, weight: 4 }, { arbitrary: rawBody, weight: 1 })
      : fc.oneof({ arbitrary: fc.constant(undefined), weight: 5 }, { arbitrary: jsonBody, weight: 1 });

  return fc.tuple(path, query, body).map(([url, qs, b]) => ({
    method: operation.method.toUpperCase() as InjectOptions["method"],
    url: `${url}${qs}`,
    ...(b ? { payload: b.payload, headers: { "content-type": b.contentType } } : {}),
  }));
}

/** Why an answer is a finding, or undefined when it is fine. */
export function problemWith(res: LightMyRequestResponse): string | undefined {
  if (res.statusCode >= 500) return `status ${res.statusCode}`;
  if (res.statusCode < 400) return undefined;
  const type = String(res.headers["content-type"] ?? "");
  if (!type.startsWith("application/problem+json")) return `error body is ${type || "untyped"}`;
  try {
    const body = JSON.parse(res.body);
    if (body.status !== res.statusCode) return `problem status ${body.status} on a ${res.statusCode}`;
  } catch {
    return "problem body is not JSON";
  }
  return undefined;
}

/** Ids of records that exist: every `id` in the first page of each list that needs no parameter. */
export async function knownIds(t: TestApp, token: string, operations: Operation[]): Promise<string[]> {
  const ids = new Set<string>();
  for (const { method, path, op } of operations) {
    if (method !== "get" || path.includes("{") || (op.parameters ?? []).some((p: Json) => p.required))
      continue;
    const res = await t.as(token, { method: "GET", url: path });
    if (res.statusCode !== 200 || !String(res.headers["content-type"]).includes("json")) continue;
    const body = res.json();
    const rows = Array.isArray(body) ? body : Array.isArray(body?.data) ? body.data : [];
    for (const row of rows.slice(0, 3)) if (typeof row?.id === "string") ids.add(row.id);
  }
  return [...ids];
}

/**
 * Sends `runs` requests per operation as the administrator (logging in again whenever a request,
 * such as a logout, revoked its session) and returns every finding.
 */
export async function fuzzDocument(
  t: TestApp,
  spec: Json,
  options: { runs: number; seed: number; login: () => Promise<string> },
): Promise<{ findings: Finding[]; requests: number; operations: number }> {
  const operations = operationsOf(spec);
  let token = await options.login();
  const known = await knownIds(t, token, operations);
  const findings: Finding[] = [];
  let requests = 0;
  for (const operation of operations) {
    const samples = fc.sample(requestFor(spec, operation, known), {
      numRuns: options.runs,
      seed: options.seed,
    });
    for (const request of samples) {
      let res = await t.as(token, request);
      requests++;
      if (
        res.statusCode === 401 &&
        (await t.as(token, { method: "GET", url: "/api/v1/users/me" })).statusCode === 401
      ) {
        token = await options.login(); // an earlier request (a logout) revoked the session: again
        res = await t.as(token, request);
      }
      const problem = problemWith(res);
      if (problem) {
        findings.push({
          operation: `${operation.method.toUpperCase()} ${operation.path}`,
          request: `${request.method} ${String(request.url).slice(0, 300)} ${String(request.payload ?? "").slice(0, 300)}`,
          status: res.statusCode,
          contentType: String(res.headers["content-type"] ?? ""),
          body: `${problem}: ${res.body.slice(0, 300)}`,
        });
      }
    }
  }
  return { findings, requests, operations: operations.length };
}
