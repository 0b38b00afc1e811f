import { ConflictError } from "../../../platform/http/errors.js";
import type { ReturnState } from "../tables.js";

/**
 * A return's life: borrador (computed, editable, recomputable) -> confirmada (frozen, locks its
 * period, can be settled and filed) -> presentada (filed with the AEAT). An admin may reopen a
 * confirmed return (audited); a presented one is corrected by a rectifying return instead.
 */
const MOVES: Record<string, ReturnState[]> = {
  confirm: ["borrador"],
  present: ["confirmada"],
  reopen: ["confirmada"],
  edit: ["borrador"],
  settle: ["confirmada", "presentada"],
  file: ["confirmada", "presentada"],
};

export type ReturnMove = keyof typeof MOVES;

export function assertMove(move: ReturnMove, estado: ReturnState): void {
  const allowed = MOVES[move];
  if (!allowed.includes(estado))
    throw new ConflictError(
      `A ${estado} return cannot ${move === "file" ? "give its AEAT file" : move === "edit" ? "be edited or recomputed" : `be ${move === "settle" ? "settled" : `${move}ed`}`}: it must be ${allowed.join(" or ")}`,
      { estado, allowed },
    );
}
