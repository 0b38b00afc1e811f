import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ctxOf } from "../../../platform/http/context.js";
import { errorResponses, noContent } from "../../../platform/http/errors.js";
import { idParams } from "../../../platform/ids.js";
import type { AuthService } from "../auth/service.js";
import {
  assignRoleBody,
  fromUserCreateBody,
  fromUserUpdateBody,
  meOut,
  passwordChangeBody,
  toUserOut,
  userCreateBody,
  userListQuery,
  userOut,
  userPage,
  userRoleParams,
  userUpdateBody,
} from "./schemas.js";
import * as users from "./service.js";

const tags = ["users"];

export const userRoutesV1: FastifyPluginAsyncZod<{ auth: AuthService }> = async (app, { auth }) => {
  app.get(
    "/users/me",
    {
      config: { auth: "authenticated" },
      schema: {
        tags,
        operationId: "getCurrentUser",
        summary: "The authenticated user, with roles and effective permissions",
        response: { 200: meOut },
      },
    },
    async (request) => {
      const me = users.getCurrentUser(ctxOf(request));
      return { ...toUserOut(me), permissions: me.permissions };
    },
  );

  app.put(
    "/users/me/password",
    {
      config: { auth: "authenticated" },
      schema: {
        tags,
        operationId: "changeOwnPassword",
        summary: "Change the caller's password (other sessions are logged out)",
        body: passwordChangeBody,
        response: { ...noContent },
      },
    },
    async (request, reply) => {
      await users.changeOwnPassword(ctxOf(request), request.body.current_password, request.body.new_password);
      return reply.code(204).send(null);
    },
  );

  app.get(
    "/users",
    {
      config: { permission: "usuarios:leer" },
      schema: {
        tags,
        operationId: "listUsers",
        summary: "List users",
        querystring: userListQuery,
        response: { 200: userPage },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, total } = await users.listUsers(ctxOf(request), {
        search: q.search,
        isActive: q.is_active,
        roleId: q.role_id,
        limit: q.limit,
        offset: q.offset,
      });
      return { data: rows.map(toUserOut), total, limit: q.limit, offset: q.offset };
    },
  );

  app.get(
    "/users/:id",
    {
      config: { permission: "usuarios:leer" },
      schema: {
        tags,
        operationId: "getUser",
        summary: "User detail",
        params: idParams,
        response: { 200: userOut, ...errorResponses(404) },
      },
    },
    async (request) => toUserOut(await users.getUser(ctxOf(request), request.params.id)),
  );

  app.post(
    "/users",
    {
      config: { permission: "usuarios:crear" },
      schema: {
        tags,
        operationId: "createUser",
        summary: "Create a user",
        body: userCreateBody,
        response: { 201: userOut, ...errorResponses(409) },
      },
    },
    async (request, reply) => {
      const user = await users.createUser(ctxOf(request), fromUserCreateBody(request.body));
      return reply.code(201).send(toUserOut(user));
    },
  );

  app.put(
    "/users/:id",
    {
      config: { permission: "usuarios:editar" },
      schema: {
        tags,
        operationId: "updateUser",
        summary: "Update a user (deactivating or setting a password revokes the user's tokens)",
        params: idParams,
        body: userUpdateBody,
        response: { 200: userOut, ...errorResponses(404, 409) },
      },
    },
    async (request) =>
      toUserOut(await users.updateUser(ctxOf(request), request.params.id, fromUserUpdateBody(request.body))),
  );

  app.delete(
    "/users/:id",
    {
      config: { permission: "usuarios:eliminar" },
      schema: {
        tags,
        operationId: "deactivateUser",
        summary: "Deactivate a user and revoke its tokens (the last active administrator can't be)",
        params: idParams,
        response: { ...noContent, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      await users.deactivateUser(ctxOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    "/users/:id/revoke-tokens",
    {
      config: { permission: "usuarios:editar" },
      schema: {
        tags,
        operationId: "revokeUserTokens",
        summary: "Revoke every token of a user",
        params: idParams,
        response: { ...noContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const ctx = ctxOf(request);
      await users.requireManageableUser(ctx, request.params.id);
      await auth.revokeAll(ctx, request.params.id, "revoked_by_admin");
      return reply.code(204).send(null);
    },
  );

  app.put(
    "/users/:id/roles",
    {
      config: { permission: "usuarios:editar" },
      schema: {
        tags,
        operationId: "assignUserRole",
        summary: "Assign a role to a user",
        params: idParams,
        body: assignRoleBody,
        response: { 200: userOut, ...errorResponses(404) },
      },
    },
    async (request) =>
      toUserOut(await users.assignRole(ctxOf(request), request.params.id, request.body.role_id)),
  );

  app.delete(
    "/users/:id/roles/:role_id",
    {
      config: { permission: "usuarios:editar" },
      schema: {
        tags,
        operationId: "removeUserRole",
        summary: "Remove a role from a user",
        params: userRoleParams,
        response: { ...noContent, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      await users.removeRole(ctxOf(request), request.params.id, request.params.role_id);
      return reply.code(204).send(null);
    },
  );
};
