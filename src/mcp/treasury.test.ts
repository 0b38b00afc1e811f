import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/helpers/app.js";
import { createCompany } from "../modules/accounting/test-support.js";
import { expectStatus, line } from "../modules/documents/test-support.js";
import { issuedSalesInvoice, treasuryFixture } from "../modules/treasury/test-support.js";
import {
  createApiToken,
  errorText,
  outOfScope,
  streamableClient,
  structured,
  withAnyTokenTools,
} from "./test-support.js";

let t: TestApp;
let fx: Awaited<ReturnType<typeof treasuryFixture>>;
let base: string;
const clients: Client[] = [];

beforeAll(async () => {
  t = await createTestApp();
  fx = await treasuryFixture(t);
  // A receipt paid into the bank (ledger balance 121.00) and one left overdue (242.00).
  const paid = await issuedSalesInvoice(t, fx.companyId, fx.customer.id, [line("1", "100")]);
  await issuedSalesInvoice(t, fx.companyId, fx.customer.id, [line("2", "100")]);
  const receipts = expectStatus<{ data: Array<{ id: string; invoice_id: string }> }>(
    await t.as(t.adminToken, { method: "GET", url: `/api/treasury/customer-receipts?invoice_id=${paid.id}` }),
    200,
  );
  expectStatus(
    await t.as(t.adminToken, {
      method: "POST",
      url: `/api/treasury/customer-receipts/${receipts.data[0].id}/pay`,
      payload: { date: "2026-03-12", amount: "121.00", bank_account_id: fx.bank.id },
    }),
    201,
  );
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await t?.close();
});

async function clientWith(scopes: string[], opts: { companyId?: string; as?: string } = {}) {
  const { token } = await createApiToken(t, scopes, opts);
  const client = await streamableClient(base, token);
  clients.push(client);
  return client;
}

interface Flow {
  from: string;
  to: string;
  granularity: string;
  opening: string;
  ledger_balance: string;
  buckets: unknown[];
  overdue: { receivables: string; receivables_count: number };
  bank_balances: Array<{ name: string; balance: string }>;
}

describe("get_cash_flow", () => {
  it("is listed for mcp:treasury, needs no argument and agrees with GET /api/treasury/cash-flow", async () => {
    const client = await clientWith(["mcp:treasury"], { companyId: fx.companyId });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(withAnyTokenTools(["get_cash_flow"]));
    const cashFlow = tools.find((tool) => tool.name === "get_cash_flow");
    expect(cashFlow?.inputSchema.required ?? []).toEqual([]);
    const flow = structured<Flow>(await client.callTool({ name: "get_cash_flow", arguments: {} }));
    expect(flow.granularity).toBe("week");
    expect(flow.buckets.length).toBeGreaterThanOrEqual(13);
    expect(flow).toMatchObject({
      ledger_balance: "121.00",
      overdue: { receivables: "242.00", receivables_count: 1 },
      bank_balances: [{ name: "Banco Uno", balance: "121.00" }],
    });
    const rest = expectStatus(
      await t.as(t.adminToken, { method: "GET", url: `/api/treasury/cash-flow?company_id=${fx.companyId}` }),
      200,
    );
    expect(flow).toEqual(rest);

    const monthly = structured<Flow>(
      await client.callTool({
        name: "get_cash_flow",
        arguments: { from: "2026-12-01", to: "2027-02-28", granularity: "month" },
      }),
    );
    expect(monthly).toMatchObject({ from: "2026-12-01", to: "2027-02-28", granularity: "month" });
    expect(monthly.buckets).toHaveLength(3);
  });

  it("explains bad arguments and keeps a restricted token to its company", async () => {
    const client = await clientWith(["mcp:treasury"]);
    expect(
      errorText(await client.callTool({ name: "get_cash_flow", arguments: { granularity: "year" } })),
    ).toMatch(/day, week or month/);
    expect(
      errorText(
        await client.callTool({
          name: "get_cash_flow",
          arguments: { company_id: fx.companyId, from: "2027-01-02", to: "2027-01-01" },
        }),
      ),
    ).toMatch(/from is after to.*call get_cash_flow again/);
    expect(errorText(await client.callTool({ name: "get_cash_flow", arguments: { page: 1 } }))).toMatch(
      /Unknown argument page/,
    );

    const other = await createCompany(t, { name: "MCP treasury other" });
    const restricted = await clientWith(["mcp:treasury"], { companyId: other });
    expect(
      errorText(
        await restricted.callTool({ name: "get_cash_flow", arguments: { company_id: fx.companyId } }),
      ),
    ).toMatch(/not found/i);
    const own = structured<Flow>(await restricted.callTool({ name: "get_cash_flow", arguments: {} }));
    expect(own).toMatchObject({
      ledger_balance: "0.00",
      overdue: { receivables: "0.00" },
      bank_balances: [],
    });
  });

  it("is not offered without the mcp:treasury rule or the treasury:leer permission", async () => {
    const contactsOnly = await clientWith(["mcp:contacts"]);
    const { tools } = await contactsOnly.listTools();
    expect(tools.map((tool) => tool.name)).not.toContain("get_cash_flow");
    await expect(contactsOnly.callTool({ name: "get_cash_flow", arguments: {} })).rejects.toThrow(
      outOfScope("mcp:treasury"),
    );

    const user = await t.userWith(["api_tokens:crear", "clients:leer"]);
    const noPermission = await clientWith(["mcp"], { as: user.token });
    const listed = await noPermission.listTools();
    expect(listed.tools.map((tool) => tool.name)).not.toContain("get_cash_flow");
  });
});
