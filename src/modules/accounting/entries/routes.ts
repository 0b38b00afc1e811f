import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ctxOf } from "../../../platform/http/context.js";
import { errorResponses } from "../../../platform/http/errors.js";
import { idParams } from "../../../platform/ids.js";
import {
  entryCreateBody,
  entryListQuery,
  entryOut,
  entryPage,
  entryReverseBody,
  fromEntryCreateBody,
  toEntryOut,
  toEntrySummaryOut,
} from "./schemas.js";
import * as entries from "./service.js";

const tags = ["accounting"];

export const entryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/entries",
    {
      config: { permission: "accounting:leer" },
      schema: {
        tags,
        operationId: "listJournalEntries",
        summary: "List journal entries (without their lines)",
        description:
          "search: part of the concept, or an entry number. Deep pages: pass `after` (the last id of the " +
          "previous page) instead of a large skip. total is exact when the filters are only company, fiscal " +
          "year and journal (counted as entries are posted); otherwise exact up to 10,000 entries " +
          "(total_is_estimate). With subaccount_code (a subaccount's ledger) pages cost the same at any depth.",
        querystring: entryListQuery,
        response: { 200: entryPage, ...errorResponses(404) },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, total, totalIsEstimate } = await entries.listEntries(ctxOf(request), {
        companyId: q.company_id,
        fiscalYearCode: q.fiscal_year_code,
        journal: q.journal,
        dateFrom: q.date_from,
        dateTo: q.date_to,
        subaccountCode: q.subaccount_code,
        search: q.search,
        sort: q.sort,
        limit: q.limit,
        offset: q.skip,
        after: q.after,
      });
      return {
        data: rows.map(toEntrySummaryOut),
        total,
        total_is_estimate: totalIsEstimate ?? false,
        skip: q.skip,
        limit: q.limit,
      };
    },
  );

  app.get(
    "/entries/:id",
    {
      config: { permission: "accounting:leer" },
      schema: {
        tags,
        operationId: "getJournalEntry",
        summary: "Journal entry with its lines",
        params: idParams,
        response: { 200: entryOut, ...errorResponses(404) },
      },
    },
    async (request) => toEntryOut(await entries.getEntry(ctxOf(request), request.params.id)),
  );

  app.post(
    "/entries",
    {
      config: { permission: "accounting:crear" },
      schema: {
        tags,
        operationId: "postJournalEntry",
        summary: "Post a journal entry",
        description:
          "At least two lines, each with exactly one of debit and credit positive; debits must equal " +
          "credits. The entry gets the next number of its fiscal year and is immutable once posted: " +
          "correct it with POST /entries/{id}/reverse. A closed fiscal year is a 409.",
        body: entryCreateBody,
        response: { 201: entryOut, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const entry = await entries.createEntry(ctxOf(request), fromEntryCreateBody(request.body));
      return reply.code(201).send(toEntryOut(entry));
    },
  );

  app.post(
    "/entries/:id/reverse",
    {
      config: { permission: "accounting:crear" },
      schema: {
        tags,
        operationId: "reverseJournalEntry",
        summary: "Reverse a posted entry with a counter-entry (debits and credits swapped)",
        description: "An entry can be reversed once; a second reversal is a 409.",
        params: idParams,
        body: entryReverseBody,
        response: { 201: entryOut, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const entry = await entries.reverseEntry(ctxOf(request), request.params.id, request.body ?? {});
      return reply.code(201).send(toEntryOut(entry));
    },
  );
};
