import Fastify from "fastify";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { documentCommonErrors } from "./documented-errors.js";
import { errorResponses, statusMap } from "./errors.js";

async function responsesOf(route: { config?: object; schema: object }) {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  documentCommonErrors(app);
  let seen: Record<string, unknown> = {};
  app.addHook("onRoute", (r) => {
    seen = (r.schema?.response ?? {}) as Record<string, unknown>;
  });
  app.route({ method: "POST", url: "/x", handler: async () => ({}), ...route });
  await app.ready();
  return Object.keys(seen).sort();
}

describe("documentCommonErrors", () => {
  it("adds 400 for input, 401/403 for protected routes and 500/503 everywhere", async () => {
    const keys = await responsesOf({
      config: { permission: "sales:crear" },
      schema: { body: z.object({ a: z.string() }), response: { 201: z.object({}), ...errorResponses(409) } },
    });
    expect(keys).toEqual(["201", "400", "401", "403", "409", "500", "503"]);
  });

  it("counts a body read by the handler itself (consumes) as input", async () => {
    const keys = await responsesOf({
      config: { permission: "budgets:crear" },
      schema: { consumes: ["multipart/form-data"], response: { 201: z.object({}), ...errorResponses(413) } },
    });
    expect(keys).toEqual(["201", "400", "401", "403", "413", "500", "503"]);
  });

  it("adds neither 400 without input nor 401/403 on public routes", async () => {
    const keys = await responsesOf({
      config: { auth: "public" },
      schema: { response: { 200: z.object({}) } },
    });
    expect(keys).toEqual(["200", "500", "503"]);
  });

  it("leaves undocumented routes alone", async () => {
    expect(await responsesOf({ config: { auth: "public" }, schema: {} })).toEqual([]);
  });
});

describe("statusMap", () => {
  it("keeps every status in ascending order, the later part's schema winning", () => {
    const own = { 200: "ok", 404: "own 404", 409: "conflict" };
    const map = statusMap({ 400: "bad", 404: "common 404", 503: "unavailable" }, own);
    expect(Object.keys(map)).toEqual(["200", "400", "404", "409", "503"]);
    expect(map[404]).toBe("own 404");
    expect(map[200]).toBe("ok");
    expect(JSON.stringify(map)).toBe(
      JSON.stringify({ ...{ 400: "bad", 404: "common 404", 503: "unavailable" }, ...own }),
    );
  });
});
