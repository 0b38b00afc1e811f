import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ctxOf, publicCtxOf } from "../../../platform/http/context.js";
import { errorResponses, noContent } from "../../../platform/http/errors.js";
import { loginBody, logoutBody, refreshBody, tokenPairOut, toTokenPairOut } from "./schemas.js";
import type { AuthService } from "./service.js";

const tags = ["auth"];

/** /api/auth: the same identity service as /api/v1, with the enterprise API's response shape. */
export const enterpriseAuthRoutes: FastifyPluginAsyncZod<{ auth: AuthService }> = async (app, { auth }) => {
  app.post(
    "/login",
    {
      config: { auth: "public", credentials: "jwt" },
      schema: {
        tags,
        operationId: "login",
        summary: "Log in with e-mail and password",
        body: loginBody,
        response: { 200: tokenPairOut, ...errorResponses(401, 429) },
      },
    },
    async (request) =>
      toTokenPairOut(
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
        operationId: "refreshTokens",
        summary: "Exchange a refresh token for a new pair (the old one is spent)",
        body: refreshBody,
        response: { 200: tokenPairOut, ...errorResponses(401, 409) },
      },
    },
    async (request) => toTokenPairOut(await auth.refresh(publicCtxOf(request), request.body.refresh_token)),
  );
  app.post(
    "/logout",
    {
      config: { auth: "authenticated", credentials: "jwt" },
      schema: {
        tags,
        operationId: "logout",
        summary: "Log out: the access token and the session's refresh tokens stop working",
        body: logoutBody,
        response: { ...noContent },
      },
    },
    async (request, reply) => {
      await auth.logout(ctxOf(request), request.body?.refresh_token);
      return reply.code(204).send(null);
    },
  );
};
