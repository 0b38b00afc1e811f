import { z } from "zod";
import * as banking from "../../modules/banking/index.js";
import { MOVEMENT_STATES, movementOut, toMovementOut } from "../../modules/banking/index.js";
import { BadRequestError } from "../../platform/http/errors.js";
import { companyIdArg, dateArg, defineTool, limitArg, offsetArg, pageOf, toolArgs } from "../tool-kit.js";

const access = { scope: "mcp:banking", permission: "banking:leer" };

export const listBankMovements = defineTool({
  name: "list_bank_movements",
  title: "Bank movements",
  description:
    "Lists the movements of the imported bank statements (Norma 43 / CAMT.053), by operation date, each " +
    "with its status and either its match or its suggestions. status: pendiente (nothing matches), sugerido " +
    "(open customer receipts or supplier payments scoring 50-100: each suggestion gives the invoice code, " +
    "contact, open amount, score and the reasons — exact amount 40, invoice code in the concept 30, tax id " +
    "20 or name 10, due date within 7 days 10), conciliado (its reconciliation: receipt, payment or entry, " +
    "with the entry id) or ignorado. Amounts are signed decimal strings: positive is money in. Filter by " +
    "status and a date range; returns {items, total, limit, offset}, call again with offset + limit for " +
    "the next page. Read-only: reconciling is done in the application.",
  access,
  notFoundHint: "Call list_bank_movements without company_id to read the companies this token may see.",
  input: toolArgs({
    status: z
      .enum(MOVEMENT_STATES, { message: `status must be one of ${MOVEMENT_STATES.join(", ")}` })
      .optional()
      .describe("pendiente, sugerido, conciliado or ignorado; omitted: all"),
    date_from: dateArg("date_from (operation date, inclusive)").optional(),
    date_to: dateArg("date_to (operation date, inclusive)").optional(),
    company_id: companyIdArg,
    limit: limitArg,
    offset: offsetArg,
  }),
  output: pageOf(movementOut),
  async run(ctx, args) {
    if (args.date_from && args.date_to && args.date_from > args.date_to) {
      throw new BadRequestError("date_from is after date_to", [
        { path: "date_from", message: "must not be after date_to" },
      ]);
    }
    const { rows, total } = await banking.listMovements(ctx, {
      companyId: args.company_id,
      status: args.status,
      dateFrom: args.date_from,
      dateTo: args.date_to,
      limit: args.limit,
      offset: args.offset,
    });
    return { items: rows.map(toMovementOut), total, limit: args.limit, offset: args.offset };
  },
});
