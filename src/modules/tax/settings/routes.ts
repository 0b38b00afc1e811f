import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ctxOf } from "../../../platform/http/context.js";
import { errorResponses } from "../../../platform/http/errors.js";
import {
  companyIdParams,
  fromTaxSettingsBody,
  taxSettingsBody,
  taxSettingsOut,
  toTaxSettingsOut,
} from "./schemas.js";
import * as settings from "./service.js";

const tags = ["tax"];

/** /api/tax/settings/{company_id}: what the 390 says of the company that the books cannot. */
export const taxSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/:company_id",
    {
      config: { permission: "tax:leer" },
      schema: {
        tags,
        operationId: "getTaxSettings",
        summary: "A company's tax settings",
        description:
          "The main activity, its AEAT activity key and IAE epígrafe, written on page 01 of the 390 " +
          "file. Unset fields are null.",
        params: companyIdParams,
        response: { 200: taxSettingsOut, ...errorResponses(404) },
      },
    },
    async (request) =>
      toTaxSettingsOut(await settings.getTaxSettings(ctxOf(request), request.params.company_id)),
  );

  app.put(
    "/:company_id",
    {
      config: { permission: "tax:editar" },
      schema: {
        tags,
        operationId: "updateTaxSettings",
        summary: "Change a company's tax settings",
        description:
          "Only the fields sent change; null clears one. The 390 file needs all three (409 without them).",
        params: companyIdParams,
        body: taxSettingsBody,
        response: { 200: taxSettingsOut, ...errorResponses(404) },
      },
    },
    async (request) =>
      toTaxSettingsOut(
        await settings.updateTaxSettings(
          ctxOf(request),
          request.params.company_id,
          fromTaxSettingsBody(request.body),
        ),
      ),
  );
};
