import type { BUDGET_STATES } from "../tables.js";

export type BudgetState = (typeof BUDGET_STATES)[number];

/** Budget life cycle: each allowed move and the permission it needs (the route itself requires budgets:editar). */
const TRANSITIONS: Record<BudgetState, Partial<Record<BudgetState, string>>> = {
  borrador: { aprobado: "budgets:validar", cancelado: "budgets:editar" },
  aprobado: { en_ejecucion: "budgets:editar", cancelado: "budgets:editar" },
  en_ejecucion: { finalizado: "budgets:validar" },
  finalizado: {},
  cancelado: {},
};

export const allowedBudgetTransitions = (from: string): BudgetState[] =>
  Object.keys(TRANSITIONS[from as BudgetState] ?? {}) as BudgetState[];

/** The permission needed to move from `from` to `to`, or undefined when the move is not allowed. */
export const budgetTransitionPermission = (from: string, to: string): string | undefined =>
  TRANSITIONS[from as BudgetState]?.[to as BudgetState];
