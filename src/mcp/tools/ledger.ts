import { z } from "zod";
import * as ledger from "../../modules/accounting/index.js";
import {
  accountBalanceOut,
  accountOut,
  entryOut,
  toAccountBalanceOut,
  toAccountOut,
  toEntryOut,
} from "../../modules/accounting/index.js";
import { BadRequestError } from "../../platform/http/errors.js";
import { companyIdArg, dateArg, defineTool, limitArg, offsetArg, pageOf, toolArgs } from "../tool-kit.js";

const access = { scope: "mcp:accounting", permission: "accounting:leer" };

const fiscalYearCodeArg = z
  .string()
  .trim()
  .min(1, { message: "fiscal_year_code must not be empty" })
  .max(20, { message: "fiscal_year_code is at most 20 characters" })
  .describe('Code of the fiscal year (ejercicio), e.g. "2026"');

export const listAccounts = defineTool({
  name: "list_accounts",
  title: "Chart of accounts",
  description:
    "Lists the chart of accounts (Spanish PGC 2007: groups of 1 digit, subgroups of 2, accounts of 3 or " +
    "more) of each fiscal year, ordered by year and code. Give fiscal_year_code to read one year. Returns " +
    "{items, total, limit, offset}; call again with offset + limit for the next page. Use " +
    "get_account_balance for an account's debit, credit and balance.",
  access,
  notFoundHint:
    "List the fiscal years' accounts with list_accounts without fiscal_year_code to see which years exist.",
  input: toolArgs({
    fiscal_year_code: fiscalYearCodeArg.optional(),
    is_active: z
      .boolean()
      .optional()
      .describe("true: active accounts only; false: inactive only; omitted: all"),
    company_id: companyIdArg,
    limit: limitArg,
    offset: offsetArg,
  }),
  output: pageOf(accountOut),
  async run(ctx, args) {
    const { rows, total } = await ledger.listAccounts(ctx, {
      companyId: args.company_id,
      fiscalYearCode: args.fiscal_year_code,
      isActive: args.is_active,
      limit: args.limit,
      offset: args.offset,
    });
    return { items: rows.map(toAccountOut), total, limit: args.limit, offset: args.offset };
  },
});

export const getAccountBalance = defineTool({
  name: "get_account_balance",
  title: "Account balance",
  description:
    "Debit, credit and balance (debit - credit; positive is a debit balance) of a group, subgroup, " +
    "account or subaccount code over a whole fiscal year, the same figures as the balances report. " +
    "Without fiscal_year_code, the latest fiscal year already started. Amounts are decimal strings.",
  access,
  notFoundHint: "Check the code with list_accounts and the fiscal year code (e.g. 2026).",
  input: toolArgs({
    account_code: z
      .string()
      .trim()
      .regex(/^\d{1,15}$/, { message: "account_code must be 1 to 15 digits, e.g. 430 or 4300001" })
      .describe("Group (1 digit), subgroup (2), account (3 or more) or subaccount code, e.g. 572"),
    fiscal_year_code: fiscalYearCodeArg.optional(),
    company_id: companyIdArg,
  }),
  output: accountBalanceOut,
  async run(ctx, args) {
    const balance = await ledger.getAccountBalance(ctx, {
      accountCode: args.account_code,
      fiscalYearCode: args.fiscal_year_code,
      companyId: args.company_id,
    });
    return toAccountBalanceOut(balance);
  },
});

export const listJournalEntries = defineTool({
  name: "list_journal_entries",
  title: "Journal entries",
  description:
    "Lists posted journal entries (asientos), latest date first, each with its lines (subaccount, " +
    "debit, credit). Filter by fiscal_year_code and a date range. Returns {items, total, limit, offset}; " +
    "call again with offset + limit for the next page. Amounts are decimal strings.",
  access,
  notFoundHint: "Check the fiscal year code (e.g. 2026) with list_accounts.",
  input: toolArgs({
    fiscal_year_code: fiscalYearCodeArg.optional(),
    date_from: dateArg("date_from").optional(),
    date_to: dateArg("date_to").optional(),
    company_id: companyIdArg,
    limit: limitArg,
    offset: offsetArg,
  }),
  output: pageOf(entryOut),
  async run(ctx, args) {
    if (args.date_from && args.date_to && args.date_from > args.date_to) {
      throw new BadRequestError("date_from is after date_to", [
        { path: "date_from", message: "must not be after date_to" },
      ]);
    }
    const { rows, total } = await ledger.listEntriesWithLines(ctx, {
      companyId: args.company_id,
      fiscalYearCode: args.fiscal_year_code,
      dateFrom: args.date_from,
      dateTo: args.date_to,
      limit: args.limit,
      offset: args.offset,
    });
    return { items: rows.map(toEntryOut), total, limit: args.limit, offset: args.offset };
  },
});
