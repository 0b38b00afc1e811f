import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ctxOf } from "../../platform/http/context.js";
import { errorResponses, noContent } from "../../platform/http/errors.js";
import { idParams } from "../../platform/ids.js";
import {
  fromTokenCreateBody,
  tokenCreateBody,
  tokenCreatedOut,
  tokenListQuery,
  tokenPage,
  toTokenOut,
} from "./schemas.js";
import * as apiTokens from "./service.js";

const tags = ["api-tokens"];

export const apiTokenRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    "/",
    {
      config: { permission: "api_tokens:crear" },
      schema: {
        tags,
        operationId: "createApiToken",
        summary: "Create an API token (the secret is returned once)",
        body: tokenCreateBody,
        response: { 201: tokenCreatedOut, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const { token, record } = await apiTokens.createApiToken(
        ctxOf(request),
        fromTokenCreateBody(request.body),
      );
      return reply.code(201).send({ ...toTokenOut(record), token });
    },
  );
  app.get(
    "/",
    {
      config: { permission: "api_tokens:leer" },
      schema: {
        tags,
        operationId: "listApiTokens",
        summary: "List API tokens (never their secret)",
        querystring: tokenListQuery,
        response: { 200: tokenPage },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, total } = await apiTokens.listApiTokens(ctxOf(request), {
        includeInactive: q.include_inactive,
        limit: q.limit,
        offset: q.skip,
      });
      return { data: rows.map(toTokenOut), total, skip: q.skip, limit: q.limit };
    },
  );
  app.delete(
    "/:id",
    {
      config: { permission: "api_tokens:eliminar" },
      schema: {
        tags,
        operationId: "deactivateApiToken",
        summary: "Deactivate an API token",
        params: idParams,
        response: { ...noContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await apiTokens.deactivateApiToken(ctxOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
