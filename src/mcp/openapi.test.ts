import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/helpers/app.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(() => t?.close());

type Operation = { operationId?: string; responses: Record<string, { description?: string }> };

describe("OpenAPI of the MCP routes", () => {
  it("documents each route with an operationId and its responses, 405 for GET and DELETE /api/mcp", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/openapi.json" });
    const paths = res.json().paths as Record<string, Record<string, Operation>>;
    const mcp = paths["/api/mcp"];
    expect(mcp.post.operationId).toBe("postMcpMessage");
    expect(Object.keys(mcp.post.responses)).toEqual(expect.arrayContaining(["200", "202", "400", "401"]));
    expect(mcp.get.operationId).toBe("openMcpStream");
    expect(mcp.delete.operationId).toBe("endMcpSession");
    for (const op of [mcp.get, mcp.delete]) {
      expect(op.responses["405"]).toBeDefined();
      expect(op.responses["200"]).toBeUndefined();
    }
    expect(paths["/api/mcp/sse"].get.operationId).toBe("openMcpSseSession");
    // The document drops the trailing slash of /api/mcp/messages/; the undocumented twin is hidden.
    expect(paths["/api/mcp/messages"].post.operationId).toBe("sendMcpSseMessage");
    expect(
      Object.keys(paths)
        .filter((path) => path.startsWith("/api/mcp"))
        .sort(),
    ).toEqual(["/api/mcp", "/api/mcp/messages", "/api/mcp/sse"]);
    for (const path of ["/api/mcp", "/api/mcp/sse", "/api/mcp/messages"]) {
      for (const op of Object.values(paths[path])) {
        for (const [status, response] of Object.entries(op.responses)) {
          expect(response.description, `${path} ${status}`).toBeTruthy();
        }
      }
    }
  });
});
