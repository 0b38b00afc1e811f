import { z } from "zod";
import * as accounting from "../../modules/accounting/index.js";
import { FISCAL_YEAR_STATES, fiscalYearOut, toFiscalYearOut } from "../../modules/accounting/index.js";
import * as companies from "../../modules/companies/index.js";
import { companyOut, toCompanyOut } from "../../modules/companies/index.js";
import { defineTool, limitArg, offsetArg, pageOf, toolArgs, uuidArg } from "../tool-kit.js";

/** Any MCP token: the other tools take company_id and fiscal_year_code, and these say which exist. */
const scope = "mcp";

export const listCompanies = defineTool({
  name: "list_companies",
  title: "List companies",
  description:
    "Lists the active companies this token can see (a token restricted to one company sees only it), " +
    "oldest first. Their id is the company_id other tools take when the tenant has several companies. " +
    "Filter by search (name, legal name or tax ID). Returns {items, total, limit, offset}.",
  access: { scope, permission: "companies:leer" },
  notFoundHint: "Call list_companies without search to see every company this token can read.",
  input: toolArgs({
    search: z
      .string()
      .trim()
      .max(200, { message: "search is at most 200 characters" })
      .optional()
      .describe("Text contained in the name, legal name or tax ID"),
    limit: limitArg,
    offset: offsetArg,
  }),
  output: pageOf(companyOut),
  async run(ctx, args) {
    const { rows, total } = await companies.listCompanies(ctx, {
      search: args.search || undefined,
      limit: args.limit,
      offset: args.offset,
    });
    return { items: rows.map(toCompanyOut), total, limit: args.limit, offset: args.offset };
  },
});

export const listFiscalYears = defineTool({
  name: "list_fiscal_years",
  title: "List fiscal years",
  description:
    "Lists the fiscal years (ejercicios) of the companies this token can see, with their dates and " +
    "state (abierto or cerrado), latest first. Their code is the fiscal_year_code other tools take. Filter by " +
    "company_id and estado. Returns {items, total, limit, offset}.",
  access: { scope, permission: "accounting:leer" },
  notFoundHint: "Check company_id with list_companies.",
  input: toolArgs({
    company_id: uuidArg("company_id", "list_companies")
      .optional()
      .describe("Only this company's years (a UUID from list_companies); omitted: every visible company"),
    estado: z
      .enum(FISCAL_YEAR_STATES, { message: "estado must be abierto or cerrado" })
      .optional()
      .describe("abierto (open) or cerrado (closed)"),
    limit: limitArg,
    offset: offsetArg,
  }),
  output: pageOf(fiscalYearOut),
  async run(ctx, args) {
    const { rows, total } = await accounting.listFiscalYears(ctx, {
      companyId: args.company_id,
      estado: args.estado,
      limit: args.limit,
      offset: args.offset,
    });
    return { items: rows.map(toFiscalYearOut), total, limit: args.limit, offset: args.offset };
  },
});
