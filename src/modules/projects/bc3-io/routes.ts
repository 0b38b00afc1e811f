import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ctxOf } from "../../../platform/http/context.js";
import { errorResponses } from "../../../platform/http/errors.js";
import { budgetOut, budgetParams, toBudgetOut } from "../budgets/schemas.js";
import { exportBudget, importBudget, replaceBudgetItems } from "./service.js";
import { readUploadedFile } from "./upload.js";

const tags = ["budgets", "bc3"];
const uploadErrors = errorResponses(404, 409, 413, 415);
const multipartDoc =
  'multipart/form-data with the BC3 file (FIEBDC-3; charset from its ~V record) in the field "file".' +
  ' A malformed file is a 400 whose `errors` list every problem as {path: "line N", message}; nothing is saved.';

/** Content-Disposition file name: the budget code with anything unusual replaced. */
const fileName = (code: string) => `${code.replace(/[^\w.-]+/g, "_") || "budget"}.bc3`;

export const bc3RoutesV1: FastifyPluginAsyncZod = async (app) => {
  app.post(
    "/budgets/import-bc3",
    {
      config: { permission: "budgets:crear" },
      schema: {
        tags,
        summary: "Create a budget from a BC3 file",
        description: `${multipartDoc} The root concept gives the budget's code (409 when taken) and name.`,
        consumes: ["multipart/form-data"],
        response: { 201: budgetOut, ...uploadErrors },
      },
    },
    async (request, reply) => {
      const view = await importBudget(ctxOf(request), await readUploadedFile(request));
      return reply.code(201).send(toBudgetOut(view.row, view.totals));
    },
  );

  app.post(
    "/budgets/:budget_id/import-bc3",
    {
      config: { permission: "budgets:editar" },
      schema: {
        tags,
        summary: "Replace the items of a borrador budget with those of a BC3 file",
        description: `${multipartDoc} Other states than borrador: 409.`,
        consumes: ["multipart/form-data"],
        params: budgetParams,
        response: { 200: budgetOut, ...uploadErrors },
      },
    },
    async (request) => {
      const ctx = ctxOf(request);
      const view = await replaceBudgetItems(ctx, request.params.budget_id, await readUploadedFile(request));
      return toBudgetOut(view.row, view.totals);
    },
  );

  app.get(
    "/budgets/:budget_id/export-bc3",
    {
      config: { permission: "budgets:leer" },
      schema: {
        tags,
        summary: "Download the budget as a BC3 (FIEBDC-3/2016) file",
        params: budgetParams,
        querystring: z.object({
          charset: z
            .enum(["ANSI", "850", "437"])
            .default("ANSI")
            .describe("ANSI = windows-1252; 850 and 437 = MS-DOS code pages"),
        }),
        response: {
          200: {
            description: "The BC3 file",
            content: { "application/octet-stream": { schema: z.string().meta({ format: "binary" }) } },
          },
          ...errorResponses(404),
        },
      },
    },
    async (request, reply) => {
      const { code, file } = await exportBudget(
        ctxOf(request),
        request.params.budget_id,
        request.query.charset,
      );
      return reply
        .type("application/octet-stream")
        .header("content-disposition", `attachment; filename="${fileName(code)}"`)
        .send(file as unknown as string); // a Buffer goes out unserialized; the schema documents the bytes
    },
  );
};
