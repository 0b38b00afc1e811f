import { existsSync } from "node:fs";
import { SSEClientTransport } from "@modelcontextprotocol/client";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { sql } from "drizzle-orm";
import { loadConfig } from "../config.js";
import { hasAnyMcpScope, resolveApiToken } from "../modules/api-tokens/index.js";
import { type DatabaseHandle, runWasmOnBaselineCode } from "../platform/db/client.js";
import { queryRows } from "../platform/db/sql.js";
import { DataDirBusyError } from "../runtime/data-dir-lock.js";
import { claimDataDir, embeddedDbDir, openMainDatabase, wasmOnBaselineCode } from "../runtime/database.js";
import { listTenants, openTenantDatabase } from "../runtime/tenants.js";
import { readLocalServer } from "./local-server-file.js";
import { liveToken, localPrincipal, type Principal, principalOfActor } from "./principal.js";
import { loadMcpSdk } from "./sdk.js";
import { createMcpServer, type ErrorLog } from "./server.js";
import { findRunningServer, pipeStdio, relayStdio } from "./stdio-relay.js";

/** stdout carries MCP messages only: everything else goes to stderr. */
export const stderrLog: ErrorLog & { info(message: string): void } = {
  error(details, message) {
    const err = (details as { err?: unknown }).err;
    const reason = err instanceof Error ? `: ${err.message}` : "";
    process.stderr.write(`cuadra mcp: ${message}${reason}\n`);
  },
  info(message) {
    process.stderr.write(`cuadra mcp: ${message}\n`);
  },
};

export class StdioSetupError extends Error {}

const NOT_READY = "has no Cuadra tables yet: start the server once (npm start) or run npm run cli -- migrate";

async function openTenant(config: ReturnType<typeof loadConfig>) {
  // Opening PGlite on a missing directory would create an empty database there.
  if (!config.databaseUrl && !existsSync(embeddedDbDir(config))) {
    throw new StdioSetupError(`The data directory ${config.dataDir} ${NOT_READY}`);
  }
  const main = await openMainDatabase(config);
  if (!config.baseDomain) return { handle: main, tenantId: "default", close: () => main.close() };
  const slug = config.mcpTenant;
  const [record] = slug ? (await listTenants(main)).filter((t) => t.slug === slug) : [];
  if (!record) {
    await main.close();
    throw new StdioSetupError(
      slug
        ? `Unknown tenant ${slug} (MCP_TENANT)`
        : "BASE_DOMAIN is set: MCP_TENANT must name the tenant to read",
    );
  }
  const handle = await openTenantDatabase(config, record);
  return {
    handle,
    tenantId: record.slug,
    close: async () => {
      await handle.close();
      await main.close();
    },
  };
}

/** MCP_AUTH_TOKEN's principal (must be a live API token with an MCP rule), or unrestricted local access. */
async function principalFor(handle: DatabaseHandle, token: string | undefined): Promise<Principal> {
  if (!token) return localPrincipal();
  const actor = await resolveApiToken(handle.db, token);
  if (!actor)
    throw new StdioSetupError("MCP_AUTH_TOKEN is not a valid API token (unknown, inactive or expired)");
  if (!hasAnyMcpScope(actor.scopes ?? []))
    throw new StdioSetupError("The API token in MCP_AUTH_TOKEN has no MCP rule (mcp, mcp:<area> or *)");
  return principalOfActor(actor);
}

/** Serves MCP on stdin/stdout from the database itself (no server runs on this data directory). */
async function serveDirect(config: ReturnType<typeof loadConfig>) {
  if (wasmOnBaselineCode(config)) runWasmOnBaselineCode();
  const tenant = await openTenant(config);
  try {
    const [ready] = await queryRows<{ table: string | null }>(
      tenant.handle.db,
      sql`select to_regclass('public.api_tokens')::text as table`,
    );
    if (!ready?.table) {
      throw new StdioSetupError(`The database at ${tenant.handle.location} ${NOT_READY}`);
    }
    const principal = await principalFor(tenant.handle, config.mcpAuthToken);
    const db = async () => tenant.handle.db;
    const database = async () => tenant.handle;
    const token = config.mcpAuthToken;
    await loadMcpSdk(); // createMcpServer builds on it
    // The opening message decides the era: server/discover (2026-07-28) or initialize (2025).
    const connection = serveStdio(
      () =>
        createMcpServer({
          database,
          tenantId: tenant.tenantId,
          principal,
          log: stderrLog,
          current: token ? liveToken(db, token) : undefined,
        }),
      { onerror: (err) => stderrLog.error({ err }, "MCP stdio error") },
    );
    let closed = false;
    const shutdown = async () => {
      if (closed) return;
      closed = true;
      await connection.close().catch(() => undefined);
      await tenant.close().catch(() => undefined);
      process.exit(0);
    };
    process.stdin.on("end", () => void shutdown());
    process.stdin.on("close", () => void shutdown());
    process.on("SIGINT", () => void shutdown());
    process.on("SIGTERM", () => void shutdown());
    stderrLog.info(
      `serving ${tenant.tenantId} from ${tenant.handle.location} (${principal.tokenId ? "API token" : "local, unrestricted"})`,
    );
  } catch (err) {
    await tenant.close().catch(() => undefined);
    throw err;
  }
}

/**
 * With SSE_URL: a stdio <-> SSE proxy to a remote Cuadra server, for desktop assistants that only
 * start local commands. MCP_AUTHORIZATION ("Bearer cdr_...") goes on the stream and every message.
 */
async function proxySse(url: string, authorization: string | undefined) {
  if (!authorization)
    throw new StdioSetupError("SSE_URL is set: MCP_AUTHORIZATION must be 'Bearer <API token>'");
  const upstream = new SSEClientTransport(new URL(url), { requestInit: { headers: { authorization } } });
  await pipeStdio(upstream, new URL(url).origin, stderrLog);
  stderrLog.info(`proxying to ${url}`);
}

/**
 * `npm run mcp`: the MCP server on stdio. In embedded mode (PGlite, one process per data
 * directory) it relays to the server running on DATA_DIR when there is one; otherwise it opens the
 * database itself.
 */
export async function runMcpStdio(): Promise<void> {
  const config = loadConfig();
  if (config.sseUrl) {
    await proxySse(config.sseUrl, config.mcpAuthorization);
    return;
  }
  if (config.baseDomain && !config.mcpTenant) {
    throw new StdioSetupError("BASE_DOMAIN is set: MCP_TENANT must name the tenant to read");
  }
  if (!config.databaseUrl) {
    const running = await findRunningServer(readLocalServer(config.dataDir));
    if (running) {
      const host = config.baseDomain ? `${config.mcpTenant}.${config.baseDomain}` : undefined;
      await relayStdio({ server: running, host, token: config.mcpAuthToken, log: stderrLog });
      return;
    }
    // No server: this process opens the directory, so it holds the lock until it exits.
    try {
      claimDataDir(config, "mcp");
    } catch (err) {
      if (!(err instanceof DataDirBusyError)) throw err;
      throw new StdioSetupError(
        `${err.message}: only one process may open the embedded database. Start the server (npm start) so that every MCP client and CLI command goes through it.`,
      );
    }
  }
  await serveDirect(config);
}
