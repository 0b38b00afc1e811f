import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ctxOf, publicCtxOf } from "../../../platform/http/context.js";
import { errorResponses, noContent } from "../../../platform/http/errors.js";
import {
  loginAuditPage,
  loginAuditQuery,
  loginBody,
  logoutBody,
  refreshBody,
  tokenPairV1,
  toLoginAuditOut,
  toTokenPairV1,
} from "./schemas.js";
import { type AuthService, listLoginAudit } from "./service.js";

const tags = ["auth"];

export const authRoutesV1: FastifyPluginAsyncZod<{ auth: AuthService }> = async (app, { auth }) => {
  app.post(
    "/auth/login",
    {
      config: { auth: "public" },
      schema: {
        tags,
        operationId: "login",
        summary: "Log in with e-mail and password",
        description:
          "Wrong e-mail or password and inactive users all get the same 401. 5 failures in 15 minutes -> 429.",
        body: loginBody,
        response: { 200: tokenPairV1, ...errorResponses(401, 429) },
      },
    },
    async (request) => {
      const tokens = await auth.login(publicCtxOf(request), request.body.email, request.body.password, {
        ip: request.ip,
        userAgent: request.headers["user-agent"] ?? null,
      });
      return toTokenPairV1(tokens);
    },
  );

  app.post(
    "/auth/refresh",
    {
      config: { auth: "public" },
      schema: {
        tags,
        operationId: "refreshTokens",
        summary: "Exchange a refresh token for a new pair",
        description: "The refresh token is spent; presenting it again revokes the whole session.",
        body: refreshBody,
        response: { 200: tokenPairV1, ...errorResponses(401, 409) },
      },
    },
    async (request) => toTokenPairV1(await auth.refresh(publicCtxOf(request), request.body.refresh_token)),
  );

  app.post(
    "/auth/logout",
    {
      config: { auth: "authenticated" },
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

  app.post(
    "/auth/logout-all",
    {
      config: { auth: "authenticated" },
      schema: {
        tags,
        operationId: "logoutAllSessions",
        summary: "Revoke every token of the caller, on every device",
        response: { ...noContent },
      },
    },
    async (request, reply) => {
      const ctx = ctxOf(request);
      await auth.revokeAll(ctx, ctx.actor.userId, "logout_all");
      return reply.code(204).send(null);
    },
  );

  app.get(
    "/auth/login-audit",
    {
      config: { permission: "admin:auditar" },
      schema: {
        tags,
        operationId: "listLoginAttempts",
        summary: "Login attempts, newest first",
        querystring: loginAuditQuery,
        response: { 200: loginAuditPage },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, total } = await listLoginAudit(ctxOf(request), {
        email: q.email,
        success: q.success,
        dateFrom: q.date_from,
        dateTo: q.date_to,
        limit: q.limit,
        offset: q.offset,
      });
      return { data: rows.map(toLoginAuditOut), total, limit: q.limit, offset: q.offset };
    },
  );
};
