import type { BudgetState } from "../tables.js";

/** Budget life cycle: each allowed move and the permission it needs (the route itself requires budgets:editar). */
const TRANSITIONS: Record<BudgetState, Partial<Record<BudgetState, string>>> = {
  borrador: { aprobado: "budgets:validar", cancelado: "budgets:editar" },
  aprobado: { en_ejecucion: "budgets:editar", cancelado: "budgets:editar" },
  en_ejecucion: { finalizado: "budgets:validar" },
  finalizado: {},
  cancelado: {},
};

export const allowedBudgetTransitions = (from: BudgetState): BudgetState[] =>
  Object.keys(TRANSITIONS[from]) as BudgetState[];

/** The permission needed to move from `from` to `to`, or undefined when the move is not allowed. */
export const budgetTransitionPermission = (from: BudgetState, to: BudgetState): string | undefined =>
  TRANSITIONS[from][to];
