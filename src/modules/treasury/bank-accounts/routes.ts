import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ctxOf } from "../../../platform/http/context.js";
import { errorResponses, noContent } from "../../../platform/http/errors.js";
import { idParams } from "../../../platform/ids.js";
import {
  bankAccountCreateBody,
  bankAccountListQuery,
  bankAccountOut,
  bankAccountPage,
  bankAccountUpdateBody,
  fromBankAccountBody,
  toBankAccountOut,
} from "./schemas.js";
import * as accounts from "./service.js";

const tags = ["treasury"];

/** /api/treasury/bank-accounts: the company's bank accounts, each with its 572 subaccount. */
export const bankAccountRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/",
    {
      config: { permission: "treasury:leer" },
      schema: {
        tags,
        operationId: "listBankAccounts",
        summary: "List bank accounts",
        querystring: bankAccountListQuery,
        response: { 200: bankAccountPage },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, total } = await accounts.listBankAccounts(ctxOf(request), {
        companyId: q.company_id,
        search: q.search,
        includeInactive: q.include_inactive,
        limit: q.limit,
        offset: q.skip,
      });
      return { data: rows.map(toBankAccountOut), total, skip: q.skip, limit: q.limit };
    },
  );

  app.get(
    "/:id",
    {
      config: { permission: "treasury:leer" },
      schema: {
        tags,
        operationId: "getBankAccount",
        summary: "Bank account detail",
        params: idParams,
        response: { 200: bankAccountOut, ...errorResponses(404) },
      },
    },
    async (request) => toBankAccountOut(await accounts.getBankAccount(ctxOf(request), request.params.id)),
  );

  app.post(
    "/",
    {
      config: { permission: "treasury:crear" },
      schema: {
        tags,
        operationId: "createBankAccount",
        summary: "Create a bank account",
        description:
          "The IBAN's check digits are verified (400 naming iban otherwise). The account gets its own " +
          "subaccount under 572 (the next free one, or subaccount_code) in every open fiscal year.",
        body: bankAccountCreateBody,
        response: { 201: bankAccountOut, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const row = await accounts.createBankAccount(ctxOf(request), {
        ...fromBankAccountBody(b),
        companyId: b.company_id,
        name: b.name,
        iban: b.iban,
        subaccountCode: b.subaccount_code,
      });
      return reply.code(201).send(toBankAccountOut(row));
    },
  );

  app.patch(
    "/:id",
    {
      config: { permission: "treasury:editar" },
      schema: {
        tags,
        operationId: "updateBankAccount",
        summary: "Update a bank account",
        description: "Name, IBAN (checked), BIC and is_active; the subaccount never changes.",
        params: idParams,
        body: bankAccountUpdateBody,
        response: { 200: bankAccountOut, ...errorResponses(404, 409) },
      },
    },
    async (request) =>
      toBankAccountOut(
        await accounts.updateBankAccount(
          ctxOf(request),
          request.params.id,
          fromBankAccountBody(request.body),
        ),
      ),
  );

  app.delete(
    "/:id",
    {
      config: { permission: "treasury:eliminar" },
      schema: {
        tags,
        operationId: "deleteBankAccount",
        summary: "Delete a bank account",
        description:
          "Only when no payment, budget line or statement refers to it (409: deactivate it instead).",
        params: idParams,
        response: { ...noContent, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      await accounts.deleteBankAccount(ctxOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
