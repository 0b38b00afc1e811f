import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ctxOf, publicCtxOf } from "../../../platform/http/context.js";
import { errorResponses } from "../../../platform/http/errors.js";
import { loginBody, logoutBody, refreshBody } from "../users/schemas.js";
import type { AuthService, TokenPair } from "./service.js";

const tags = ["auth"];

const tokenPair = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  expires_in: z.number().int().describe("Seconds until the access token expires"),
});

const toPair = (t: TokenPair) => ({
  access_token: t.accessToken,
  refresh_token: t.refreshToken,
  expires_in: t.expiresIn,
});

/** /api/auth: the same identity service as /api/v1, with the enterprise API's response shape. */
export const enterpriseAuthRoutes: FastifyPluginAsyncZod<{ auth: AuthService }> = async (app, { auth }) => {
  app.post(
    "/login",
    {
      config: { auth: "public", credentials: "jwt" },
      schema: {
        tags,
        summary: "Log in with e-mail and password",
        body: loginBody,
        response: { 200: tokenPair, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) =>
      toPair(
        await auth.login(publicCtxOf(request), request.body.email, request.body.password, {
          ip: request.ip,
          userAgent: request.headers["user-agent"] ?? null,
        }),
      ),
  );
  app.post(
    "/refresh",
    {
      config: { auth: "public", credentials: "jwt" },
      schema: {
        tags,
        summary: "Exchange a refresh token for a new pair (the old one is spent)",
        body: refreshBody,
        response: { 200: tokenPair, ...errorResponses(400, 401) },
      },
    },
    async (request) => toPair(await auth.refresh(publicCtxOf(request), request.body.refresh_token)),
  );
  app.post(
    "/logout",
    {
      config: { auth: "authenticated", credentials: "jwt" },
      schema: {
        tags,
        summary: "Log out: the access token and the session's refresh tokens stop working",
        body: logoutBody,
        response: { 204: z.null().describe("No content"), ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      await auth.logout(ctxOf(request), request.body?.refresh_token);
      return reply.code(204).send(null);
    },
  );
};
