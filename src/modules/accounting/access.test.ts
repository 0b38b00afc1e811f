import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers/app.js";
import { credit, debit, ledgerFixture, postEntry } from "./test-support.js";

const ACTIONS = ["leer", "crear", "editar", "eliminar", "validar"] as const;

let t: TestApp;
let a: Awaited<ReturnType<typeof ledgerFixture>>;
let b: Awaited<ReturnType<typeof ledgerFixture>>;
let entryA: { id: string; journal_id: string };
let entryB: { id: string; journal_id: string };
let subaccountB: string;
let tokenA: string;

beforeAll(async () => {
  t = await createTestApp();
  a = await ledgerFixture(t);
  b = await ledgerFixture(t);
  const lines = (fx: typeof a) => [debit(fx.codes.bank, "100.00"), credit(fx.codes.sales, "100.00")];
  entryA = (await postEntry(t, { company_id: a.companyId, date: "2026-02-01", lines: lines(a) })).json();
  entryB = (await postEntry(t, { company_id: b.companyId, date: "2026-02-01", lines: lines(b) })).json();
  await postEntry(t, { company_id: b.companyId, date: "2026-02-02", concept: "B only", lines: lines(b) });
  const subaccounts = await t.as(t.adminToken, {
    method: "GET",
    url: `/api/accounting/subaccounts?company_id=${b.companyId}&fiscal_year_code=2026&limit=1`,
  });
  subaccountB = subaccounts.json().data[0].id;
  tokenA = (
    await t.userWith(
      ACTIONS.map((x) => `accounting:${x}`),
      { companyId: a.companyId },
    )
  ).token;
});
afterAll(async () => {
  await t?.close();
});

const asA = (method: "GET" | "POST" | "PUT", url: string, payload?: Record<string, unknown>) =>
  t.as(tokenA, { method, url: `/api/accounting${url}`, payload });

describe("a user restricted to company A", () => {
  it("gets 404 for every record of company B", async () => {
    const attempts: [string, Promise<{ statusCode: number }>][] = [
      ["entry", asA("GET", `/entries/${entryB.id}`)],
      ["reverse", asA("POST", `/entries/${entryB.id}/reverse`, {})],
      ["fiscal year", asA("GET", `/fiscal-years/${b.year.id}`)],
      ["estado", asA("PUT", `/fiscal-years/${b.year.id}/estado`, { estado: "cerrado" })],
      ["journal", asA("GET", `/journals/${entryB.journal_id}`)],
      ["subaccount", asA("GET", `/subaccounts/${subaccountB}`)],
      [
        "entry into B",
        asA("POST", "/entries", {
          company_id: b.companyId,
          date: "2026-03-01",
          concept: "x",
          lines: [debit(b.codes.bank, "1.00"), credit(b.codes.sales, "1.00")],
        }),
      ],
      [
        "year in B",
        asA("POST", "/fiscal-years", {
          company_id: b.companyId,
          code: "2030",
          start_date: "2030-01-01",
          end_date: "2030-12-31",
        }),
      ],
      ["B's balances", asA("GET", `/balances?company_id=${b.companyId}`)],
      ["B's entries by year", asA("GET", `/entries?company_id=${b.companyId}&fiscal_year_code=2026`)],
    ];
    for (const [what, attempt] of attempts) expect((await attempt).statusCode, what).toBe(404);
    expect((await asA("GET", `/entries/${entryA.id}`)).statusCode).toBe(200);
  });

  it("never sees company B's rows in lists or totals", async () => {
    for (const url of [
      "/fiscal-years",
      "/journals",
      "/accounts?limit=10000",
      "/subaccounts?limit=10000",
      "/entries?limit=10000",
      "/entries?fiscal_year_code=2026&limit=10000",
      `/entries?company_id=${b.companyId}`,
      `/subaccounts?company_id=${b.companyId}`,
    ]) {
      const body = (await asA("GET", url)).json();
      expect(body.data.length, url).toBe(body.total);
      for (const row of body.data) expect(row.company_id, url).toBe(a.companyId);
    }
    const entries = (await asA("GET", "/entries")).json();
    expect(entries.total).toBe(1);

    const everything = (await t.as(t.adminToken, { method: "GET", url: "/api/accounting/entries" })).json();
    expect(everything.total).toBe(3);
  });

  it("gets only its own company's balances and trial balance without naming it", async () => {
    const balances = (await asA("GET", "/balances?fiscal_year_code=2026")).json();
    expect(balances.company_id).toBe(a.companyId);
    expect(balances.totals.debit).toBe("100.00");
    const trial = (await asA("GET", "/trial-balance?fiscal_year_code=2026")).json();
    expect(trial.company_id).toBe(a.companyId);
    expect(trial.totals.period_debit).toBe("100.00");
    const account = (await asA("GET", "/balances/7?fiscal_year_code=2026")).json();
    expect(account.credit).toBe("100.00");
  });
});

const ROUTES: { method: "GET" | "POST" | "PUT"; url: () => string; action: (typeof ACTIONS)[number] }[] = [
  { method: "GET", url: () => "/fiscal-years", action: "leer" },
  { method: "GET", url: () => `/fiscal-years/${a.year.id}`, action: "leer" },
  { method: "POST", url: () => "/fiscal-years", action: "crear" },
  { method: "PUT", url: () => `/fiscal-years/${a.year.id}/estado`, action: "validar" },
  { method: "GET", url: () => "/journals", action: "leer" },
  { method: "GET", url: () => `/journals/${entryA.journal_id}`, action: "leer" },
  { method: "POST", url: () => "/journals", action: "crear" },
  { method: "GET", url: () => "/accounts", action: "leer" },
  { method: "GET", url: () => "/subaccounts", action: "leer" },
  { method: "GET", url: () => `/subaccounts/${subaccountB}`, action: "leer" },
  { method: "POST", url: () => "/subaccounts", action: "crear" },
  { method: "GET", url: () => "/entries", action: "leer" },
  { method: "GET", url: () => `/entries/${entryA.id}`, action: "leer" },
  { method: "POST", url: () => "/entries", action: "crear" },
  { method: "POST", url: () => `/entries/${entryA.id}/reverse`, action: "crear" },
  { method: "GET", url: () => "/balances", action: "leer" },
  { method: "GET", url: () => "/balances/430", action: "leer" },
  { method: "GET", url: () => "/trial-balance", action: "leer" },
];

describe("permissions", () => {
  it("answers 403 on every route to a user holding every ledger permission but the route's", async () => {
    const tokens = new Map<string, string>();
    for (const missing of ACTIONS) {
      const permissions = ACTIONS.filter((x) => x !== missing).map((x) => `accounting:${x}`);
      tokens.set(missing, (await t.userWith(permissions)).token);
    }
    for (const route of ROUTES) {
      const res = await t.as(tokens.get(route.action)!, {
        method: route.method,
        url: `/api/accounting${route.url()}`,
        payload: route.method === "GET" ? undefined : {},
      });
      expect(res.statusCode, `${route.method} ${route.url()}`).toBe(403);
      expect(res.json().detail).toContain(`accounting:${route.action}`);
    }
  });

  it("answers 401 without a token", async () => {
    for (const route of ROUTES) {
      const res = await t.app.inject({ method: route.method, url: `/api/accounting${route.url()}` });
      expect(res.statusCode, `${route.method} ${route.url()}`).toBe(401);
    }
  });
});

describe("list conventions", () => {
  const LISTS = ["/fiscal-years", "/journals", "/accounts", "/subaccounts", "/entries"];

  it("answers {data, total, skip, limit} with skip 0 and limit 50 by default", async () => {
    for (const url of LISTS) {
      const res = await t.as(t.adminToken, { method: "GET", url: `/api/accounting${url}` });
      expect(res.statusCode, url).toBe(200);
      const body = res.json();
      // the entries list is bounded: its total is exact up to 10,000 entries
      const envelope =
        url === "/entries"
          ? ["data", "limit", "skip", "total", "total_is_estimate"]
          : ["data", "limit", "skip", "total"];
      expect(Object.keys(body).sort(), url).toEqual(envelope);
      expect(body).toMatchObject({ skip: 0, limit: 50 });
    }
  });

  it("refuses limit 10001, a negative skip and a non-boolean include_inactive with 400", async () => {
    for (const url of LISTS) {
      for (const query of ["limit=10001", "skip=-1", "include_inactive=maybe"]) {
        const res = await t.as(t.adminToken, { method: "GET", url: `/api/accounting${url}?${query}` });
        expect(res.statusCode, `${url}?${query}`).toBe(400);
      }
      const max = await t.as(t.adminToken, { method: "GET", url: `/api/accounting${url}?limit=10000` });
      expect(max.statusCode, url).toBe(200);
    }
  });
});

describe("OpenAPI", () => {
  it("documents every ledger route with its permission and response schemas", async () => {
    const spec = (await t.app.inject({ method: "GET", url: "/api/openapi.json" })).json();
    for (const route of ROUTES) {
      const path = `/api/accounting${route.url()}`
        .replace(/[0-9a-f]{8}-[0-9a-f-]{27}/, "{id}")
        .replace(/\/balances\/430$/, "/balances/{account_code}");
      const operation = spec.paths[path]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${path}`).toBeDefined();
      expect(operation.description).toContain(`accounting:${route.action}`);
      for (const status of ["200", "201"].filter((s) => s in operation.responses)) {
        expect(operation.responses[status].content["application/json"].schema, path).toBeDefined();
      }
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(["401", "403"]));
    }
  });
});
