import { z } from "zod";
import { errorResponses } from "../platform/http/errors.js";

/**
 * OpenAPI of the MCP routes. The bodies are JSON-RPC 2.0, validated by the MCP SDK itself (a
 * malformed 2026-07-28 request is answered in-band), so the schemas document rather than validate.
 */
const tags = ["mcp"];

const jsonRpcResponse = z
  .object({
    jsonrpc: z.literal("2.0"),
    id: z.union([z.string(), z.number(), z.null()]),
    result: z.record(z.string(), z.unknown()).optional().describe("The method's result"),
    error: z
      .object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() })
      .optional()
      .describe("A JSON-RPC error, delivered in-band"),
  })
  .describe(
    "The JSON-RPC response (application/json), or an SSE stream (text/event-stream) carrying it when " +
      "the server emits messages before the result, and for subscriptions/listen",
  );

const notAllowed = (what: string) => ({
  tags,
  summary: `${what} (not offered: 405)`,
  description:
    "This endpoint is stateless: it issues no session, so there is no GET stream to open and no " +
    "session to DELETE. Always answers 405 with Allow: POST (as the 2025-11-25 Streamable HTTP " +
    "specification allows); 2026-07-28 clients use subscriptions/listen over POST instead.",
  response: errorResponses(405),
});

export const mcpOpenApi = {
  post: {
    tags,
    operationId: "postMcpMessage",
    summary: "MCP endpoint: 2026-07-28 and 2025-era (stateless) Streamable HTTP",
    description:
      "One JSON-RPC message per POST. 2026-07-28 clients send a `_meta` envelope with each request " +
      "and the Mcp-Method / Mcp-Name / MCP-Protocol-Version headers (server/discover, tools/list, " +
      "tools/call, subscriptions/listen); 2025-era clients open with initialize and are served " +
      "statelessly (no Mcp-Session-Id). Errors of a 2026-07-28 request are delivered in-band. A 401 " +
      'carries `WWW-Authenticate: Bearer resource_metadata="..."` (RFC 9728); a tools/call whose ' +
      "token lacks the tool's scope answers 403 `insufficient_scope` naming it (type " +
      "urn:cuadra:problem:insufficient-scope, member `scope`).",
    response: {
      200: jsonRpcResponse,
      202: z.null().describe("A notification or response accepted (no body)"),
      ...errorResponses(400, 406, 413, 415),
    },
  },
  get: { ...notAllowed("Open a standalone SSE stream"), operationId: "openMcpStream" },
  delete: { ...notAllowed("End an MCP session"), operationId: "endMcpSession" },
  sse: {
    tags,
    operationId: "openMcpSseSession",
    summary: "Open an MCP session (legacy HTTP+SSE transport, 2024-11-05)",
    description:
      "Deprecated by the MCP specification but kept for the SSE proxy (SSE_URL) and older clients: " +
      "the stream first sends an `endpoint` event naming /api/mcp/messages/?sessionId=..., then one " +
      "`message` event per JSON-RPC message. With REDIS_URL any node accepts the session's POSTs.",
    response: {
      200: z.string().describe("An SSE stream (text/event-stream): endpoint, then message events"),
      ...errorResponses(429),
    },
  },
  messages: {
    tags,
    operationId: "sendMcpSseMessage",
    summary: "Send a JSON-RPC message to an MCP session (legacy SSE transport)",
    description: "The answer arrives on the session's SSE stream, not in this response.",
    response: {
      202: z.null().describe("Accepted: the answer follows on the session's stream"),
      ...errorResponses(404),
    },
  },
};
