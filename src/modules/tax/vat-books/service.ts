import type { AuthedCtx } from "../../../platform/http/context.js";
import { BadRequestError } from "../../../platform/http/errors.js";
import { resolveCompanyForWrite } from "../../companies/index.js";
import * as repo from "./repository.js";

export type { BookRow } from "./repository.js";

export type Book = "issued" | "received";

export interface BookQuery {
  companyId?: string;
  book: Book;
  dateFrom?: string;
  dateTo?: string;
  search?: string;
  limit: number;
  offset: number;
}

/** The issued (sales) or received (purchases) VAT book: one row per invoice and VAT rate. */
export async function listVatBook(ctx: AuthedCtx, q: BookQuery) {
  if (q.dateFrom && q.dateTo && q.dateFrom > q.dateTo)
    throw new BadRequestError("date_from is after date_to", [
      { path: "date_from", message: "must not be after date_to" },
    ]);
  const companyId = await resolveCompanyForWrite(ctx, q.companyId);
  return repo.listBookRows(ctx.db, {
    companyId,
    direction: q.book === "issued" ? "sale" : "purchase",
    dateFrom: q.dateFrom,
    dateTo: q.dateTo,
    search: q.search,
    limit: q.limit,
    offset: q.offset,
  });
}
