import { z } from "zod";
import { iso } from "../../../platform/dates.js";
import { queryBoolean, v1ListQuery, v1Page } from "../../../platform/http/pagination.js";
import { uuidParam } from "../../../platform/ids.js";
import type { CreateUserInput, UpdateUserInput, UserView } from "./service.js";

const email = z.email({ message: "must be an e-mail address" }).max(254);
const password = z.string().min(8, { message: "must be at least 8 characters" }).max(1024);

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

export const userRoleParams = z.object({ id: uuidParam, role_id: uuidParam });
export const userPage = v1Page(userOut);

export function fromUserCreateBody(b: z.infer<typeof userCreateBody>): CreateUserInput {
  return {
    email: b.email,
    password: b.password,
    fullName: b.full_name,
    isActive: b.is_active,
    companyId: b.company_id,
    roleIds: b.role_ids,
  };
}

export function fromUserUpdateBody(b: z.infer<typeof userUpdateBody>): UpdateUserInput {
  return {
    email: b.email,
    fullName: b.full_name,
    isActive: b.is_active,
    password: b.password,
    companyId: b.company_id,
  };
}

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
