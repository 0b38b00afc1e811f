import { z } from "zod";
import { queryBoolean, queryDate, v1ListQuery, v1Page } from "../../../platform/http/pagination.js";
import { uuidParam } from "../../../platform/ids.js";
import { PERMISSION_ACTIONS } from "../catalog.js";
import type { PermissionRow, RoleRow } from "./repository.js";
import type { UserView } from "./service.js";

const iso = (d: Date) => d.toISOString();
const email = z.email({ message: "must be an e-mail address" }).max(254);
const password = z.string().min(8, { message: "must be at least 8 characters" }).max(1024);

export const loginBody = z.object({
  email: z.string().trim().min(1).max(254).describe("E-mail address"),
  password: z.string().min(1).max(1024),
});
export const refreshBody = z.object({ refresh_token: z.string().min(1).max(4096) });
/** Optional: a POST with no body at all reaches validation as null. */
export const logoutBody = z.object({ refresh_token: z.string().min(1).max(4096).optional() }).nullish();

export const tokenPairV1 = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.literal("bearer"),
});

export const roleRef = z.object({ id: z.uuid(), name: z.string() });

export const userOut = z.object({
  id: z.uuid(),
  email: z.string(),
  full_name: z.string(),
  is_active: z.boolean(),
  company_id: z.uuid().nullable(),
  roles: z.array(roleRef),
  created_at: z.string(),
  updated_at: z.string(),
});
export const meOut = userOut.extend({
  permissions: z.array(z.string()).describe("Effective module:action list"),
});

export const userCreateBody = z.object({
  email,
  password,
  full_name: z.string().trim().max(200).optional(),
  is_active: z.boolean().optional(),
  company_id: z.uuid().nullable().optional(),
  role_ids: z.array(z.uuid()).max(50).optional(),
});
export const userUpdateBody = z
  .object({
    email: email.optional(),
    full_name: z.string().trim().max(200).optional(),
    is_active: z.boolean().optional(),
    password: password.optional(),
    company_id: z.uuid().nullable().optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { message: "at least one field is required" });
export const passwordChangeBody = z.object({
  current_password: z.string().min(1).max(1024),
  new_password: password,
});
export const userListQuery = v1ListQuery.extend({
  search: z.string().trim().max(200).optional(),
  is_active: queryBoolean.optional(),
  role_id: z.uuid().optional(),
});
export const assignRoleBody = z.object({ role_id: z.uuid() });

export const permissionOut = z.object({
  id: z.uuid(),
  modulo: z.string(),
  accion: z.enum(PERMISSION_ACTIONS),
  submenu: z.string().nullable(),
  view: z.string().nullable(),
});
export const roleOut = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string(),
  is_system: z.boolean(),
  permissions: z.array(permissionOut),
  created_at: z.string(),
  updated_at: z.string(),
});
export const roleSummaryOut = roleOut.omit({ permissions: true });
export const roleBody = z.object({
  name: z.string().trim().min(1).max(100),
  description: z.string().trim().max(500).optional(),
});
export const roleUpdateBody = roleBody.partial().refine((b) => Object.keys(b).length > 0, {
  message: "at least one field is required",
});
export const addPermissionBody = z.union([
  z.object({ permission_id: z.uuid() }),
  z.object({ modulo: z.string().min(1).max(50), accion: z.enum(PERMISSION_ACTIONS) }),
]);

export const loginAuditOut = z.object({
  id: z.uuid(),
  email: z.string(),
  user_id: z.uuid().nullable(),
  success: z.boolean(),
  reason: z.string(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  created_at: z.string(),
});
export const loginAuditQuery = v1ListQuery.extend({
  email: z.string().trim().max(254).optional(),
  success: queryBoolean.optional(),
  date_from: queryDate.optional(),
  date_to: queryDate.optional(),
});

export const idParams = z.object({ id: uuidParam });
export const userRoleParams = z.object({ id: uuidParam, role_id: uuidParam });
export const rolePermissionParams = z.object({ id: uuidParam, perm_id: uuidParam });

export const userPage = v1Page(userOut);
export const rolePage = v1Page(roleSummaryOut);
export const loginAuditPage = v1Page(loginAuditOut);

export function toUserOut(
  u: Pick<
    UserView,
    "id" | "email" | "fullName" | "isActive" | "companyId" | "roles" | "createdAt" | "updatedAt"
  >,
): z.infer<typeof userOut> {
  return {
    id: u.id,
    email: u.email,
    full_name: u.fullName,
    is_active: u.isActive,
    company_id: u.companyId,
    roles: u.roles,
    created_at: iso(u.createdAt),
    updated_at: iso(u.updatedAt),
  };
}

export function toRoleSummaryOut(r: RoleRow): z.infer<typeof roleSummaryOut> {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    is_system: r.isSystem,
    created_at: iso(r.createdAt),
    updated_at: iso(r.updatedAt),
  };
}

export function toRoleOut(r: RoleRow & { permissions: PermissionRow[] }): z.infer<typeof roleOut> {
  return { ...toRoleSummaryOut(r), permissions: r.permissions.map(toPermissionOut) };
}

export function toPermissionOut(p: PermissionRow): z.infer<typeof permissionOut> {
  return {
    id: p.id,
    modulo: p.modulo,
    accion: p.accion as z.infer<typeof permissionOut>["accion"],
    submenu: p.submenu,
    view: p.view,
  };
}
