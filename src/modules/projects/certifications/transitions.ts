import { inTransaction } from "../../../platform/db/sql.js";
import type { AuthedCtx } from "../../../platform/http/context.js";
import { ConflictError, ForbiddenError } from "../../../platform/http/errors.js";
import type { CERTIFICATION_STATES } from "../tables.js";
import * as repo from "./repository.js";
import { get, lockForWrite } from "./service.js";

export type CertificationEstado = (typeof CERTIFICATION_STATES)[number];

/** Allowed transitions; a validated certification is final. */
export const CERTIFICATION_TRANSITIONS: Record<CertificationEstado, readonly CertificationEstado[]> = {
  borrador: ["emitida"],
  emitida: ["validada", "rechazada"],
  rechazada: ["borrador"],
  validada: [],
};

/** Transitions that take the client's side: they need certifications:validar besides the route's permission. */
const NEEDS_VALIDAR: readonly CertificationEstado[] = ["validada", "rechazada"];
export const VALIDATE_PERMISSION = "certifications:validar";

export async function changeEstado(ctx: AuthedCtx, id: string, to: CertificationEstado) {
  if (NEEDS_VALIDAR.includes(to) && !ctx.actor.permissions.has(VALIDATE_PERMISSION)) {
    throw new ForbiddenError(`Requires permission ${VALIDATE_PERMISSION} to set estado ${to}`);
  }
  await inTransaction(ctx.db, async (tx) => {
    const { certification } = await lockForWrite(tx, id);
    const from = certification.estado as CertificationEstado;
    const allowed = CERTIFICATION_TRANSITIONS[from];
    if (!allowed.includes(to)) {
      throw new ConflictError(`A certification in ${from} cannot move to ${to}`, { estado: from, allowed });
    }
    if (to !== "validada") {
      await repo.updateCertification(tx, id, { estado: to });
      return;
    }
    if (certification.number > 1) {
      const before = await repo.findByNumber(tx, certification.budgetId, certification.number - 1);
      if (before && before.estado !== "validada") {
        throw new ConflictError(
          `Certification ${before.number} must be validated before certification ${certification.number}`,
          { blocking_number: before.number, blocking_estado: before.estado },
        );
      }
    }
    await freezeCarriedLines(tx, certification);
    await repo.updateCertification(tx, id, {
      estado: "validada",
      validatedBy: ctx.actor.userId,
      validatedAt: new Date(),
    });
  });
  return get(ctx, id);
}

/**
 * Stores the lines carried forward from the previous validated certification, so a validated
 * certification holds every item certified to date and the next one can read its previous figures.
 */
async function freezeCarriedLines(tx: AuthedCtx["db"], certification: repo.CertificationRow) {
  const previous = await repo.previousValidatedLines(tx, certification.budgetId, certification.number);
  if (!previous) return;
  const own = new Set((await repo.linesOf(tx, certification.id)).map((l) => l.budgetItemId));
  await repo.insertLines(
    tx,
    certification.id,
    previous.lines.filter((l) => !own.has(l.budgetItemId)),
  );
}
