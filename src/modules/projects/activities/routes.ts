import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ctxOf } from "../../../platform/http/context.js";
import { errorResponses, noContent } from "../../../platform/http/errors.js";
import {
  activityCreateBody,
  activityEstadoBody,
  activityListQuery,
  activityOut,
  activityPage,
  activityParams,
  activityUpdateBody,
  fromActivityBody,
  fromActivityCreateBody,
  toActivityOut,
} from "./schemas.js";
import * as activities from "./service.js";

const tags = ["activities"];

export const activityRoutesV1: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/activities",
    {
      config: { permission: "activities:leer" },
      schema: {
        tags,
        operationId: "listActivities",
        summary: "List activities with their planned and earned value",
        querystring: activityListQuery,
        response: { 200: activityPage },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, total } = await activities.listActivities(ctxOf(request), {
        budgetId: q.budget_id,
        estado: q.estado,
        search: q.search,
        limit: q.limit,
        offset: q.offset,
      });
      return { data: rows.map(toActivityOut), total, limit: q.limit, offset: q.offset };
    },
  );

  app.get(
    "/activities/:id",
    {
      config: { permission: "activities:leer" },
      schema: {
        tags,
        operationId: "getActivity",
        summary: "Activity detail",
        params: activityParams,
        response: { 200: activityOut, ...errorResponses(404) },
      },
    },
    async (request) => toActivityOut(await activities.getActivity(ctxOf(request), request.params.id)),
  );

  app.post(
    "/activities",
    {
      config: { permission: "activities:crear" },
      schema: {
        tags,
        operationId: "createActivity",
        summary: "Create an activity of a budget",
        body: activityCreateBody,
        response: { 201: activityOut, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          toActivityOut(
            await activities.createActivity(ctxOf(request), fromActivityCreateBody(request.body)),
          ),
        ),
  );

  app.put(
    "/activities/:id",
    {
      config: { permission: "activities:editar" },
      schema: {
        tags,
        operationId: "updateActivity",
        summary: "Update an activity (budget_item_ids, when sent, replaces the links)",
        params: activityParams,
        body: activityUpdateBody,
        response: { 200: activityOut, ...errorResponses(404, 409) },
      },
    },
    async (request) =>
      toActivityOut(
        await activities.updateActivity(ctxOf(request), request.params.id, fromActivityBody(request.body)),
      ),
  );

  app.delete(
    "/activities/:id",
    {
      config: { permission: "activities:eliminar" },
      schema: {
        tags,
        operationId: "deleteActivity",
        summary: "Delete an activity",
        params: activityParams,
        response: { ...noContent, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      await activities.deleteActivity(ctxOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.put(
    "/activities/:id/estado",
    {
      config: { permission: "activities:editar" },
      schema: {
        tags,
        operationId: "setActivityState",
        summary: "Change the state: pendiente -> en_curso -> completada; completada -> en_curso reopens",
        params: activityParams,
        body: activityEstadoBody,
        response: { 200: activityOut, ...errorResponses(404, 409) },
      },
    },
    async (request) =>
      toActivityOut(
        await activities.changeActivityEstado(ctxOf(request), request.params.id, request.body.estado),
      ),
  );
};
