import type { McpServer, McpServerOptions, ServerContext, Tool } from "@modelcontextprotocol/server";
import type { DatabaseHandle } from "../platform/db/client.js";
import { readOnly } from "../platform/db/sql.js";
import type { AuthedCtx } from "../platform/http/context.js";
import { type Principal, refusal } from "./principal.js";
import { mcpSdk } from "./sdk.js";
import {
  CHECK_TOOL_OUTPUT,
  explainFailure,
  INTERNAL_FAILURE,
  READ_ONLY,
  type ToolSpec,
  toolError,
  toolResult,
} from "./tool-kit.js";
import { ANY_ARGUMENTS, PREPARED_TOOLS } from "./tool-schemas.js";

export const SERVER_INFO = { name: "cuadra", version: "0.1.0" };

const INSTRUCTIONS =
  "Read-only access to the books of the Spanish companies kept in Cuadra: customers and suppliers, " +
  "products, the chart of accounts (PGC 2007), account balances and journal entries, invoices, VAT, " +
  "treasury, bank movements, and project budgets with their certifications. list_companies and " +
  "list_fiscal_years give the company_id and fiscal_year_code other tools take. Nothing can be " +
  "changed through these tools. Amounts are decimal strings with 2 decimals (never floats); dates are " +
  "YYYY-MM-DD. Lists return {items, total, limit, offset}: page with offset.";

export interface ErrorLog {
  error(details: object, message: string): void;
}

export interface McpContext {
  /** The tenant's database, looked up at each call (a long SSE session outlives pool recycling). */
  database: () => Promise<DatabaseHandle>;
  tenantId: string;
  /** Who the connection acts for when it opens (tools/list). */
  principal: Principal;
  log: ErrorLog;
  /**
   * Long-lived connections (an SSE session, stdio with MCP_AUTH_TOKEN): the token read again at each
   * call, so revocation, expiry and permission or company changes apply to the very next call.
   * Returns the principal now, or why the token no longer works.
   */
  current?: () => Promise<Principal | string>;
}

/**
 * The tool list changes only with a release and with the token's rules (hence private): 2026-07-28
 * clients may cache it for this long (`ttlMs`); 2025-era responses never carry cache fields.
 */
export const TOOL_LIST_TTL_MS = 5 * 60_000;

const SERVER_OPTIONS: McpServerOptions = {
  capabilities: { tools: { listChanged: false } },
  instructions: INSTRUCTIONS,
  cacheHints: {
    "tools/list": { ttlMs: TOOL_LIST_TTL_MS, cacheScope: "private" },
    "server/discover": { ttlMs: TOOL_LIST_TTL_MS, cacheScope: "private" },
  },
};

/**
 * Whom a call acts for: the principal the HTTP request carrying it was just authenticated as (an
 * SSE message POST: the guard read the same token again for this very message), else the token
 * read again now (stdio, SSE messages relayed from another node), else the serving unit's own.
 */
async function principalOfCall(c: McpContext, call: ServerContext): Promise<Principal | string> {
  const authenticated = call.http?.authInfo?.extra?.principal as Principal | undefined;
  if (authenticated) return authenticated;
  return c.current ? c.current() : c.principal;
}

/** What a tool call came to: the tool's data, or a message the assistant can act on. */
export type ToolOutcome = { data: unknown } | { error: string };

/**
 * Runs one call of `tool` for the principal `whom` resolves, with arguments already parsed by the tool's input schema:
 * the access rules, the read-only database, and every failure turned into an answer (internal ones
 * logged). Shared by the SDK's handlers and the direct path of stateless HTTP (direct-path.ts).
 */
export async function runTool(
  tool: ToolSpec,
  c: Pick<McpContext, "database" | "tenantId" | "log">,
  whom: () => Promise<Principal | string>,
  args: unknown,
): Promise<ToolOutcome> {
  try {
    const principal = await whom();
    if (typeof principal === "string") return { error: principal };
    const refused = refusal(principal, tool.name, tool.access);
    if (refused) return { error: refused };
    const data = await readOnly(await c.database(), (db) => {
      const ctx: AuthedCtx = { db, tenantId: c.tenantId, actor: principal.actor };
      return tool.run(ctx, args as never);
    });
    return { data };
  } catch (err) {
    const message = explainFailure(err, tool);
    if (message) return { error: message };
    c.log.error({ err, tool: tool.name }, "MCP tool failed");
    return { error: INTERNAL_FAILURE };
  }
}

async function execute(tool: ToolSpec, c: McpContext, args: unknown, call: ServerContext) {
  const outcome = await runTool(tool, c, () => principalOfCall(c, call), args);
  return "error" in outcome ? toolError(outcome.error) : toolResult(outcome.data);
}

/**
 * One MCP server for one serving unit (an SSE session, an HTTP request of either protocol era, a
 * stdio connection), acting for `principal`. tools/list shows only the tools it may call; calling
 * another answers an error naming the access rule or permission it lacks.
 *
 * `only` names the tools a stateless HTTP request can reach (those its tools/call messages name):
 * the others are left unregistered, since that request cannot call them, and tools/list answers
 * from the prepared list whatever is registered. Long-lived servers register every tool.
 */
export function createMcpServer(c: McpContext, only?: ReadonlySet<string>): McpServer {
  const server = new (mcpSdk().McpServer)(SERVER_INFO, SERVER_OPTIONS);
  const visible: Tool[] = [];
  for (const tool of PREPARED_TOOLS) {
    const { spec } = tool;
    const refused = refusal(c.principal, spec.name, spec.access);
    if (!refused) visible.push(tool.listed);
    if (only && !only.has(spec.name)) continue;
    if (refused) {
      // Registered so a call gets the reason, never "not found"; left out of tools/list.
      server.registerTool(
        spec.name,
        {
          title: spec.title,
          description: spec.description,
          inputSchema: ANY_ARGUMENTS,
          annotations: READ_ONLY,
        },
        async () => toolError(refused),
      );
      continue;
    }
    server.registerTool(
      spec.name,
      {
        title: spec.title,
        description: spec.description,
        inputSchema: tool.input,
        // Checked by the SDK under NODE_ENV=test only: the data comes from the tools' typed
        // serializers, and tools/list advertises the schema either way (ADR 042).
        ...(CHECK_TOOL_OUTPUT && { outputSchema: tool.output }),
        annotations: READ_ONLY,
      },
      async (args: unknown, call: ServerContext) => execute(spec, c, args, call),
    );
  }
  server.server.setRequestHandler("tools/list", () => ({ tools: visible }));
  return server;
}
