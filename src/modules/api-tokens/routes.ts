import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ctxOf } from "../../platform/http/context.js";
import { errorResponses } from "../../platform/http/errors.js";
import { idParams } from "../../platform/ids.js";
import { tokenCreateBody, tokenCreatedOut, tokenListQuery, tokenPage, toTokenOut } from "./schemas.js";
import * as apiTokens from "./service.js";

const tags = ["api-tokens"];

export const apiTokenRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    "/",
    {
      config: { permission: "api_tokens:crear" },
      schema: {
        tags,
        summary: "Create an API token (the secret is returned once)",
        body: tokenCreateBody,
        response: { 201: tokenCreatedOut, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const { token, record } = await apiTokens.createToken(ctxOf(request), {
        name: b.name,
        companyId: b.company_id,
        expiresAt: b.expires_at ? new Date(b.expires_at) : null,
        scopes: b.scopes,
      });
      return reply.code(201).send({ ...toTokenOut(record), token });
    },
  );
  app.get(
    "/",
    {
      config: { permission: "api_tokens:leer" },
      schema: {
        tags,
        summary: "List API tokens (never their secret)",
        querystring: tokenListQuery,
        response: { 200: tokenPage, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, total } = await apiTokens.list(ctxOf(request), q);
      return { data: rows.map(toTokenOut), total, skip: q.skip, limit: q.limit };
    },
  );
  app.delete(
    "/:id",
    {
      config: { permission: "api_tokens:eliminar" },
      schema: {
        tags,
        summary: "Deactivate an API token",
        params: idParams,
        response: { 204: z.null().describe("No content"), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await apiTokens.deactivate(ctxOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
