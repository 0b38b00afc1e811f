import { z } from "zod";
import { iso } from "../../../platform/dates.js";
import { v1ListQuery, v1Page } from "../../../platform/http/pagination.js";
import { uuidParam } from "../../../platform/ids.js";
import { PERMISSION_ACTIONS } from "../catalog.js";
import type { PermissionRow, RoleRow } from "./repository.js";
import type { PermissionRef } from "./service.js";

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
export const roleListQuery = v1ListQuery.extend({ search: z.string().trim().max(200).optional() });
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
export const rolePermissionParams = z.object({ id: uuidParam, perm_id: uuidParam });
export const rolePage = v1Page(roleSummaryOut);

export function fromAddPermissionBody(b: z.infer<typeof addPermissionBody>): PermissionRef {
  return "permission_id" in b ? { permissionId: b.permission_id } : { modulo: b.modulo, accion: b.accion };
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
