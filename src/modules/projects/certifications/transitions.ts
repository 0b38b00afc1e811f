import type { CertificationState } from "../tables.js";

/** Allowed transitions; a validated certification is final. */
export const CERTIFICATION_TRANSITIONS: Record<CertificationState, readonly CertificationState[]> = {
  borrador: ["emitida"],
  emitida: ["validada", "rechazada"],
  rechazada: ["borrador"],
  validada: [],
};

/** Transitions that take the client's side: they need certifications:validar besides the route's permission. */
export const NEEDS_VALIDAR: readonly CertificationState[] = ["validada", "rechazada"];
export const VALIDATE_PERMISSION = "certifications:validar";
