import { isLegacyRequest, PROTOCOL_VERSION_META_KEY } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { claimsModernEra } from "./streamable.js";

const envelope = {
  [PROTOCOL_VERSION_META_KEY]: "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "test", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};
const call = { name: "list_contacts", arguments: { limit: 50 } };

/** JSON-RPC bodies of both eras, well and badly formed. */
const BODIES: Record<string, unknown> = {
  "2026-07-28 tools/call": {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { ...call, _meta: envelope },
  },
  "2026-07-28 server/discover": {
    jsonrpc: "2.0",
    id: 1,
    method: "server/discover",
    params: { _meta: envelope },
  },
  "a claim naming an unknown revision": {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/list",
    params: { _meta: { [PROTOCOL_VERSION_META_KEY]: "2099-01-01" } },
  },
  "a claim with an invalid envelope": {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/list",
    params: { _meta: { [PROTOCOL_VERSION_META_KEY]: 7 } },
  },
  "a claimed notification": {
    jsonrpc: "2.0",
    method: "notifications/cancelled",
    params: { requestId: 1, _meta: envelope },
  },
  "2025 initialize": {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  },
  "initialize carrying an envelope": {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { _meta: envelope },
  },
  "2025 tools/call": { jsonrpc: "2.0", id: 2, method: "tools/call", params: call },
  "2025 tools/call with an unrelated _meta": {
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: { ...call, _meta: { progressToken: 1 } },
  },
  "a batch of claimed requests": [
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: { ...call, _meta: envelope } },
  ],
  "a posted response": { jsonrpc: "2.0", id: 1, result: {} },
  "_meta as an array": { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: [] } },
  "a string": "tools/call",
  null: null,
};

const post = (body: unknown) =>
  new Request("http://localhost/api/mcp", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify(body),
  });

describe("claimsModernEra (the shortcut past the first era classification)", () => {
  it.each(Object.entries(BODIES))(
    "never disagrees with the SDK's classification: %s",
    async (_what, body) => {
      const legacy = await isLegacyRequest(post(body), body);
      if (claimsModernEra(body)) expect(legacy).toBe(false);
    },
  );

  it("takes the shortcut for 2026-07-28 requests and notifications only", () => {
    const shortcut = Object.entries(BODIES)
      .filter(([, body]) => claimsModernEra(body))
      .map(([what]) => what);
    expect(shortcut).toEqual([
      "2026-07-28 tools/call",
      "2026-07-28 server/discover",
      "a claim naming an unknown revision",
      "a claim with an invalid envelope",
      "a claimed notification",
    ]);
  });
});
