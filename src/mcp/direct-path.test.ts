import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/helpers/app.js";
import { directPath } from "./direct-path.js";
import { type Books, createApiToken, openRawStream, seedBooks } from "./test-support.js";
import { TOOLS } from "./tools/index.js";

/**
 * The direct path of POST /api/mcp against the SDK: every request of the corpus is sent twice,
 * once with the direct path on and once with it off (the SDK serves it, as before ADR 042), and
 * the two answers must be the same bytes (status, content type, body). Each case also says
 * whether the direct path must serve it or leave it to the SDK, so a path that declined
 * everything could not pass.
 */
let t: TestApp;
let books: Books;
let base: string;
const tokens: Record<"mcp" | "contactsOnly" | "otherCompany" | "noProducts", string> = {
  mcp: "",
  contactsOnly: "",
  otherCompany: "",
  noProducts: "",
};

const MODERN = "2026-07-28";
const envelope = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientInfo": { name: "direct-path-test", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};
const ACCEPT = "application/json, text/event-stream";
const MISSING_ID = "01900000-0000-7000-8000-000000000000";

interface Case {
  body: unknown;
  headers: Record<string, string>;
  token?: keyof typeof tokens | null;
  /** Whether the direct path serves it (true) or leaves it to the SDK (false). */
  direct: boolean;
}

const rpc = (method: string, params: unknown, id: unknown = 7) => ({
  jsonrpc: "2.0",
  id,
  method,
  ...(params !== undefined && { params }),
});

/** A 2026-07-28 request with the headers the revision requires. */
function modern(method: string, params: Record<string, unknown>, extra: Partial<Case> = {}): Case {
  const name: Record<string, string> = typeof params.name === "string" ? { "mcp-name": params.name } : {};
  return {
    body: rpc(method, { ...params, _meta: envelope }),
    headers: { "mcp-protocol-version": MODERN, "mcp-method": method, ...name },
    direct: true,
    ...extra,
  };
}

/** A 2025-era request, stateless (no initialize), with or without MCP-Protocol-Version. */
function legacy(method: string, params: unknown, version?: string, extra: Partial<Case> = {}): Case {
  return {
    body: rpc(method, params),
    headers: version ? { "mcp-protocol-version": version } : {},
    direct: true,
    ...extra,
  };
}

const call = (name: string, args?: Record<string, unknown>) => ({
  name,
  ...(args !== undefined && { arguments: args }),
});

/** Arguments every tool accepts; its answer is data or an error the tool itself words. */
function validArguments(name: string): Record<string, unknown> {
  const known: Record<string, Record<string, unknown>> = {
    get_contact: { contact_id: books.customer.id },
    get_product: { product_id: books.product.id },
    get_account_balance: {
      account_code: books.codes.bank,
      fiscal_year_code: "2026",
      company_id: books.companyId,
    },
    list_accounts: { fiscal_year_code: "2026", company_id: books.companyId, limit: 3 },
    list_journal_entries: { company_id: books.companyId },
    get_invoice: { invoice_id: MISSING_ID },
    get_purchase_invoice: { invoice_id: MISSING_ID },
    get_vat_return: { year: 2026, period: "1T", company_id: books.companyId },
    list_vat_book_entries: { book: "issued", company_id: books.companyId },
    get_budget: { budget_id: MISSING_ID },
    get_certification: { certification_id: MISSING_ID },
    get_cash_flow: { company_id: books.companyId },
  };
  return known[name] ?? {};
}

function corpus(): Record<string, Case> {
  const cases: Record<string, Case> = {};
  for (const tool of TOOLS) {
    const args = validArguments(tool.name);
    cases[`2026-07-28 ${tool.name}`] = modern("tools/call", call(tool.name, args));
    cases[`2025 ${tool.name}`] = legacy("tools/call", call(tool.name, args));
  }
  for (const version of ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]) {
    cases[`2025 list_contacts, MCP-Protocol-Version ${version}`] = legacy(
      "tools/call",
      call("list_contacts", { limit: 2 }),
      version,
    );
    cases[`2025 tools/list, MCP-Protocol-Version ${version}`] = legacy("tools/list", undefined, version);
  }
  const contacts = call("list_contacts", { limit: 2, offset: 1 });
  Object.assign(cases, {
    "2026-07-28 tools/list": modern("tools/list", {}),
    "2025 tools/list": legacy("tools/list", undefined),
    "2025 tools/list, empty params": legacy("tools/list", {}),
    "2026-07-28 tools/list, token of one area": modern("tools/list", {}, { token: "contactsOnly" }),
    "2025 tools/list, user without products:leer": legacy("tools/list", undefined, undefined, {
      token: "noProducts",
    }),
    "2026-07-28 call without arguments": modern("tools/call", call("list_contacts")),
    "2025 call without arguments": legacy("tools/call", call("list_contacts")),
    "2026-07-28 string id": {
      ...modern("tools/call", contacts),
      body: rpc("tools/call", { ...contacts, _meta: envelope }, "req-1"),
    },
    "2025 id 0": { ...legacy("tools/call", contacts), body: rpc("tools/call", contacts, 0) },
    "2026-07-28 not found, worded by the tool": modern(
      "tools/call",
      call("get_contact", { contact_id: MISSING_ID }),
    ),
    "2025 not found, worded by the tool": legacy(
      "tools/call",
      call("get_contact", { contact_id: MISSING_ID }),
    ),
    "2026-07-28 token restricted to the other company": modern("tools/call", contacts, {
      token: "otherCompany",
    }),
    "2025 token restricted to the other company": legacy("tools/call", contacts, undefined, {
      token: "otherCompany",
    }),
    "content type with a charset": modern("tools/call", contacts, {
      headers: {
        "content-type": "application/json; charset=utf-8",
        "mcp-protocol-version": MODERN,
        "mcp-method": "tools/call",
        "mcp-name": "list_contacts",
      },
    }),

    // Left to the SDK: its errors, its wording.
    "2026-07-28 unknown tool": modern("tools/call", call("no_such_tool", {}), { direct: false }),
    "2025 unknown tool": legacy("tools/call", call("no_such_tool", {}), undefined, { direct: false }),
    "2026-07-28 argument of the wrong type": modern("tools/call", call("list_contacts", { limit: "x" }), {
      direct: false,
    }),
    "2025 argument out of range": legacy("tools/call", call("list_contacts", { limit: 500 }), undefined, {
      direct: false,
    }),
    "2026-07-28 unknown argument": modern("tools/call", call("list_contacts", { colour: "red" }), {
      direct: false,
    }),
    "2025 malformed id argument": legacy(
      "tools/call",
      call("get_contact", { contact_id: "nope" }),
      undefined,
      { direct: false },
    ),
    "2026-07-28 arguments as an array": modern(
      "tools/call",
      { name: "list_contacts", arguments: [] },
      { direct: false },
    ),
    "2025 name not a string": legacy("tools/call", { name: 7, arguments: {} }, undefined, { direct: false }),
    "2026-07-28 tool the user may not read": modern("tools/call", call("list_products", {}), {
      token: "noProducts",
      direct: false,
    }),
    "2025 tool the token's rules exclude (403)": legacy("tools/call", call("list_products", {}), undefined, {
      token: "contactsOnly",
      direct: false,
    }),
    "no credentials (401)": legacy("tools/call", contacts, undefined, { token: null, direct: false }),
    "2026-07-28 Mcp-Name disagreeing": modern("tools/call", contacts, {
      headers: { "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "list_products" },
      direct: false,
    }),
    "2026-07-28 Mcp-Name missing": modern("tools/call", contacts, {
      headers: { "mcp-protocol-version": MODERN, "mcp-method": "tools/call" },
      direct: false,
    }),
    "2026-07-28 Mcp-Method missing": modern("tools/call", contacts, {
      headers: { "mcp-protocol-version": MODERN, "mcp-name": "list_contacts" },
      direct: false,
    }),
    "2026-07-28 MCP-Protocol-Version missing": modern("tools/call", contacts, {
      headers: { "mcp-method": "tools/call", "mcp-name": "list_contacts" },
      direct: false,
    }),
    "2026-07-28 envelope, 2025 header": modern("tools/call", contacts, {
      headers: {
        "mcp-protocol-version": "2025-06-18",
        "mcp-method": "tools/call",
        "mcp-name": "list_contacts",
      },
      direct: false,
    }),
    "2026-07-28 header, no envelope": {
      body: rpc("tools/call", contacts),
      headers: { "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "list_contacts" },
      direct: false,
    },
    "an unknown revision in the envelope": {
      ...modern("tools/call", contacts),
      body: rpc("tools/call", {
        ...contacts,
        _meta: { ...envelope, "io.modelcontextprotocol/protocolVersion": "2099-01-01" },
      }),
      direct: false,
    },
    "an envelope without clientInfo": {
      ...modern("tools/call", contacts),
      body: rpc("tools/call", { ...contacts, _meta: { "io.modelcontextprotocol/protocolVersion": MODERN } }),
      direct: false,
    },
    "2026-07-28 with a progress token": {
      ...modern("tools/call", contacts),
      body: rpc("tools/call", { ...contacts, _meta: { ...envelope, progressToken: 1 } }),
      direct: false,
    },
    "2025 with a progress token": legacy(
      "tools/call",
      { ...contacts, _meta: { progressToken: 1 } },
      undefined,
      { direct: false },
    ),
    "2025 unsupported MCP-Protocol-Version": legacy("tools/call", contacts, "1999-01-01", { direct: false }),
    "2025 tools/list with a cursor": legacy("tools/list", { cursor: "x" }, undefined, { direct: false }),
    "2026-07-28 tools/list with a cursor": modern("tools/list", { cursor: "x" }, { direct: false }),
    "a batch": { body: [rpc("tools/call", contacts)], headers: {}, direct: false },
    "a notification": {
      body: { jsonrpc: "2.0", method: "tools/call", params: contacts },
      headers: {},
      direct: false,
    },
    "jsonrpc 1.0": { body: { ...rpc("tools/call", contacts), jsonrpc: "1.0" }, headers: {}, direct: false },
    "id null": { body: rpc("tools/call", contacts, null), headers: {}, direct: false },
    "id 1.5": { body: rpc("tools/call", contacts, 1.5), headers: {}, direct: false },
    "an extra top-level field": {
      body: { ...rpc("tools/call", contacts), extra: true },
      headers: {},
      direct: false,
    },
    "an extra params field": legacy("tools/call", { ...contacts, task: {} }, undefined, { direct: false }),
    "Accept without SSE": legacy("tools/call", contacts, undefined, {
      headers: { accept: "application/json" },
      direct: false,
    }),
    "2026-07-28 Accept without SSE": modern("tools/call", contacts, {
      headers: {
        accept: "application/json",
        "mcp-protocol-version": MODERN,
        "mcp-method": "tools/call",
        "mcp-name": "list_contacts",
      },
      direct: false,
    }),
    "2025 initialize": legacy(
      "initialize",
      { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      undefined,
      { direct: false },
    ),
    "2026-07-28 server/discover": modern("server/discover", {}, { direct: false }),
    "2025 ping": legacy("ping", undefined, undefined, { direct: false }),
    "2026-07-28 unknown method": modern("tools/nonexistent", {}, { direct: false }),
  });
  return cases;
}

interface Answer {
  status: number;
  type: string | null;
  body: string;
}

async function send(c: Case): Promise<Answer> {
  const token = c.token === null ? undefined : tokens[c.token ?? "mcp"];
  const res = await fetch(new URL("/api/mcp", base), {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: ACCEPT,
      ...(token && { authorization: `Bearer ${token}` }),
      ...c.headers,
    },
    body: JSON.stringify(c.body),
  });
  const body = await res.text();
  // Problem bodies name the request (its id differs between the two sends).
  const comparable = res.headers.get("content-type")?.startsWith("application/problem+json")
    ? JSON.stringify({ ...JSON.parse(body), instance: undefined, request_id: undefined })
    : body;
  return { status: res.status, type: res.headers.get("content-type"), body: comparable };
}

beforeAll(async () => {
  t = await createTestApp();
  books = await seedBooks(t);
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
  tokens.mcp = (await createApiToken(t, ["mcp"])).token;
  tokens.contactsOnly = (await createApiToken(t, ["mcp:contacts"])).token;
  tokens.otherCompany = (await createApiToken(t, ["mcp"], { companyId: books.otherCompanyId })).token;
  const user = await t.userWith(["clients:leer", "companies:leer", "api_tokens:crear"]);
  tokens.noProducts = (await createApiToken(t, ["mcp"], { as: user.token })).token;
}, 120_000);
afterAll(async () => {
  directPath.enabled = true;
  await t?.close();
});

/** The case sent with the direct path on, then off: both answers, and whether it was served directly. */
async function bothWays(c: Case) {
  const before = directPath.served;
  const direct = await send(c);
  const servedDirectly = directPath.served > before;
  directPath.enabled = false;
  try {
    return { direct, sdk: await send(c), servedDirectly };
  } finally {
    directPath.enabled = true;
  }
}

describe("the direct path of POST /api/mcp", () => {
  it("answers every request of the corpus with the SDK's bytes, and serves exactly the hot cases", async () => {
    const cases = Object.entries(corpus());
    const differing: string[] = [];
    const misrouted: string[] = [];
    for (const [what, c] of cases) {
      const { direct, sdk, servedDirectly } = await bothWays(c);
      if (JSON.stringify(direct) !== JSON.stringify(sdk)) {
        differing.push(`${what}:\n  direct ${JSON.stringify(direct)}\n  sdk    ${JSON.stringify(sdk)}`);
      }
      if (servedDirectly !== c.direct) misrouted.push(`${what}: served directly ${servedDirectly}`);
    }
    expect(differing.join("\n")).toBe("");
    expect(misrouted).toEqual([]);
    expect(cases.filter(([, c]) => c.direct).length).toBeGreaterThan(2 * TOOLS.length);
  }, 120_000);

  it("gives the same data as REST and both content blocks the same text", async () => {
    const { direct } = await bothWays(modern("tools/call", call("list_contacts", { limit: 2 })));
    const { result } = JSON.parse(direct.body) as {
      result: { content: { text: string }[]; structuredContent: { items: unknown[]; total: number } };
    };
    expect(JSON.parse(result.content[0]!.text)).toEqual(result.structuredContent);
    const rest = (await t.as(t.adminToken, { method: "GET", url: "/api/clients?limit=2&skip=0" })).json();
    expect(result.structuredContent).toEqual({ items: rest.data, total: rest.total, limit: 2, offset: 0 });
  });
});

/** An SSE session opened and initialized by hand, its frames read exactly as sent. */
async function sseSession(token: string, protocolVersion: string) {
  const stream = await openRawStream(base, token);
  const post = (body: unknown) =>
    fetch(new URL(stream.endpoint, base), {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const clientInfo = { name: "direct-path-test", version: "1.0.0" };
  await post(rpc("initialize", { protocolVersion, capabilities: {}, clientInfo }, 0));
  await stream.nextMessage();
  await post({ jsonrpc: "2.0", method: "notifications/initialized" });
  /** The message posted, then the frame it was answered with on the stream. */
  const exchange = async (body: unknown) => {
    const before = directPath.served;
    const res = await post(body);
    const servedDirectly = directPath.served > before;
    const frame =
      res.status === 202 ? await stream.waitFor(/event: message\ndata: .*\n\n/) : await res.text();
    return { status: res.status, frame, servedDirectly };
  };
  return { stream, exchange };
}

describe("the direct path of SSE sessions", () => {
  it.each(["2025-06-18", "2024-11-05"])(
    "answers tools/call on a %s session with the frames the session's server writes",
    async (version) => {
      const sessions = {
        mcp: await sseSession(tokens.mcp, version),
        noProducts: await sseSession(tokens.noProducts, version),
      };
      const cases: [string, keyof typeof sessions, unknown, boolean][] = [
        ...TOOLS.map((tool): [string, keyof typeof sessions, unknown, boolean] => [
          tool.name,
          "mcp",
          rpc("tools/call", call(tool.name, validArguments(tool.name)), 11),
          true,
        ]),
        ["string id, no arguments", "mcp", rpc("tools/call", call("list_contacts"), "s-1"), true],
        ["not found", "mcp", rpc("tools/call", call("get_contact", { contact_id: MISSING_ID })), true],
        ["unknown tool", "mcp", rpc("tools/call", call("no_such_tool", {})), false],
        ["bad arguments", "mcp", rpc("tools/call", call("list_contacts", { limit: 0 })), false],
        ["tools/list", "mcp", rpc("tools/list", undefined), false],
        [
          "a progress token",
          "mcp",
          rpc("tools/call", { ...call("list_contacts"), _meta: { progressToken: 1 } }),
          false,
        ],
        ["id 1.5", "mcp", rpc("tools/call", call("list_contacts"), 1.5), false],
        ["a tool the user may not read", "noProducts", rpc("tools/call", call("list_products", {})), false],
        [
          "a tool the user may read",
          "noProducts",
          rpc("tools/call", call("list_contacts", { limit: 1 })),
          true,
        ],
      ];
      const differing: string[] = [];
      const misrouted: string[] = [];
      for (const [what, who, body, direct] of cases) {
        const on = await sessions[who].exchange(body);
        directPath.enabled = false;
        const off = await sessions[who].exchange(body).finally(() => {
          directPath.enabled = true;
        });
        if (on.status !== off.status || on.frame !== off.frame) {
          differing.push(`${what}:\n  direct ${on.status} ${on.frame}\n  sdk    ${off.status} ${off.frame}`);
        }
        if (on.servedDirectly !== direct) misrouted.push(`${what}: served directly ${on.servedDirectly}`);
      }
      for (const session of Object.values(sessions)) session.stream.close();
      expect(differing.join("\n")).toBe("");
      expect(misrouted).toEqual([]);
    },
    120_000,
  );
});
