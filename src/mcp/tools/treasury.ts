import { z } from "zod";
import { getCashFlow as cashFlowOf, cashFlowOut, toCashFlowOut } from "../../modules/treasury/index.js";
import { companyIdArg, dateArg, defineTool, toolArgs, uuidArg } from "../tool-kit.js";

const access = { scope: "mcp:treasury", permission: "treasury:leer" };

export const getCashFlow = defineTool({
  name: "get_cash_flow",
  title: "Cash-flow forecast",
  description:
    "Treasury snapshot and forecast: how much cash the company has in its banks and how much it will " +
    "have. Needs no argument: by default from today to 90 days on, by ISO week. Returns the opening " +
    "balance (the ledger's balance of the bank subaccounts, plus what falls due between today and `from`), " +
    "per bucket the inflows (open customer receipts by due date, positive forecast lines of the treasury " +
    "budget) and outflows (open supplier payments, negative forecast lines), the net and the running " +
    "closing balance; overdue receivables and payables apart (not in the buckets); and each bank " +
    "account's balance. The last bucket's closing answers 'how much cash will we have at the end of the " +
    "period?'. Amounts are decimal strings in euros.",
  access,
  notFoundHint:
    "Check company_id with the company_id field of any record, or omit it when the tenant has one company.",
  input: toolArgs({
    from: dateArg("from").optional().describe("First day of the forecast, YYYY-MM-DD (default today)"),
    to: dateArg("to").optional().describe("Last day, YYYY-MM-DD (default from + 90 days)"),
    granularity: z
      .enum(["day", "week", "month"], { message: "granularity must be day, week or month" })
      .optional()
      .describe(
        "Bucket size: day, week (ISO, Monday to Sunday) or month (default week); at most 400 buckets",
      ),
    bank_account_id: uuidArg("bank_account_id", "the bank_balances of a previous get_cash_flow call")
      .optional()
      .describe("Only this bank account's balance and forecast lines (a UUID from bank_balances)"),
    company_id: companyIdArg,
  }),
  output: cashFlowOut,
  async run(ctx, args) {
    return toCashFlowOut(
      await cashFlowOf(ctx, {
        companyId: args.company_id,
        from: args.from,
        to: args.to,
        granularity: args.granularity,
        bankAccountId: args.bank_account_id,
      }),
    );
  },
});
