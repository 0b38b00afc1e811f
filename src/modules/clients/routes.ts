import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ctxOf } from "../../platform/http/context.js";
import { errorResponses, noContent } from "../../platform/http/errors.js";
import { idParams } from "../../platform/ids.js";
import {
  contactCreateBody,
  contactListQuery,
  contactOut,
  contactPage,
  contactUpdateBody,
  fromContactBody,
  fromContactCreateBody,
  toContactOut,
} from "./schemas.js";
import * as contacts from "./service.js";

const tags = ["clients"];

/** /api/clients: customers and suppliers (contacts). */
export const clientRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/",
    {
      config: { permission: "clients:leer" },
      schema: {
        tags,
        operationId: "listContacts",
        summary: "List contacts (customers and suppliers)",
        description: "Search matches the code, name, legal name, tax ID and e-mail.",
        querystring: contactListQuery,
        response: { 200: contactPage },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, total } = await contacts.listContacts(ctxOf(request), {
        companyId: q.company_id,
        contactType: q.contact_type,
        search: q.search,
        includeInactive: q.include_inactive,
        limit: q.limit,
        offset: q.skip,
      });
      return { data: rows.map(toContactOut), total, skip: q.skip, limit: q.limit };
    },
  );

  app.get(
    "/:id",
    {
      config: { permission: "clients:leer" },
      schema: {
        tags,
        operationId: "getContact",
        summary: "Contact detail",
        params: idParams,
        response: { 200: contactOut, ...errorResponses(404) },
      },
    },
    async (request) => toContactOut(await contacts.getContact(ctxOf(request), request.params.id)),
  );

  app.post(
    "/",
    {
      config: { permission: "clients:crear" },
      schema: {
        tags,
        operationId: "createContact",
        summary: "Create a contact",
        description:
          "Customers get a 430 subaccount and suppliers a 400 subaccount in every open fiscal year of the company.",
        body: contactCreateBody,
        response: { 201: contactOut, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const row = await contacts.createContact(ctxOf(request), fromContactCreateBody(request.body));
      return reply.code(201).send(toContactOut(row));
    },
  );

  app.put(
    "/:id",
    {
      config: { permission: "clients:editar" },
      schema: {
        tags,
        operationId: "updateContact",
        summary: "Update a contact",
        params: idParams,
        body: contactUpdateBody,
        response: { 200: contactOut, ...errorResponses(404, 409) },
      },
    },
    async (request) =>
      toContactOut(
        await contacts.updateContact(ctxOf(request), request.params.id, fromContactBody(request.body)),
      ),
  );

  app.delete(
    "/:id",
    {
      config: { permission: "clients:eliminar" },
      schema: {
        tags,
        operationId: "deactivateContact",
        summary: "Deactivate a contact (its documents and subaccounts stay)",
        params: idParams,
        response: { ...noContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await contacts.deactivateContact(ctxOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
