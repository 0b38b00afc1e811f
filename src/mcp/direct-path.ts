import type { IncomingHttpHeaders } from "node:http";
import type { FastifyReply } from "fastify";
import type { DatabaseHandle } from "../platform/db/client.js";
import { hijack } from "./http.js";
import { type Principal, refusal } from "./principal.js";
import type { McpSdk } from "./sdk.js";
import { type ErrorLog, runTool, SERVER_INFO, TOOL_LIST_TTL_MS } from "./server.js";
import { CHECK_TOOL_OUTPUT } from "./tool-kit.js";
import { PREPARED_TOOLS, type PreparedTool } from "./tool-schemas.js";

/**
 * The direct path of POST /api/mcp (ADR 042): a stateless, single, well-formed `tools/call` or
 * `tools/list` of either era is answered here, straight onto the Node response, instead of by a
 * server the SDK builds per request. It serves only what passes every check the SDK makes of
 * that exact case (its own classifier runs first); for anything else, and for every error the
 * SDK words (unknown tool, arguments refused, a tool the principal may not call), it declines
 * before writing a byte and the SDK serves the request as before. Tests compare both paths'
 * answers byte for byte (direct-path.test.ts).
 */

const MODERN_REVISION = "2026-07-28";
const PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
const ENVELOPE_KEYS = [
  PROTOCOL_VERSION_KEY,
  "io.modelcontextprotocol/clientInfo",
  "io.modelcontextprotocol/clientCapabilities",
];
const MESSAGE_KEYS = ["jsonrpc", "id", "method", "params"];

type Era = "modern" | "legacy";
type Id = string | number;

export type DirectRequest =
  | { era: Era; id: Id; method: "tools/call"; name: string; args: Record<string, unknown> | undefined }
  | { era: Era; id: Id; method: "tools/list" };

/** Served here or left to the SDK; tests read `served` to know the direct path answered. */
export const directPath = { enabled: true, served: 0 };

type Json = Record<string, unknown>;

const isPlainObject = (value: unknown): value is Json =>
  value !== null && typeof value === "object" && !Array.isArray(value);

const hasOnlyKeys = (value: Json, allowed: readonly string[]) =>
  Object.keys(value).every((key) => allowed.includes(key));

/** A header sent once (undefined when absent); null when repeated, which the direct path leaves alone. */
function single(headers: IncomingHttpHeaders, name: string): string | undefined | null {
  const value = headers[name];
  return Array.isArray(value) ? null : value;
}

/** The params of a direct tools/call or tools/list of `era`, or undefined when they need the SDK. */
function paramsFit(era: Era, method: string, params: unknown): boolean {
  if (params === undefined) return era === "legacy" && method === "tools/list";
  if (!isPlainObject(params)) return false;
  const keys = method === "tools/call" ? ["name", "arguments"] : [];
  if (era === "legacy") return hasOnlyKeys(params, keys);
  const meta = params._meta;
  return hasOnlyKeys(params, [...keys, "_meta"]) && isPlainObject(meta) && hasOnlyKeys(meta, ENVELOPE_KEYS);
}

/**
 * What the direct path would serve, or undefined when the request is anything else: the SDK's own
 * classifier must route it as a 2026-07-28 request of that revision (envelope valid, headers
 * agreeing with the body) or as an envelope-less 2025 request, with exactly the headers the SDK
 * requires present (MCP-Protocol-Version, Mcp-Method and Mcp-Name on 2026-07-28; a supported or
 * no MCP-Protocol-Version on 2025), a JSON content type, an Accept of JSON and SSE, and no field
 * the direct path does not know (progress tokens, cursors, tasks...).
 */
export function directRequest(
  sdk: McpSdk,
  headers: IncomingHttpHeaders,
  body: unknown,
): DirectRequest | undefined {
  if (!isPlainObject(body) || !hasOnlyKeys(body, MESSAGE_KEYS)) return undefined;
  const { id, method, params } = body;
  if (method !== "tools/call" && method !== "tools/list") return undefined;
  const contentType = single(headers, "content-type");
  const accept = single(headers, "accept");
  if (!contentType || !sdk.isJsonContentType(contentType)) return undefined;
  if (!accept?.includes("application/json") || !accept.includes("text/event-stream")) return undefined;
  const version = single(headers, "mcp-protocol-version");
  const methodHeader = single(headers, "mcp-method");
  const nameHeader = single(headers, "mcp-name");
  if (version === null || methodHeader === null || nameHeader === null) return undefined;
  const route = sdk.classifyInboundRequest({
    httpMethod: "POST",
    protocolVersionHeader: version,
    mcpMethodHeader: methodHeader,
    mcpNameHeader: nameHeader,
    body,
  });
  let era: Era;
  if (route.kind === "modern") {
    if (route.messageKind !== "request" || route.classification.revision !== MODERN_REVISION)
      return undefined;
    if (version !== MODERN_REVISION || methodHeader !== method) return undefined;
    era = "modern";
  } else if (route.kind === "legacy") {
    if (route.reason !== "no-claim") return undefined;
    if (version !== undefined && !sdk.SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return undefined;
    era = "legacy";
  } else {
    return undefined;
  }
  if (!paramsFit(era, method, params)) return undefined;
  if (typeof id !== "string" && typeof id !== "number") return undefined;
  if (method === "tools/list") return { era, id, method };
  const direct = callOf(era, id, params as Json);
  if (era === "modern" && nameHeader !== direct?.name) return undefined;
  return direct;
}

type DirectCall = Extract<DirectRequest, { method: "tools/call" }>;

function callOf(era: Era, id: Id, params: Json): DirectCall | undefined {
  const { name, arguments: args } = params;
  if (typeof name !== "string" || (args !== undefined && !isPlainObject(args))) return undefined;
  return { era, id, method: "tools/call", name, args };
}

/**
 * A tools/call posted to an initialized SSE session (2025 era) that the direct path can answer:
 * one JSON-RPC request as sent (`body`, before the SDK's parse strips what it does not know) with
 * only a tool name and arguments. tools/list stays with the session's server, which lists what
 * its principal could see when the session opened.
 */
export function directSessionCall(sdk: McpSdk, body: unknown): DirectCall | undefined {
  if (!isPlainObject(body) || !hasOnlyKeys(body, MESSAGE_KEYS) || !sdk.isJSONRPCRequest(body))
    return undefined;
  const { id, method, params } = body;
  if (method !== "tools/call" || (typeof id !== "string" && typeof id !== "number")) return undefined;
  if (!paramsFit("legacy", method, params)) return undefined;
  return callOf("legacy", id, params as Json);
}

/** The tools the direct path may call: those whose input schema declares no Mcp-Param header. */
const DIRECT_TOOLS = new Map(
  PREPARED_TOOLS.filter((tool) => !JSON.stringify(tool.listed.inputSchema).includes("x-mcp-header")).map(
    (tool) => [tool.spec.name, tool],
  ),
);

const RESULT_META = JSON.stringify({ "io.modelcontextprotocol/serverInfo": SERVER_INFO });
/** What the SDK appends to every 2026-07-28 tools/call result. */
const MODERN_CALL_TAIL = `,"resultType":"complete","_meta":${RESULT_META}`;
/** ...and to a 2026-07-28 tools/list result, with the list's cache hint. */
const MODERN_LIST_TAIL = `,"resultType":"complete","ttlMs":${TOOL_LIST_TTL_MS},"cacheScope":"private","_meta":${RESULT_META}`;

/** The JSON-RPC response as the SDK writes it: result first, then jsonrpc and id. */
const response = (result: string, id: Id) =>
  `{"result":{${result}},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;

/**
 * The tool's data serialized once: the same string is the structured content and, escaped, the
 * text content (the SDK stringified the data for the text and again inside the message).
 */
function callResult(era: Era, outcome: { data: unknown } | { error: string }): string {
  const tail = era === "modern" ? MODERN_CALL_TAIL : "";
  if ("error" in outcome) {
    return `"content":[{"type":"text","text":${JSON.stringify(outcome.error)}}],"isError":true${tail}`;
  }
  const data = JSON.stringify(outcome.data);
  return `"content":[{"type":"text","text":${JSON.stringify(data)}}],"structuredContent":${data}${tail}`;
}

/** tools/list as JSON, per set of visible tools (a few per tenant: tokens share their rules). */
const LISTS = new Map<string, string>();
const MAX_LISTS = 256;

function toolList(principal: Principal): string {
  const visible = PREPARED_TOOLS.filter(({ spec }) => !refusal(principal, spec.name, spec.access));
  const key = visible.map(({ spec }) => spec.name).join(",");
  let json = LISTS.get(key);
  if (json === undefined) {
    json = JSON.stringify(visible.map((tool) => tool.listed));
    if (LISTS.size >= MAX_LISTS) LISTS.clear();
    LISTS.set(key, json);
  }
  return json;
}

export interface DirectCaller {
  principal: Principal;
  database: DatabaseHandle;
  tenantId: string;
  log: ErrorLog;
}

/** The arguments the tool's input schema gives, or undefined when it refuses them (the SDK words that). */
function parsedArguments(tool: PreparedTool, args: Record<string, unknown> | undefined) {
  const parsed = tool.spec.input.safeParse(args ?? {});
  return parsed.success ? parsed.data : undefined;
}

/**
 * The JSON-RPC response to `request` as the SDK would write it, computed by the function returned;
 * undefined (decided at once, nothing run) when the SDK must answer: an unknown tool, a tool the
 * principal may not call, arguments its schema refuses.
 */
export function directAnswer(
  request: DirectRequest,
  caller: DirectCaller,
): (() => Promise<string>) | undefined {
  if (request.method === "tools/list") {
    const tail = request.era === "modern" ? MODERN_LIST_TAIL : "";
    const result = `"tools":${toolList(caller.principal)}${tail}`;
    return async () => response(result, request.id);
  }
  const tool = DIRECT_TOOLS.get(request.name);
  if (!tool || refusal(caller.principal, tool.spec.name, tool.spec.access)) return undefined;
  const args = parsedArguments(tool, request.args);
  if (args === undefined) return undefined;
  return async () => {
    const outcome = await runTool(
      tool.spec,
      { database: async () => caller.database, tenantId: caller.tenantId, log: caller.log },
      async () => caller.principal,
      args,
    );
    if (CHECK_TOOL_OUTPUT && "data" in outcome) tool.spec.output.parse(outcome.data);
    return response(callResult(request.era, outcome), request.id);
  };
}

/** Serves `request` on the Node response when the direct path can; false (nothing written) otherwise. */
export async function serveDirect(request: DirectRequest, caller: DirectCaller, reply: FastifyReply) {
  const answer = directAnswer(request, caller);
  if (!answer) return false;
  const body = await answer();
  const raw = hijack(reply);
  raw.writeHead(200, {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(body)),
  });
  raw.end(body);
  directPath.served += 1;
  return true;
}
