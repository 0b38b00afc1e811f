import type { MovementState } from "../tables.js";

export type MovementAction = "reconcile" | "ignore" | "unreconcile";

/**
 * What each action does to a movement's state. Unreconcile also takes an ignored movement back;
 * it returns to pendiente (sugerido again when the matcher kept suggestions for it).
 */
export const MOVEMENT_ACTIONS: Record<MovementAction, { from: readonly MovementState[]; to: MovementState }> =
  {
    reconcile: { from: ["pendiente", "sugerido"], to: "conciliado" },
    ignore: { from: ["pendiente", "sugerido"], to: "ignorado" },
    unreconcile: { from: ["conciliado", "ignorado"], to: "pendiente" },
  };
