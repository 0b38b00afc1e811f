import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ctxOf } from "../../../platform/http/context.js";
import { errorResponses } from "../../../platform/http/errors.js";
import { idParams } from "../../../platform/ids.js";
import { boxMapPage, boxMapQuery, boxRowBody, boxRowOut, fromBoxRowBody, toBoxRowOut } from "./schemas.js";
import * as boxMap from "./service.js";

const tags = ["tax"];

/** /api/tax/box-map: where each tax code's amounts land in the 303, 111, 115 and 349. */
export const boxMapRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/",
    {
      config: { permission: "tax:leer" },
      schema: {
        tags,
        operationId: "getTaxBoxMap",
        summary: "The company's box map",
        description:
          "One row per tax code, model, direction, ordinary or rectifying invoice and side (accrued or " +
          "deductible), seeded with the AEAT defaults (docs/tax.md) the first time a code is read.",
        querystring: boxMapQuery,
        response: { 200: boxMapPage, ...errorResponses(404) },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, total } = await boxMap.listBoxMap(ctxOf(request), {
        companyId: q.company_id,
        model: q.model,
        taxCode: q.tax_code,
        limit: q.limit,
        offset: q.skip,
      });
      return { data: rows.map(toBoxRowOut), total, skip: q.skip, limit: q.limit };
    },
  );

  app.patch(
    "/:id",
    {
      config: { permission: "tax:editar" },
      schema: {
        tags,
        operationId: "updateTaxBoxMapRow",
        summary: "Point a box-map row at other boxes",
        description:
          "A box must exist in the row's model (303 boxes, 111 and 115 base/withholding boxes, 349 keys); " +
          "null takes the amount out of the return. Returns computed later use the new boxes.",
        params: idParams,
        body: boxRowBody,
        response: { 200: boxRowOut, ...errorResponses(404) },
      },
    },
    async (request) =>
      toBoxRowOut(await boxMap.updateBoxRow(ctxOf(request), request.params.id, fromBoxRowBody(request.body))),
  );
};
