import type { ACTIVITY_STATES } from "../tables.js";

export type ActivityState = (typeof ACTIVITY_STATES)[number];

/** pendiente -> en_curso -> completada; a completed activity can be reopened (-> en_curso). */
const TRANSITIONS: Record<ActivityState, ActivityState[]> = {
  pendiente: ["en_curso"],
  en_curso: ["completada"],
  completada: ["en_curso"],
};

export const allowedActivityTransitions = (from: string): ActivityState[] =>
  TRANSITIONS[from as ActivityState] ?? [];
