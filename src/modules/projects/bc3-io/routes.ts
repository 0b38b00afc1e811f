import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ctxOf } from "../../../platform/http/context.js";
import { BadRequestError, errorResponses } from "../../../platform/http/errors.js";
import { dec, toMoney } from "../../../platform/money.js";
import { budgetOut, budgetParams, toBudgetOut } from "../budgets/schemas.js";
import { exportBudget, type ImportedBudget, importBudget, replaceBudgetItems } from "./service.js";
import { readUploadedFile, readUploadWithFields } from "./upload.js";

const tags = ["budgets", "bc3"];

const importReportOut = z
  .object({
    root_code: z.string().describe("The file's root concept code"),
    budget_code: z
      .string()
      .describe(
        "The code the budget got: the one asked for, the root's, or the root's with the next free -N suffix",
      ),
    charset: z.enum(["850", "437", "ANSI", "UTF-8"]).describe("How the file was read (see warnings for why)"),
    concepts: z.number().int(),
    placements: z.number().int(),
    measurement_lines: z.number().int(),
    texts: z.number().int(),
    indirect_costs_pct: z.string().nullable().describe("~K CI, applied to the items' unit prices"),
    declared_total: z
      .string()
      .nullable()
      .describe("The root's ~C price: what the file says the budget costs"),
    imported_total: z.string().describe("Sum of the imported items' amounts"),
    difference: z
      .string()
      .nullable()
      .describe("imported_total - declared_total; the warnings say where it comes from"),
    warnings: z.array(z.object({ line: z.number().int(), message: z.string() })),
  })
  .describe("What the import read and every warning, by line of the file");
const importedOut = budgetOut.extend({ import: importReportOut });

function toImportedOut({ view, report }: ImportedBudget) {
  const declared = report.declaredPrice === null ? null : dec(report.declaredPrice);
  return {
    ...toBudgetOut(view.row, view.totals),
    import: {
      root_code: report.code,
      budget_code: report.budgetCode,
      charset: report.charset,
      concepts: report.counts.concepts,
      placements: report.counts.placements,
      measurement_lines: report.counts.measurementLines,
      texts: report.counts.texts,
      indirect_costs_pct: report.coefficients.indirectPct,
      declared_total: declared === null ? null : toMoney(declared),
      imported_total: report.counts.importedTotal,
      difference: declared === null ? null : toMoney(dec(report.counts.importedTotal).minus(declared)),
      warnings: report.warnings,
    },
  };
}

const importFields = z.object({
  code: z.string().trim().min(1).max(50).optional(),
  name: z.string().trim().min(1).max(200).optional(),
  company_id: z.uuid({ message: "must be a UUID" }).optional(),
});
const uploadErrors = errorResponses(404, 409, 413, 415);
const bc3Upload = { file: "The BC3 file (FIEBDC-3)" };
const multipartDoc =
  'multipart/form-data with the BC3 file (FIEBDC-3; charset from its ~V record) in the field "file".' +
  ' A malformed file is a 400 whose `errors` list every problem as {path: "line N", message}; nothing is saved.';

/** Content-Disposition file name: the budget code with anything unusual replaced. */
const fileName = (code: string) => `${code.replace(/[^\w.-]+/g, "_") || "budget"}.bc3`;

export const bc3RoutesV1: FastifyPluginAsyncZod = async (app) => {
  app.post(
    "/budgets/import-bc3",
    {
      config: {
        permission: "budgets:crear",
        upload: {
          ...bc3Upload,
          fields: {
            code: { description: "Code for the new budget (default: the root concept's)", required: false },
            name: {
              description: "Name for the new budget (default: the root concept's summary)",
              required: false,
            },
            company_id: {
              description:
                "The company the budget belongs to: the caller's own when restricted, else the tenant's only " +
                "company (required when it has several)",
              format: "uuid",
              required: false,
            },
          },
        },
      },
      schema: {
        tags,
        operationId: "importBudgetFromBc3",
        summary: "Create a budget from a BC3 file",
        description:
          `${multipartDoc} Optional text fields \`code\` and \`name\` name the new budget (a \`code\` already ` +
          "taken is a 409); without `code` the root concept's code is used, or, when a budget has it, the next free " +
          "CODE-2, CODE-3... The answer carries the import report (counts, declared vs imported total, warnings by line).",
        consumes: ["multipart/form-data"],
        response: {
          201: importedOut.describe("The new budget and the import report"),
          ...uploadErrors,
        },
      },
    },
    async (request, reply) => {
      const { file, fields } = await readUploadWithFields(request);
      const parsed = importFields.safeParse(fields);
      if (!parsed.success) {
        throw new BadRequestError(
          "Invalid import fields",
          parsed.error.issues.map((i) => ({ path: `body.${i.path.join(".")}`, message: i.message })),
        );
      }
      const { company_id: companyId, ...names } = parsed.data;
      const imported = await importBudget(ctxOf(request), file, { ...names, companyId });
      return reply.code(201).send(toImportedOut(imported));
    },
  );

  app.post(
    "/budgets/:budget_id/import-bc3",
    {
      config: { permission: "budgets:editar", upload: bc3Upload },
      schema: {
        tags,
        operationId: "replaceBudgetItemsFromBc3",
        summary: "Replace the items of a borrador budget with those of a BC3 file",
        description: `${multipartDoc} Other states than borrador: 409.`,
        consumes: ["multipart/form-data"],
        params: budgetParams,
        response: { 200: importedOut.describe("The budget and the import report"), ...uploadErrors },
      },
    },
    async (request) => {
      const ctx = ctxOf(request);
      const imported = await replaceBudgetItems(
        ctx,
        request.params.budget_id,
        await readUploadedFile(request),
      );
      return toImportedOut(imported);
    },
  );

  app.get(
    "/budgets/:budget_id/export-bc3",
    {
      config: { permission: "budgets:leer" },
      schema: {
        tags,
        operationId: "exportBudgetToBc3",
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
