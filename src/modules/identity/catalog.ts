/** The permission catalog: every module x action (DESIGN.md). Loaded at bootstrap, idempotently. */
export const PERMISSION_MODULES = [
  "usuarios",
  "roles",
  "admin",
  "budgets",
  "certifications",
  "activities",
  "accounting",
  "sales",
  "purchases",
  "treasury",
  "clients",
  "products",
  "agents",
  "banking",
  "companies",
  "api_tokens",
  "tax",
  "verifactu",
] as const;

export const PERMISSION_ACTIONS = ["leer", "crear", "editar", "eliminar", "validar", "auditar"] as const;

export type PermissionModule = (typeof PERMISSION_MODULES)[number];
export type PermissionAction = (typeof PERMISSION_ACTIONS)[number];

export const ADMIN_ROLE_NAME = "admin";

export function permissionCatalog(): { modulo: string; accion: string; submenu: string; view: string }[] {
  return PERMISSION_MODULES.flatMap((modulo) =>
    PERMISSION_ACTIONS.map((accion) => ({ modulo, accion, submenu: modulo, view: `${modulo}.${accion}` })),
  );
}
