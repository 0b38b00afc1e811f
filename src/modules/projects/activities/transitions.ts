import type { ActivityState } from "../tables.js";

/** pendiente -> en_curso -> completada; a completed activity can be reopened (-> en_curso). */
const TRANSITIONS: Record<ActivityState, ActivityState[]> = {
  pendiente: ["en_curso"],
  en_curso: ["completada"],
  completada: ["en_curso"],
};

export const allowedActivityTransitions = (from: ActivityState): ActivityState[] => TRANSITIONS[from];
