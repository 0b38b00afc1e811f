import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ctxOf } from "../../../platform/http/context.js";
import { errorResponses } from "../../../platform/http/errors.js";
import { idParams } from "../../../platform/ids.js";
import {
  fromJournalCreateBody,
  journalCreateBody,
  journalListQuery,
  journalOut,
  journalPage,
  toJournalOut,
} from "./schemas.js";
import * as journals from "./service.js";

const tags = ["accounting"];

export const journalRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/journals",
    {
      config: { permission: "accounting:leer" },
      schema: {
        tags,
        operationId: "listJournals",
        summary: "List journals",
        querystring: journalListQuery,
        response: { 200: journalPage },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, total } = await journals.listJournals(ctxOf(request), {
        companyId: q.company_id,
        type: q.type,
        search: q.search,
        includeInactive: q.include_inactive,
        limit: q.limit,
        offset: q.skip,
      });
      return { data: rows.map(toJournalOut), total, skip: q.skip, limit: q.limit };
    },
  );

  app.get(
    "/journals/:id",
    {
      config: { permission: "accounting:leer" },
      schema: {
        tags,
        operationId: "getJournal",
        summary: "Journal detail",
        params: idParams,
        response: { 200: journalOut, ...errorResponses(404) },
      },
    },
    async (request) => toJournalOut(await journals.getJournal(ctxOf(request), request.params.id)),
  );

  app.post(
    "/journals",
    {
      config: { permission: "accounting:crear" },
      schema: {
        tags,
        operationId: "createJournal",
        summary: "Create a journal",
        body: journalCreateBody,
        response: { 201: journalOut, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const journal = await journals.createJournal(ctxOf(request), fromJournalCreateBody(request.body));
      return reply.code(201).send(toJournalOut(journal));
    },
  );
};
