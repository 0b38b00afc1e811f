import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ctxOf } from "../../../platform/http/context.js";
import { errorResponses } from "../../../platform/http/errors.js";
import { vatBookCsv, vatBookXlsx } from "./export.js";
import { toVatBookRowOut, vatBookPage, vatBookQuery } from "./schemas.js";
import { type Book, listVatBook } from "./service.js";

const tags = ["tax"];

/** /api/tax/vat-books/issued and /received: the VAT books, as JSON pages or AEAT csv/xlsx. */
export const vatBookRoutes: FastifyPluginAsyncZod = async (app) => {
  for (const book of ["issued", "received"] as Book[]) {
    const issued = book === "issued";
    app.get(
      `/${book}`,
      {
        config: { permission: "tax:leer" },
        schema: {
          tags,
          operationId: issued ? "getIssuedInvoicesVatBook" : "getReceivedInvoicesVatBook",
          summary: issued ? "Libro registro de facturas expedidas" : "Libro registro de facturas recibidas",
          description:
            `One row per ${issued ? "issued sales" : "approved purchase"} invoice and VAT rate, by accrual date ` +
            "(operation date, else issue date). ?format=csv|xlsx gives the same page in the AEAT common " +
            "electronic format (raise limit up to 10000 to export a whole quarter).",
          querystring: vatBookQuery,
          produces: [
            "application/json",
            "text/csv",
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
          ],
          response: { 200: vatBookPage.or(z.any().describe("csv or xlsx file")), ...errorResponses(404) },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const { rows, total } = await listVatBook(ctxOf(request), {
          companyId: q.company_id,
          book,
          dateFrom: q.date_from,
          dateTo: q.date_to,
          search: q.search,
          limit: q.limit,
          offset: q.skip,
        });
        const data = rows.map((r) => toVatBookRowOut(r, issued));
        if (q.format === "json") return { data, total, skip: q.skip, limit: q.limit };
        const name = `libro-${issued ? "expedidas" : "recibidas"}-${q.date_from ?? "inicio"}-${q.date_to ?? "fin"}`;
        if (q.format === "csv")
          return reply
            .type("text/csv; charset=utf-8")
            .header("content-disposition", `attachment; filename="${name}.csv"`)
            .send(vatBookCsv(data, issued));
        return reply
          .type("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
          .header("content-disposition", `attachment; filename="${name}.xlsx"`)
          .send(await vatBookXlsx(data, issued));
      },
    );
  }
};
