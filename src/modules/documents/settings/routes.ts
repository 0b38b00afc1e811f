import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ctxOf } from "../../../platform/http/context.js";
import { errorResponses } from "../../../platform/http/errors.js";
import {
  companyIdParams,
  documentSettingsBody,
  documentSettingsOut,
  fromDocumentSettingsBody,
  toDocumentSettingsOut,
} from "./schemas.js";
import * as settings from "./service.js";

const tags = ["documents"];

/** /api/document-settings/{company_id}: what the documents engine reads of each company. */
export const documentSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/:company_id",
    {
      config: { auth: "authenticated" },
      schema: {
        tags,
        operationId: "getDocumentSettings",
        summary: "A company's document settings",
        description:
          "Tax regime, automatic posting and the default ledger accounts of its invoices. Any " +
          "signed-in caller of the company may read them.",
        params: companyIdParams,
        response: { 200: documentSettingsOut, ...errorResponses(404) },
      },
    },
    async (request) =>
      toDocumentSettingsOut(await settings.getDocumentSettings(ctxOf(request), request.params.company_id)),
  );

  app.put(
    "/:company_id",
    {
      config: { permission: "companies:editar" },
      schema: {
        tags,
        operationId: "updateDocumentSettings",
        summary: "Change a company's document settings",
        description:
          "Only the fields sent change. Accounts are PGC account codes of 3 or 4 digits: sales and " +
          "sales returns of group 7, purchases of group 6.",
        params: companyIdParams,
        body: documentSettingsBody,
        response: { 200: documentSettingsOut, ...errorResponses(404) },
      },
    },
    async (request) =>
      toDocumentSettingsOut(
        await settings.updateDocumentSettings(
          ctxOf(request),
          request.params.company_id,
          fromDocumentSettingsBody(request.body),
        ),
      ),
  );
};
