/**
 * Shared setup of the ledger's tests, through the HTTP API (this file is not a test itself).
 * It depends on Fastify's inject types only, so it compiles with the rest of src.
 */
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import type { AuthedCtx, Ctx } from "../../platform/http/context.js";
import { cifControlDigit } from "../../platform/tax-id.js";

export interface ApiCaller {
  adminToken: string;
  as(token: string, options: InjectOptions): Promise<LightMyRequestResponse>;
}

/** A service context outside HTTP, acting for an unrestricted user (or one restricted to a company). */
export function serviceCtx(ctx: Ctx, companyId: string | null = null): AuthedCtx {
  return {
    ...ctx,
    actor: {
      kind: "user",
      userId: "0190f2a4-0000-7000-8000-00000000a11c",
      email: "ledger-test@example.com",
      fullName: "Ledger test",
      permissions: new Set(),
      roles: [],
      companyId,
    },
  };
}

let companyCounter = 0;

/** A valid CIF that no other company of the test run uses. */
export function uniqueCif(): string {
  companyCounter += 1;
  const digits = String((process.pid * 1000 + companyCounter) % 10_000_000).padStart(7, "0");
  return `B${digits}${cifControlDigit(digits)}`;
}

function expectStatus(res: LightMyRequestResponse, status: number, what: string) {
  if (res.statusCode !== status) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
  return res.json();
}

export async function createCompany(api: ApiCaller, opts: { name?: string; subaccountLength?: number } = {}) {
  const res = await api.as(api.adminToken, {
    method: "POST",
    url: "/api/companies",
    payload: {
      name: opts.name ?? "Ledger test company",
      tax_id: uniqueCif(),
      ...(opts.subaccountLength ? { subaccount_length: opts.subaccountLength } : {}),
    },
  });
  return expectStatus(res, 201, "create company").id as string;
}

export async function createFiscalYear(
  api: ApiCaller,
  companyId: string,
  code = "2026",
  dates: { start?: string; end?: string } = {},
) {
  const res = await api.as(api.adminToken, {
    method: "POST",
    url: "/api/accounting/fiscal-years",
    payload: {
      company_id: companyId,
      code,
      start_date: dates.start ?? `${code}-01-01`,
      end_date: dates.end ?? `${code}-12-31`,
    },
  });
  return expectStatus(res, 201, "create fiscal year") as { id: string; code: string };
}

export async function createSubaccount(
  api: ApiCaller,
  companyId: string,
  code: string,
  fiscalYearCode = "2026",
  name = `Subaccount ${code}`,
) {
  const res = await api.as(api.adminToken, {
    method: "POST",
    url: "/api/accounting/subaccounts",
    payload: { company_id: companyId, fiscal_year_code: fiscalYearCode, code, name },
  });
  return expectStatus(res, 201, "create subaccount") as { id: string; code: string };
}

export interface LineBody {
  subaccount_code: string;
  debit?: string;
  credit?: string;
  description?: string;
}

export const debit = (code: string, amount: string): LineBody => ({ subaccount_code: code, debit: amount });
export const credit = (code: string, amount: string): LineBody => ({ subaccount_code: code, credit: amount });

export function postEntry(
  api: ApiCaller,
  body: {
    company_id?: string;
    fiscal_year_code?: string;
    journal?: string;
    date: string;
    concept?: string;
    lines: LineBody[];
  },
  token = api.adminToken,
) {
  return api.as(token, {
    method: "POST",
    url: "/api/accounting/entries",
    payload: { concept: "Test entry", ...body },
  });
}

/** A company with year 2026 and the subaccounts most tests post to. */
export async function ledgerFixture(api: ApiCaller) {
  const companyId = await createCompany(api);
  const year = await createFiscalYear(api, companyId, "2026");
  const codes = {
    customer: "4300000001",
    supplier: "4000000001",
    bank: "5720000001",
    sales: "7000000001",
    purchases: "6000000001",
    vatOutput: "4770000001",
    vatInput: "4720000001",
  };
  for (const code of Object.values(codes)) await createSubaccount(api, companyId, code);
  return { companyId, year, codes };
}
