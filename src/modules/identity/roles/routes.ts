import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ctxOf } from "../../../platform/http/context.js";
import { errorResponses, noContent } from "../../../platform/http/errors.js";
import { idParams } from "../../../platform/ids.js";
import {
  addPermissionBody,
  fromAddPermissionBody,
  permissionOut,
  roleBody,
  roleListQuery,
  roleOut,
  rolePage,
  rolePermissionParams,
  roleUpdateBody,
  toPermissionOut,
  toRoleOut,
  toRoleSummaryOut,
} from "./schemas.js";
import * as roles from "./service.js";

const tags = ["roles"];

export const roleRoutesV1: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/roles",
    {
      config: { permission: "roles:leer" },
      schema: {
        tags,
        operationId: "listRoles",
        summary: "List roles",
        querystring: roleListQuery,
        response: { 200: rolePage },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, total } = await roles.listRoles(ctxOf(request), {
        search: q.search,
        limit: q.limit,
        offset: q.offset,
      });
      return { data: rows.map(toRoleSummaryOut), total, limit: q.limit, offset: q.offset };
    },
  );

  app.get(
    "/roles/:id",
    {
      config: { permission: "roles:leer" },
      schema: {
        tags,
        operationId: "getRole",
        summary: "Role detail with its permissions",
        params: idParams,
        response: { 200: roleOut, ...errorResponses(404) },
      },
    },
    async (request) => toRoleOut(await roles.getRole(ctxOf(request), request.params.id)),
  );

  app.post(
    "/roles",
    {
      config: { permission: "roles:crear" },
      schema: {
        tags,
        operationId: "createRole",
        summary: "Create a role",
        body: roleBody,
        response: { 201: roleOut, ...errorResponses(409) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(toRoleOut(await roles.createRole(ctxOf(request), request.body))),
  );

  app.put(
    "/roles/:id",
    {
      config: { permission: "roles:editar" },
      schema: {
        tags,
        operationId: "updateRole",
        summary: "Edit a role",
        params: idParams,
        body: roleUpdateBody,
        response: { 200: roleOut, ...errorResponses(404, 409) },
      },
    },
    async (request) => toRoleOut(await roles.updateRole(ctxOf(request), request.params.id, request.body)),
  );

  app.delete(
    "/roles/:id",
    {
      config: { permission: "roles:eliminar" },
      schema: {
        tags,
        operationId: "deleteRole",
        summary: "Delete a role (409 while users hold it; the built-in admin role can't be deleted)",
        params: idParams,
        response: { ...noContent, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      await roles.deleteRole(ctxOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    "/roles/:id/permissions",
    {
      config: { permission: "roles:leer" },
      schema: {
        tags,
        operationId: "listRolePermissions",
        summary: "Permissions of a role",
        params: idParams,
        response: { 200: z.array(permissionOut), ...errorResponses(404) },
      },
    },
    async (request) =>
      (await roles.getRole(ctxOf(request), request.params.id)).permissions.map(toPermissionOut),
  );

  app.post(
    "/roles/:id/permissions",
    {
      config: { permission: "roles:editar" },
      schema: {
        tags,
        operationId: "addRolePermission",
        summary: "Add a permission to a role, by permission_id or by modulo and accion",
        params: idParams,
        body: addPermissionBody,
        response: { 200: roleOut, ...errorResponses(404, 409) },
      },
    },
    async (request) =>
      toRoleOut(
        await roles.addPermission(ctxOf(request), request.params.id, fromAddPermissionBody(request.body)),
      ),
  );

  app.delete(
    "/roles/:id/permissions/:perm_id",
    {
      config: { permission: "roles:editar" },
      schema: {
        tags,
        operationId: "removeRolePermission",
        summary: "Remove a permission from a role",
        params: rolePermissionParams,
        response: { ...noContent, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      await roles.removePermission(ctxOf(request), request.params.id, request.params.perm_id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    "/permissions",
    {
      config: { permission: "roles:leer" },
      schema: {
        tags,
        operationId: "listPermissions",
        summary: "The permission catalog",
        response: { 200: z.array(permissionOut) },
      },
    },
    async (request) => (await roles.listPermissionCatalog(ctxOf(request))).map(toPermissionOut),
  );
};
