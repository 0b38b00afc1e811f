import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ctxOf } from "../../../platform/http/context.js";
import { errorResponses, noContent } from "../../../platform/http/errors.js";
import { readSingleUpload } from "../../../platform/http/uploads.js";
import { idParams } from "../../../platform/ids.js";
import { logoOut, toLogoOut } from "./schemas.js";
import * as logos from "./service.js";

const tags = ["companies"];

/** /{id}/logo: the letterhead logo printed on the company's documents (certifications). */
export const companyLogoRoutes: FastifyPluginAsyncZod = async (app) => {
  app.put(
    "/:id/logo",
    {
      config: { permission: "companies:editar", upload: { file: "The logo: PNG or JPEG, 1 MB at most" } },
      schema: {
        tags,
        operationId: "uploadCompanyLogo",
        summary: "Upload or replace the company's logo",
        description:
          "multipart/form-data with one part `file`: a PNG or JPEG image, recognised by its content (magic " +
          "bytes and a readable image; otherwise 415), 1 MB at most (otherwise 413). Replaces any previous logo.",
        consumes: ["multipart/form-data"],
        params: idParams,
        response: { 200: logoOut, ...errorResponses(404, 413, 415) },
      },
    },
    async (request) => {
      const upload = await readSingleUpload(request);
      return toLogoOut(await logos.uploadLogo(ctxOf(request), request.params.id, upload.content));
    },
  );

  app.get(
    "/:id/logo",
    {
      config: { permission: "companies:leer" },
      schema: {
        tags,
        operationId: "getCompanyLogo",
        summary: "The company's logo image",
        description: "The image as uploaded (image/png or image/jpeg); 404 when the company has none.",
        params: idParams,
        produces: ["image/png", "image/jpeg"],
        response: { 200: z.any().describe("The image"), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const logo = await logos.getLogo(ctxOf(request), request.params.id);
      return reply
        .type(logo.contentType)
        .header("x-content-type-options", "nosniff")
        .header("etag", `"${logo.sha256}"`)
        .send(logo.content);
    },
  );

  app.delete(
    "/:id/logo",
    {
      config: { permission: "companies:editar" },
      schema: {
        tags,
        operationId: "deleteCompanyLogo",
        summary: "Remove the company's logo",
        description: "Documents printed afterwards carry no logo; 404 when the company has none.",
        params: idParams,
        response: { ...noContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await logos.removeLogo(ctxOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
