import { z } from "zod";
import * as tax from "../../modules/tax/index.js";
import { layOutBoxes, returnBoxOut, vatBookRowOut } from "../../modules/tax/index.js";
import { BadRequestError } from "../../platform/http/errors.js";
import { companyIdArg, dateArg, defineTool, limitArg, offsetArg, pageOf, toolArgs } from "../tool-kit.js";

const access = { scope: "mcp:tax", permission: "tax:leer" };

const vatReturnOut = z.object({
  id: z.string().nullable().describe("The stored return's id; null for a draft computed on the fly"),
  company_id: z.string(),
  model: z.string(),
  year: z.number().int(),
  period: z.string(),
  date_from: z.string(),
  date_to: z.string(),
  estado: z.string().describe("borrador (draft), confirmada or presentada (filed)"),
  stored: z.boolean().describe("false: nobody has created this return yet; computed now from the books"),
  result: z
    .string()
    .nullable()
    .describe("303 box 71 / 111 box 30 / 115 box 05: positive to pay, negative to compensate"),
  outcome: z.string().describe("What the result means in words"),
  declaration_type: z.string().nullable(),
  boxes: z.array(returnBoxOut),
});

function outcomeOf(result: string | null, type: string | null): string {
  if (result === null) return "informative return: nothing to pay";
  const n = Number(result);
  if (n > 0) return `${result} EUR to pay`;
  if (n < 0)
    return type && ["D", "X", "V"].includes(type)
      ? `${result.slice(1)} EUR to refund`
      : `${result.slice(1)} EUR to compensate in later periods`;
  return "zero result";
}

export const getVatReturn = defineTool({
  name: "get_vat_return",
  title: "VAT or withholding return",
  description:
    "The boxes of a Spanish tax return for a period, with their AEAT labels, and the result: modelo 303 " +
    "(VAT, default), 111 (IRPF withheld from professionals and employees), 115 (rent withholdings), 349 " +
    "(intra-EU operations) or 390 (annual VAT summary, period 0A). Returns the stored return (draft, " +
    "confirmed or filed) when there is one, else a draft computed now from the issued and approved " +
    "invoices. Answers 'how much VAT do we pay this quarter?': read result and outcome. Amounts are " +
    "decimal strings in EUR.",
  access,
  notFoundHint: "Check company_id; the period is 1T-4T for a quarter or 01-12 for a month.",
  input: toolArgs({
    year: z
      .number({ message: "year must be a 4-digit year, e.g. 2026" })
      .int({ message: "year must be a 4-digit year, e.g. 2026" })
      .min(2000, { message: "year must be 2000 or later" })
      .max(2999, { message: "year must be a 4-digit year" })
      .describe("Fiscal year, e.g. 2026"),
    period: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^([1-4]T|0[1-9]|1[0-2]|0A)$/, { message: "period must be 1T-4T, 01-12, or 0A for the 390" })
      .describe("1T-4T (quarter), 01-12 (month), 0A (390)"),
    model: z
      .enum(["303", "390", "111", "115", "349"], { message: "model must be 303, 390, 111, 115 or 349" })
      .default("303")
      .describe("AEAT model (default 303)"),
    company_id: companyIdArg,
  }),
  output: vatReturnOut,
  async run(ctx, args) {
    const found = await tax.findReturnOfPeriod(ctx, {
      companyId: args.company_id,
      model: args.model,
      year: args.year,
      period: args.period,
    });
    const row = found.row;
    const result = tax.resultOf(row);
    const type = tax.declarationTypeOf(row);
    return {
      id: found.stored ? found.row.id : null,
      company_id: row.companyId,
      model: row.model,
      year: row.year,
      period: row.period,
      date_from: row.dateFrom,
      date_to: row.dateTo,
      estado: row.estado,
      stored: found.stored,
      result,
      outcome: outcomeOf(result, type),
      declaration_type: type,
      boxes: layOutBoxes(row.model, row.boxes),
    };
  },
});

export const listVatBookEntries = defineTool({
  name: "list_vat_book_entries",
  title: "VAT book entries",
  description:
    "Rows of the VAT books (libros registro de IVA): book 'issued' (sales invoices issued) or 'received' " +
    "(purchase invoices approved), one row per invoice and VAT rate, ordered by accrual date (operation " +
    "date, else issue date), with base, rate, VAT quota, recargo and IRPF. Filter by date_from/date_to. " +
    "Returns {items, total, limit, offset}; call again with offset + limit for the next page.",
  access,
  notFoundHint: "Check company_id with list_contacts (any record shows its company_id).",
  input: toolArgs({
    book: z
      .enum(["issued", "received"], { message: "book must be issued or received" })
      .describe("issued or received"),
    date_from: dateArg("date_from").optional(),
    date_to: dateArg("date_to").optional(),
    company_id: companyIdArg,
    limit: limitArg,
    offset: offsetArg,
  }),
  output: pageOf(vatBookRowOut),
  async run(ctx, args) {
    if (args.date_from && args.date_to && args.date_from > args.date_to)
      throw new BadRequestError("date_from is after date_to", [
        { path: "date_from", message: "must not be after date_to" },
      ]);
    const { rows, total } = await tax.listVatBook(ctx, {
      companyId: args.company_id,
      book: args.book,
      dateFrom: args.date_from,
      dateTo: args.date_to,
      limit: args.limit,
      offset: args.offset,
    });
    return {
      items: rows.map((r) => tax.toVatBookRowOut(r, args.book === "issued")),
      total,
      limit: args.limit,
      offset: args.offset,
    };
  },
});
