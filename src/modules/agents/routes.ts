import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ctxOf } from "../../platform/http/context.js";
import { errorResponses, noContent } from "../../platform/http/errors.js";
import { idParams } from "../../platform/ids.js";
import {
  agentCreateBody,
  agentListQuery,
  agentOut,
  agentPage,
  agentUpdateBody,
  fromAgentBody,
  fromAgentCreateBody,
  toAgentOut,
} from "./schemas.js";
import * as agents from "./service.js";

const tags = ["agents"];

export const agentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/",
    {
      config: { permission: "agents:leer" },
      schema: {
        tags,
        operationId: "listAgents",
        summary: "List sales agents",
        querystring: agentListQuery,
        response: { 200: agentPage },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, total } = await agents.listAgents(ctxOf(request), {
        companyId: q.company_id,
        search: q.search,
        includeInactive: q.include_inactive,
        limit: q.limit,
        offset: q.skip,
      });
      return { data: rows.map(toAgentOut), total, skip: q.skip, limit: q.limit };
    },
  );

  app.get(
    "/:id",
    {
      config: { permission: "agents:leer" },
      schema: {
        tags,
        operationId: "getAgent",
        summary: "Sales agent detail",
        params: idParams,
        response: { 200: agentOut, ...errorResponses(404) },
      },
    },
    async (request) => toAgentOut(await agents.getAgent(ctxOf(request), request.params.id)),
  );

  app.post(
    "/",
    {
      config: { permission: "agents:crear" },
      schema: {
        tags,
        operationId: "createAgent",
        summary: "Create a sales agent",
        body: agentCreateBody,
        response: { 201: agentOut, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const row = await agents.createAgent(ctxOf(request), fromAgentCreateBody(request.body));
      return reply.code(201).send(toAgentOut(row));
    },
  );

  app.put(
    "/:id",
    {
      config: { permission: "agents:editar" },
      schema: {
        tags,
        operationId: "updateAgent",
        summary: "Update a sales agent",
        params: idParams,
        body: agentUpdateBody,
        response: { 200: agentOut, ...errorResponses(404, 409) },
      },
    },
    async (request) =>
      toAgentOut(await agents.updateAgent(ctxOf(request), request.params.id, fromAgentBody(request.body))),
  );

  app.delete(
    "/:id",
    {
      config: { permission: "agents:eliminar" },
      schema: {
        tags,
        operationId: "deactivateAgent",
        summary: "Deactivate a sales agent (it stays on the contacts that reference it)",
        params: idParams,
        response: { ...noContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await agents.deactivateAgent(ctxOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
