import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/helpers/app.js";
import { createCompany, createFiscalYear } from "../modules/accounting/test-support.js";
import { expectStatus } from "../modules/documents/test-support.js";
import { insertBudget, insertItem, setBudgetEstado } from "../modules/projects/test-support.js";
import {
  createApiToken,
  errorText,
  outOfScope,
  sseClient,
  streamableClient,
  structured,
} from "./test-support.js";

let t: TestApp;
let base: string;
const clients: Client[] = [];
let north: string;
let south: string;
let budgetA: { id: string; code: string };
let budgetB: { id: string; code: string };
let validated: { id: string };
let draft: { id: string };
let certB: { id: string };

const v1 = (method: "POST" | "PUT", url: string, payload: object) =>
  t.as(t.adminToken, { method, url: `/api/v1${url}`, payload });

async function certify(budgetId: string, itemId: string, quantity: string, estados: string[]) {
  const cert = expectStatus<{ id: string }>(
    await v1("POST", "/certifications", {
      budget_id: budgetId,
      period_start: "2026-03-01",
      period_end: "2026-03-31",
      lines: [{ budget_item_id: itemId, quantity_to_origin: quantity }],
    }),
    201,
  );
  for (const estado of estados) {
    expectStatus(await v1("PUT", `/certifications/${cert.id}/estado`, { estado }), 200);
  }
  return cert;
}

/**
 * North's budget MCPA: chapter 01 (10 x 100 = 1000.00, certified 4 = 400.00 by a validated
 * certification, 150.00 of cost) and chapter 02 (5 x 40 = 200.00). South's budget MCPB, finalizado.
 */
beforeAll(async () => {
  t = await createTestApp();
  north = await createCompany(t, { name: "MCP Proyectos Norte" });
  south = await createCompany(t, { name: "MCP Proyectos Sur" });
  await createFiscalYear(t, north, "2025");
  await createFiscalYear(t, north, "2026");
  await createFiscalYear(t, south, "2026");
  budgetA = await insertBudget(t.db, {
    companyId: north,
    code: "MCPA",
    name: "Edificio Norte",
    clientName: "Promotora Atlántica",
  });
  const ch1 = await insertItem(t.db, budgetA.id, { code: "01", kind: "chapter", summary: "Cimentación" });
  const ch2 = await insertItem(t.db, budgetA.id, {
    code: "02",
    kind: "chapter",
    position: 1,
    summary: "Estructura",
  });
  const a1 = await insertItem(t.db, budgetA.id, {
    code: "01.01",
    parentId: ch1.id,
    quantity: "10",
    unitPrice: "100",
  });
  await insertItem(t.db, budgetA.id, { code: "02.01", parentId: ch2.id, quantity: "5", unitPrice: "40" });
  validated = await certify(budgetA.id, a1.id, "4", ["emitida", "validada"]);
  draft = await certify(budgetA.id, a1.id, "6", []);
  expectStatus(
    await v1("POST", "/accounting", {
      budget_id: budgetA.id,
      budget_item_id: a1.id,
      date: "2026-03-10",
      category: "material",
      net_amount: "150.00",
    }),
    201,
  );
  budgetB = await insertBudget(t.db, {
    companyId: south,
    code: "MCPB",
    name: "Nave Sur",
  });
  const b1 = await insertItem(t.db, budgetB.id, { code: "01", quantity: "1", unitPrice: "10" });
  certB = await certify(budgetB.id, b1.id, "1", []);
  await setBudgetEstado(t.db, budgetB.id, "finalizado");
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

const call = (client: Client, name: string, args: Record<string, unknown> = {}) =>
  client.callTool({ name, arguments: args });

interface Page<T = Record<string, unknown>> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
}
interface Chapter {
  code: string;
  summary: string;
  budgeted: string;
  certified: string;
  actual_cost: string;
  margin: string;
}
interface BudgetDetail {
  id: string;
  code: string;
  pem: string;
  cost_summary: { certification_number: number | null; chapters: Chapter[]; totals: Chapter } | null;
}

describe("project tools", () => {
  it("lists only the project tools, plus list_companies and list_fiscal_years, for mcp:projects", async () => {
    const client = await clientWith(["mcp:projects"]);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "get_budget",
      "get_certification",
      "list_budgets",
      "list_certifications",
      "list_companies",
      "list_fiscal_years",
    ]);
    expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
  });

  it("answers over SSE as over streamable HTTP", async () => {
    const { client } = await sseClient(base, (await createApiToken(t, ["mcp:projects"])).token);
    clients.push(client);
    const detail = structured<BudgetDetail>(await call(client, "get_budget", { code: "MCPA" }));
    expect(detail).toMatchObject({ id: budgetA.id, pem: "1200.00" });
    const certs = structured<Page>(await call(client, "list_certifications", { budget_id: budgetA.id }));
    expect(certs.total).toBe(2);
  });

  it("list_budgets filters by estado and search and pages", async () => {
    const client = await clientWith(["mcp:projects"]);
    const all = structured<Page<{ code: string }>>(await call(client, "list_budgets"));
    expect(all.items.map((b) => b.code)).toEqual(["MCPA", "MCPB"]);
    expect(all).toMatchObject({ total: 2, limit: 50, offset: 0 });
    const running = structured<Page<{ code: string; pem: string }>>(
      await call(client, "list_budgets", { estado: "en_ejecucion" }),
    );
    expect(running.items).toEqual([expect.objectContaining({ code: "MCPA", pem: "1200.00" })]);
    const byClient = structured<Page<{ code: string }>>(
      await call(client, "list_budgets", { search: "atlántica" }),
    );
    expect(byClient.items.map((b) => b.code)).toEqual(["MCPA"]);
    const second = structured<Page<{ code: string }>>(
      await call(client, "list_budgets", { limit: 1, offset: 1 }),
    );
    expect(second).toMatchObject({ total: 2, items: [{ code: "MCPB" }] });
  });

  it("get_budget by id or code gives the chapter summary the REST cost summary gives", async () => {
    const client = await clientWith(["mcp:projects"]);
    const byCode = structured<BudgetDetail>(await call(client, "get_budget", { code: "MCPA" }));
    const byId = structured<BudgetDetail>(await call(client, "get_budget", { budget_id: budgetA.id }));
    expect(byId).toEqual(byCode);
    expect(byCode).toMatchObject({ id: budgetA.id, pem: "1200.00" });
    expect(byCode.cost_summary?.certification_number).toBe(1);
    expect(byCode.cost_summary?.chapters).toEqual([
      expect.objectContaining({
        code: "01",
        summary: "Cimentación",
        budgeted: "1000.00",
        certified: "400.00",
        actual_cost: "150.00",
        margin: "250.00",
      }),
      expect.objectContaining({
        code: "02",
        budgeted: "200.00",
        certified: "0.00",
        actual_cost: "0.00",
        margin: "0.00",
      }),
    ]);
    const rest = expectStatus<{ chapters: Array<Record<string, unknown>>; totals: unknown }>(
      await t.as(t.adminToken, { method: "GET", url: `/api/v1/accounting/summary?budget_id=${budgetA.id}` }),
      200,
    );
    expect(byCode.cost_summary?.totals).toEqual(rest.totals);
    expect(byCode.cost_summary?.chapters.map((c) => c.margin)).toEqual(rest.chapters.map((c) => c.margin));
  });

  it("list_certifications filters by budget and estado; get_certification has lines and totals", async () => {
    const client = await clientWith(["mcp:projects"]);
    const ofA = structured<Page<{ id: string; number: number; estado: string }>>(
      await call(client, "list_certifications", { budget_id: budgetA.id }),
    );
    expect(ofA.items.map((c) => [c.id, c.number, c.estado])).toEqual([
      [validated.id, 1, "validada"],
      [draft.id, 2, "borrador"],
    ]);
    const drafts = structured<Page<{ id: string }>>(
      await call(client, "list_certifications", { estado: "borrador" }),
    );
    expect(drafts.items.map((c) => c.id).sort()).toEqual([draft.id, certB.id].sort());
    const page = structured<Page>(await call(client, "list_certifications", { limit: 1 }));
    expect(page).toMatchObject({ total: 3, limit: 1 });
    expect(page.items).toHaveLength(1);

    const detail = structured<{
      id: string;
      budget_code: string;
      previous_number: number | null;
      lines: Array<{ code: string }>;
      totals: { pem_to_origin: string; pem_previous: string; pem_this_period: string };
    }>(await call(client, "get_certification", { certification_id: draft.id }));
    expect(detail).toMatchObject({ id: draft.id, budget_code: "MCPA", previous_number: 1 });
    expect(detail.lines.map((l) => l.code)).toContain("01.01");
    expect(detail.totals).toMatchObject({
      pem_to_origin: "600.00",
      pem_previous: "400.00",
      pem_this_period: "200.00",
    });
    const rest = expectStatus(
      await t.as(t.adminToken, { method: "GET", url: `/api/v1/certifications/${draft.id}` }),
      200,
    );
    expect(detail).toEqual(rest);
  });

  it("answers not found and explains bad arguments", async () => {
    const client = await clientWith(["mcp:projects"]);
    const missing = "00000000-0000-7000-8000-000000000000";
    expect(errorText(await call(client, "get_budget", { budget_id: missing }))).toMatch(
      /not found.*list_budgets/i,
    );
    expect(errorText(await call(client, "get_budget", { code: "NOPE" }))).toMatch(/not found.*list_budgets/i);
    expect(errorText(await call(client, "get_certification", { certification_id: missing }))).toMatch(
      /not found.*list_certifications/i,
    );
    expect(errorText(await call(client, "get_budget", {}))).toMatch(/exactly one of budget_id and code/);
    expect(errorText(await call(client, "get_budget", { budget_id: budgetA.id, code: "MCPA" }))).toMatch(
      /exactly one of budget_id and code/,
    );
    expect(errorText(await call(client, "get_budget", { budget_id: "MCPA" }))).toMatch(
      /budget_id must be a UUID/,
    );
    expect(errorText(await call(client, "list_budgets", { estado: "abierto" }))).toMatch(
      /estado must be one of borrador/,
    );
    expect(errorText(await call(client, "list_certifications", { estado: "pagada" }))).toMatch(
      /estado must be one of borrador, emitida/,
    );
    expect(errorText(await call(client, "list_certifications", { limit: 500 }))).toMatch(
      /limit is at most 200/,
    );
    expect(errorText(await call(client, "get_certification", {}))).toMatch(/certification_id/);
    expect(errorText(await call(client, "list_budgets", { page: 2 }))).toMatch(/Unknown argument page/);
  });

  it("keeps a token restricted to a company to that company's budgets and certifications", async () => {
    const client = await clientWith(["mcp:projects"], { companyId: south });
    const budgets = structured<Page<{ code: string }>>(await call(client, "list_budgets"));
    expect(budgets).toMatchObject({ total: 1, items: [{ code: "MCPB" }] });
    expect(structured<BudgetDetail>(await call(client, "get_budget", { code: "MCPB" })).id).toBe(budgetB.id);
    expect(errorText(await call(client, "get_budget", { code: "MCPA" }))).toMatch(/Budget not found/);
    expect(errorText(await call(client, "get_budget", { budget_id: budgetA.id }))).toMatch(
      /Budget not found/,
    );
    const certs = structured<Page<{ id: string }>>(await call(client, "list_certifications"));
    expect(certs.items.map((c) => c.id)).toEqual([certB.id]);
    expect(structured<Page>(await call(client, "list_certifications", { budget_id: budgetA.id })).total).toBe(
      0,
    );
    expect(errorText(await call(client, "get_certification", { certification_id: validated.id }))).toMatch(
      /Certification not found/,
    );
  });

  it("is not offered without mcp:projects or the user's read permissions", async () => {
    const contactsOnly = await clientWith(["mcp:contacts"]);
    const names = (await contactsOnly.listTools()).tools.map((tool) => tool.name);
    expect(names).not.toContain("list_budgets");
    expect(names).toContain("list_companies");
    await expect(call(contactsOnly, "list_budgets")).rejects.toThrow(outOfScope("mcp:projects"));
    await expect(call(contactsOnly, "get_certification", { certification_id: draft.id })).rejects.toThrow(
      outOfScope("mcp:projects"),
    );

    const budgetsOnly = await t.userWith(["api_tokens:crear", "budgets:leer"]);
    const reader = await clientWith(["mcp:projects"], { as: budgetsOnly.token });
    const offered = (await reader.listTools()).tools.map((tool) => tool.name);
    expect(offered.sort()).toEqual(["get_budget", "list_budgets"]);
    // Actual costs are behind accounting:leer, as in the REST API.
    const detail = structured<BudgetDetail>(await call(reader, "get_budget", { code: "MCPA" }));
    expect(detail).toMatchObject({ pem: "1200.00", cost_summary: null });
    expect(errorText(await call(reader, "list_certifications"))).toMatch(/certifications:leer/);

    const noBudgets = await t.userWith(["api_tokens:crear", "clients:leer"]);
    const other = await clientWith(["mcp"], { as: noBudgets.token });
    expect((await other.listTools()).tools.map((tool) => tool.name)).not.toContain("list_budgets");
    expect(errorText(await call(other, "get_budget", { code: "MCPA" }))).toMatch(/budgets:leer/);
  });
});

describe("list_companies and list_fiscal_years", () => {
  it("list the companies and fiscal years the token sees, to any MCP token", async () => {
    const client = await clientWith(["mcp:contacts"]);
    const companies = structured<Page<{ id: string; name: string }>>(
      await call(client, "list_companies", { search: "MCP Proyectos" }),
    );
    expect(companies.items.map((c) => c.name)).toEqual(["MCP Proyectos Norte", "MCP Proyectos Sur"]);
    const years = structured<Page<{ company_id: string; code: string; estado: string }>>(
      await call(client, "list_fiscal_years", { company_id: north }),
    );
    expect(years.items.map((y) => y.code)).toEqual(["2026", "2025"]);
    expect(years.items.every((y) => y.company_id === north && y.estado === "abierto")).toBe(true);
    expect(
      structured<Page>(await call(client, "list_fiscal_years", { company_id: north, estado: "cerrado" }))
        .total,
    ).toBe(0);
    expect(errorText(await call(client, "list_fiscal_years", { estado: "open" }))).toMatch(
      /abierto or cerrado/,
    );
    expect(errorText(await call(client, "list_fiscal_years", { company_id: "north" }))).toMatch(
      /company_id must be a UUID/,
    );
    expect(errorText(await call(client, "list_companies", { name: "x" }))).toMatch(/Unknown argument name/);
  });

  it("shows a restricted token only its own company", async () => {
    const client = await clientWith(["mcp:projects"], { companyId: south });
    const companies = structured<Page<{ id: string }>>(await call(client, "list_companies"));
    expect(companies.items.map((c) => c.id)).toEqual([south]);
    const years = structured<Page<{ company_id: string }>>(await call(client, "list_fiscal_years"));
    expect(years.items.map((y) => y.company_id)).toEqual([south]);
    expect(structured<Page>(await call(client, "list_fiscal_years", { company_id: north })).total).toBe(0);
  });

  it("needs the user's companies:leer and accounting:leer", async () => {
    const user = await t.userWith(["api_tokens:crear", "clients:leer"]);
    const client = await clientWith(["mcp"], { as: user.token });
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).not.toContain("list_companies");
    expect(names).not.toContain("list_fiscal_years");
    expect(errorText(await call(client, "list_companies"))).toMatch(/companies:leer/);
  });
});
