import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ctxOf } from "../../../platform/http/context.js";
import { BadRequestError, errorResponses } from "../../../platform/http/errors.js";
import { readSingleUpload } from "../../../platform/http/uploads.js";
import { uuidParam } from "../../../platform/ids.js";
import { importResultOut, toImportResultOut } from "./schemas.js";
import { importStatement } from "./service.js";

const tags = ["bank-reconciliation"];

export const importRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    "/import",
    {
      config: {
        permission: "banking:crear",
        upload: {
          file: "The bank statement: Norma 43 (AEB/CSB 43) or CAMT.053 XML",
          fields: {
            bank_account_id: { description: "The bank account the statement belongs to", format: "uuid" },
          },
        },
      },
      schema: {
        tags,
        operationId: "importBankStatement",
        summary: "Import a bank statement (Norma 43 or CAMT.053) for a bank account",
        description:
          'multipart/form-data: the file in the part "file" and the bank account in the part "bank_account_id". ' +
          "Norma 43 (AEB/CSB 43, latin-1 or UTF-8) or CAMT.053 (ISO 20022 XML), recognised by content. The file " +
          "is checked whole (record 33 counts and totals, opening + credits - debits = final, record 88's count; " +
          "CAMT balances): a bad file is a 400 whose errors name the line (or statement element) and the " +
          "problem, and nothing is saved. Only the statements of the chosen account are imported (a file of " +
          "other accounts is a 400 naming them). Movements already imported are skipped: the same file again, " +
          "or one holding only known movements, answers 200 with already_imported and saves nothing; otherwise " +
          "201. The new movements come back matched (GET /movements shows their suggestions). Over " +
          "MAX_UPLOAD_MB: 413.",
        consumes: ["multipart/form-data"],
        response: { 200: importResultOut, 201: importResultOut, ...errorResponses(404, 413) },
      },
    },
    async (request, reply) => {
      const form = await readSingleUpload(request);
      const parsed = uuidParam.safeParse(form.fields.bank_account_id);
      if (!parsed.success)
        throw new BadRequestError('Send the bank account id in the multipart part "bank_account_id"', [
          {
            path: "body.bank_account_id",
            message: form.fields.bank_account_id ? "must be a UUID" : "is required",
          },
        ]);
      const result = await importStatement(ctxOf(request), {
        bankAccountId: parsed.data,
        fileName: form.fileName,
        content: form.content,
      });
      return reply.code(result.alreadyImported ? 200 : 201).send(toImportResultOut(result));
    },
  );
};
