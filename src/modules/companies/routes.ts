import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ctxOf } from "../../platform/http/context.js";
import { errorResponses } from "../../platform/http/errors.js";
import { idParams } from "../../platform/ids.js";
import { companyLogoRoutes } from "./logo/routes.js";
import {
  companyCreateBody,
  companyListQuery,
  companyOut,
  companyPage,
  companyUpdateBody,
  fromCompanyBody,
  fromCompanyCreateBody,
  toCompanyOut,
} from "./schemas.js";
import * as companies from "./service.js";

const tags = ["companies"];

export const companyRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(companyLogoRoutes);
  app.get(
    "/",
    {
      config: { permission: "companies:leer" },
      schema: {
        tags,
        operationId: "listCompanies",
        summary: "List companies",
        querystring: companyListQuery,
        response: { 200: companyPage },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, total } = await companies.listCompanies(ctxOf(request), {
        search: q.search,
        includeInactive: q.include_inactive,
        limit: q.limit,
        offset: q.skip,
      });
      return { data: rows.map(toCompanyOut), total, skip: q.skip, limit: q.limit };
    },
  );
  app.get(
    "/:id",
    {
      config: { permission: "companies:leer" },
      schema: {
        tags,
        operationId: "getCompany",
        summary: "Company detail",
        params: idParams,
        response: { 200: companyOut, ...errorResponses(404) },
      },
    },
    async (request) => toCompanyOut(await companies.getCompany(ctxOf(request), request.params.id)),
  );
  app.post(
    "/",
    {
      config: { permission: "companies:crear" },
      schema: {
        tags,
        operationId: "createCompany",
        summary: "Create a company",
        body: companyCreateBody,
        response: { 201: companyOut, ...errorResponses(409) },
      },
    },
    async (request, reply) => {
      const row = await companies.createCompany(ctxOf(request), fromCompanyCreateBody(request.body));
      return reply.code(201).send(toCompanyOut(row));
    },
  );
  app.put(
    "/:id",
    {
      config: { permission: "companies:editar" },
      schema: {
        tags,
        operationId: "updateCompany",
        summary: "Update a company",
        params: idParams,
        body: companyUpdateBody,
        response: { 200: companyOut, ...errorResponses(404, 409) },
      },
    },
    async (request) =>
      toCompanyOut(
        await companies.updateCompany(ctxOf(request), request.params.id, fromCompanyBody(request.body)),
      ),
  );
};
