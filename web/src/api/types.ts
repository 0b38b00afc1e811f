import type { paths as ApiPaths } from "./generated/api";
import type { components as V1Components, paths as V1Paths } from "./generated/api-v1";

type Json<T> = T extends { content: { "application/json": infer B } } ? B : never;
type Ok<Op> = Op extends { responses: { 200: infer R } }
  ? Json<R>
  : Op extends { responses: { 201: infer R } }
    ? Json<R>
    : never;

export type Budget = Ok<V1Paths["/api/v1/budgets/{budget_id}"]["get"]>;
export type BudgetState = Budget["estado"];
export type BudgetItem = Ok<V1Paths["/api/v1/budget-items/{id}"]["get"]>;
export type Certification = Ok<V1Paths["/api/v1/certifications/{id}"]["get"]>;
export type CertificationState = Certification["estado"];
export type CostSummaryNode = V1Components["schemas"]["CostSummaryNode"];
export type CostEntry = Ok<V1Paths["/api/v1/accounting"]["get"]>["data"][number];
export type CostCategory = CostEntry["category"];
export type Entry = Ok<ApiPaths["/api/accounting/entries/{id}"]["get"]>;
export type User = Ok<V1Paths["/api/v1/users"]["get"]>["data"][number];

/** A node of the budget-items tree (`tree=1`): the API nests the same shape. */
export interface ItemNode {
  id: string;
  code: string;
  kind: "chapter" | "item";
  summary: string;
  unit: string;
  quantity: string | null;
  unit_price: string | null;
  amount: string;
  parent_id: string | null;
  children?: ItemNode[];
}

/** Budget life cycle as the server allows it (src/modules/projects/budgets/transitions.ts). */
export const BUDGET_TRANSITIONS: Record<BudgetState, { to: BudgetState; permission: string }[]> = {
  borrador: [
    { to: "aprobado", permission: "budgets:validar" },
    { to: "cancelado", permission: "budgets:editar" },
  ],
  aprobado: [
    { to: "en_ejecucion", permission: "budgets:editar" },
    { to: "cancelado", permission: "budgets:editar" },
  ],
  en_ejecucion: [{ to: "finalizado", permission: "budgets:validar" }],
  finalizado: [],
  cancelado: [],
};

export const BUDGET_STATE_COLOR: Record<BudgetState, string> = {
  borrador: "gray",
  aprobado: "blue",
  en_ejecucion: "teal",
  finalizado: "dark",
  cancelado: "red",
};

export const CERTIFICATION_STATE_COLOR: Record<CertificationState, string> = {
  borrador: "gray",
  emitida: "blue",
  validada: "teal",
  rechazada: "red",
};

export type Activity = Ok<V1Paths["/api/v1/activities/{id}"]["get"]>;
export type ActivityState = Activity["estado"];

/** Activity life cycle (src/modules/projects/activities/transitions.ts). */
export const ACTIVITY_TRANSITIONS: Record<ActivityState, ActivityState[]> = {
  pendiente: ["en_curso"],
  en_curso: ["completada"],
  completada: ["en_curso"],
};

export const ACTIVITY_STATE_COLOR: Record<ActivityState, string> = {
  pendiente: "gray",
  en_curso: "blue",
  completada: "teal",
};

/** A budget in these states takes no more changes to its items, activities or costs. */
export const READ_ONLY_BUDGET_STATES: BudgetState[] = ["finalizado", "cancelado"];
