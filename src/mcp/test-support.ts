/**
 * Shared setup of the MCP tests (this file is not a test itself): seeded books through the REST
 * API, API tokens, SDK clients over each HTTP transport, and a snapshot of every table.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { sql } from "drizzle-orm";
import {
  type ApiCaller,
  createCompany,
  credit,
  debit,
  ledgerFixture,
  postEntry,
} from "../modules/accounting/test-support.js";
import type { Db } from "../platform/db/client.js";
import { queryRows } from "../platform/db/sql.js";

function expectStatus(
  res: { statusCode: number; body: string; json(): unknown },
  status: number,
  what: string,
) {
  if (res.statusCode !== status) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
  return res.json() as Record<string, unknown> & { id: string };
}

export async function createApiToken(
  api: ApiCaller,
  scopes: string[],
  opts: { companyId?: string; as?: string } = {},
): Promise<{ id: string; token: string }> {
  const res = await api.as(opts.as ?? api.adminToken, {
    method: "POST",
    url: "/api/api-tokens",
    payload: { name: `mcp-${scopes.join("-")}`, scopes, company_id: opts.companyId ?? null },
  });
  const body = expectStatus(res, 201, "create API token");
  return { id: body.id, token: body.token as string };
}

async function post(api: ApiCaller, url: string, payload: Record<string, unknown>) {
  return expectStatus(await api.as(api.adminToken, { method: "POST", url, payload }), 201, `POST ${url}`);
}

/** Two companies; the first has a 2026 ledger with two entries, contacts and products. */
export async function seedBooks(api: ApiCaller) {
  const fx = await ledgerFixture(api);
  const companyId = fx.companyId;
  const customer = await post(api, "/api/clients", {
    company_id: companyId,
    contact_type: "customer",
    name: "Construcciones Norte",
    legal_name: "Construcciones Norte SL",
    email: "admin@norte.example",
    city: "Bilbao",
  });
  const supplier = await post(api, "/api/clients", {
    company_id: companyId,
    contact_type: "supplier",
    name: "Ferreteria Sur",
  });
  const product = await post(api, "/api/products", {
    company_id: companyId,
    reference: "HORM-25",
    description: "Hormigon HM-25",
    sale_price: "85.50",
    cost_price: "60.00",
  });
  await post(api, "/api/products", { company_id: companyId, reference: "ARENA", description: "Arena" });
  const sale = postEntry(api, {
    company_id: companyId,
    date: "2026-03-01",
    concept: "Venta de hormigon",
    lines: [
      debit(fx.codes.bank, "1210.00"),
      credit(fx.codes.sales, "1000.00"),
      credit(fx.codes.vatOutput, "210.00"),
    ],
  });
  expectStatus(await sale, 201, "post entry");
  const purchase = postEntry(api, {
    company_id: companyId,
    date: "2026-04-15",
    concept: "Compra de arena",
    lines: [debit(fx.codes.purchases, "500.25"), credit(fx.codes.bank, "500.25")],
  });
  expectStatus(await purchase, 201, "post entry");

  const otherCompanyId = await createCompany(api, { name: "Other company" });
  const otherContact = await post(api, "/api/clients", {
    company_id: otherCompanyId,
    contact_type: "customer",
    name: "Cliente de la otra empresa",
  });
  return { ...fx, customer, supplier, product, otherCompanyId, otherContact };
}

export type Books = Awaited<ReturnType<typeof seedBooks>>;

/** Tools of scope mcp, which every MCP token sees besides those of its area rules (list_companies...). */
export const ANY_TOKEN_TOOLS = ["list_companies", "list_fiscal_years"];

/** The sorted names a token with these area tools lists when its user may read companies and years. */
export const withAnyTokenTools = (names: string[]) => [...names, ...ANY_TOKEN_TOOLS].sort();

const clientInfo = { name: "cuadra-test", version: "1.0.0" };

export async function streamableClient(base: string, token: string, headers: Record<string, string> = {}) {
  const client = new Client(clientInfo);
  const transport = new StreamableHTTPClientTransport(new URL("/api/mcp", base), {
    requestInit: { headers: { authorization: `Bearer ${token}`, ...headers } },
  });
  await client.connect(transport);
  return client;
}

export async function sseClient(base: string, token: string) {
  const client = new Client(clientInfo);
  const transport = new SSEClientTransport(new URL("/api/mcp/sse", base), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return { client, transport };
}

/** The structured result of a successful call (throws with the message of an error result). */
export function structured<T = Record<string, unknown>>(result: unknown): T {
  const r = result as CallToolResult;
  if (r.isError) throw new Error(`tool error: ${JSON.stringify(r.content)}`);
  const text = (r.content[0] as { text: string }).text;
  if (JSON.stringify(JSON.parse(text)) !== JSON.stringify(r.structuredContent)) {
    throw new Error("the text content differs from structuredContent");
  }
  return r.structuredContent as T;
}

/** The message of an error result (throws when the call succeeded). */
export function errorText(result: unknown): string {
  const r = result as CallToolResult;
  if (!r.isError) throw new Error(`expected an error, got ${JSON.stringify(r.structuredContent)}`);
  return (r.content[0] as { text: string }).text;
}

/**
 * Over HTTP a tool call outside the token's scopes is refused with 403 insufficient_scope naming
 * the scope (the SDK client rejects with the status and the problem body).
 */
export const outOfScope = (scope: string) => new RegExp(`403[\\s\\S]*needs the scope ${scope}\\b`);

/** Row count and content hash of every table (api_tokens.last_used_at aside: authentication keeps it). */
export async function snapshotTables(db: Db): Promise<Record<string, string>> {
  const tables = await queryRows<{ name: string }>(
    db,
    sql`select table_name as name from information_schema.tables
         where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  const out: Record<string, string> = {};
  for (const { name } of tables) {
    const [row] = await queryRows<{ n: string; h: string | null }>(
      db,
      sql`select count(*)::text as n,
                 md5(coalesce(string_agg((to_jsonb(t) - 'last_used_at')::text, ',' order by (to_jsonb(t) - 'last_used_at')::text), '')) as h
            from ${sql.identifier(name)} t`,
    );
    out[name] = `${row.n}:${row.h}`;
  }
  return out;
}

export interface RawStream {
  response: Response;
  /** The endpoint announced by the first event. */
  endpoint: string;
  /** The next `event: message` payload. */
  nextMessage(timeoutMs?: number): Promise<{ id?: number; result?: unknown; error?: unknown }>;
  /** Resolves once the stream's text (since the last match) matches `pattern`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  close(): void;
}

/** GET /api/mcp/sse read by hand: headers and frames exactly as sent. */
export async function openRawStream(
  base: string,
  token: string,
  headers: Record<string, string> = {},
  fetchFn: typeof fetch = fetch,
) {
  const abort = new AbortController();
  const response = await fetchFn(new URL("/api/mcp/sse", base), {
    headers: { authorization: `Bearer ${token}`, accept: "text/event-stream", ...headers },
    signal: abort.signal,
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let pending: ReturnType<typeof reader.read> | null = null;
  const waitFor = async (pattern: RegExp, timeoutMs = 5000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = pattern.exec(buffer);
      if (match) {
        buffer = buffer.slice(match.index + match[0].length);
        return match[0];
      }
      if (Date.now() > deadline) throw new Error(`no ${pattern} in the stream: ${buffer}`);
      const timer = new Promise<null>((resolve) => setTimeout(() => resolve(null), deadline - Date.now()));
      pending ??= reader.read();
      const chunk = await Promise.race([pending, timer]);
      if (chunk === null) continue;
      pending = null;
      if (chunk.done) throw new Error(`stream ended before ${pattern}: ${buffer}`);
      buffer += decoder.decode(chunk.value, { stream: true });
    }
  };
  const stream: RawStream = {
    response,
    endpoint: "",
    async nextMessage(timeoutMs) {
      const frame = await waitFor(/event: message\ndata: (.*)\n\n/, timeoutMs);
      return JSON.parse(frame.split("\ndata: ")[1]);
    },
    waitFor,
    close: () => abort.abort(),
  };
  if (response.status === 200) {
    const frame = await waitFor(/event: endpoint\ndata: (.*)\n\n/);
    stream.endpoint = frame.split("\ndata: ")[1].trim();
  }
  return stream;
}
