import { ConflictError } from "../../platform/http/errors.js";
import { Dec } from "../../platform/money.js";

/**
 * The state machines of the documents engine, as data.
 *
 * Estimates, orders and delivery notes (sales and purchases alike) share one machine. Its states
 * are moved two ways:
 * - by hand (`TRANSITIONS`, checked by `assertTransition`): borrador <-> abierto, rechazado,
 *   cancelado, and reopening;
 * - by the engine (`SYSTEM_TRANSITIONS`, `assertTransition(..., "system")`): `parcial` and
 *   `convertido` follow the conversion links (some lines served -> parcial, every line fully
 *   served -> convertido; deleting the child document that served them moves the source back), and
 *   an open estimate past its `valid_until` becomes `caducado`. A user can never set parcial,
 *   convertido or caducado, and a converted document is final.
 *
 * Sales invoices: borrador -> emitida by issuing; an issued invoice never changes state again (a
 * correction is a new rectifying invoice). Purchase invoices: pendiente -> aprobada | rechazada,
 * and a rejected one can be reopened to pendiente.
 */
export const COMMERCIAL_STATES = [
  "borrador",
  "abierto",
  "parcial",
  "convertido",
  "rechazado",
  "cancelado",
  "caducado",
] as const;
export const SALES_INVOICE_STATES = ["borrador", "emitida"] as const;
export const PURCHASE_INVOICE_STATES = ["pendiente", "aprobada", "rechazada"] as const;

export type CommercialState = (typeof COMMERCIAL_STATES)[number];
export type EstimateState = CommercialState;
export type OrderState = Exclude<CommercialState, "caducado">;
export type SalesInvoiceState = (typeof SALES_INVOICE_STATES)[number];
export type PurchaseInvoiceState = (typeof PURCHASE_INVOICE_STATES)[number];

export interface StateByKind {
  estimate: EstimateState;
  order: OrderState;
  delivery_note: OrderState;
  sales_invoice: SalesInvoiceState;
  purchase_invoice: PurchaseInvoiceState;
}
export type TransitionKind = keyof StateByKind;
export type DocumentState = StateByKind[TransitionKind];
type Table<K extends TransitionKind> = { readonly [S in StateByKind[K]]: readonly StateByKind[K][] };
export type TransitionTables = { readonly [K in TransitionKind]: Table<K> };

const ORDER_BY_HAND: Table<"order"> = {
  borrador: ["abierto", "cancelado"],
  abierto: ["borrador", "rechazado", "cancelado"],
  // Closing what is left of a partly served document.
  parcial: ["cancelado"],
  convertido: [],
  rechazado: ["abierto"],
  cancelado: ["borrador"],
};

/** Transitions a user may ask for. */
export const TRANSITIONS: TransitionTables = {
  estimate: { ...ORDER_BY_HAND, caducado: ["abierto", "rechazado"] },
  order: ORDER_BY_HAND,
  delivery_note: ORDER_BY_HAND,
  sales_invoice: { borrador: ["emitida"], emitida: [] },
  purchase_invoice: { pendiente: ["aprobada", "rechazada"], aprobada: [], rechazada: ["pendiente"] },
};

const ORDER_BY_ENGINE: Table<"order"> = {
  borrador: ["parcial", "convertido"],
  abierto: ["parcial", "convertido"],
  parcial: ["abierto", "convertido"],
  convertido: ["abierto", "parcial"],
  rechazado: [],
  cancelado: [],
};

/** Transitions only the engine makes: conversions (and their undoing) and estimate expiry. */
export const SYSTEM_TRANSITIONS: TransitionTables = {
  estimate: { ...ORDER_BY_ENGINE, abierto: [...ORDER_BY_ENGINE.abierto, "caducado"], caducado: [] },
  order: ORDER_BY_ENGINE,
  delivery_note: ORDER_BY_ENGINE,
  sales_invoice: { borrador: [], emitida: [] },
  purchase_invoice: { pendiente: [], aprobada: [], rechazada: [] },
};

const EDITABLE: { readonly [K in TransitionKind]: readonly StateByKind[K][] } = {
  estimate: ["borrador", "abierto"],
  order: ["borrador", "abierto"],
  delivery_note: ["borrador", "abierto"],
  sales_invoice: ["borrador"],
  purchase_invoice: ["pendiente"],
};

const KIND_NAMES: Record<TransitionKind, string> = {
  estimate: "An estimate",
  order: "An order",
  delivery_note: "A delivery note",
  sales_invoice: "A sales invoice",
  purchase_invoice: "A purchase invoice",
};

/** The states a document of this kind may move to from `from` (empty for unknown states). */
export function allowedTransitions<K extends TransitionKind>(
  kind: K,
  from: StateByKind[K],
  by: "user" | "system" = "user",
): readonly StateByKind[K][] {
  const table = (by === "user" ? TRANSITIONS : SYSTEM_TRANSITIONS)[kind] as Table<K>;
  return Object.hasOwn(table, from) ? table[from] : [];
}

/** Throws a 409 naming the allowed targets when `from -> to` is not a transition of the table. */
export function assertTransition<K extends TransitionKind>(
  kind: K,
  from: StateByKind[K],
  to: StateByKind[K],
  by: "user" | "system" = "user",
): void {
  const allowed = allowedTransitions(kind, from, by);
  if (allowed.includes(to)) return;
  const options = allowed.length ? `it can move to ${allowed.join(", ")}` : "it cannot change state";
  throw new ConflictError(`${KIND_NAMES[kind]} in ${from} cannot move to ${to}: ${options}`, {
    estado: from,
    allowed: [...allowed],
  });
}

export function isEditable<K extends TransitionKind>(kind: K, state: StateByKind[K]): boolean {
  return (EDITABLE[kind] as readonly string[]).includes(state);
}

function isOverdue(
  dueDates: Array<string | { dueDate: string; amount: string }>,
  today: string,
  sign: number,
  covered: Dec,
): boolean {
  let fellDue: Dec | undefined;
  for (const due of dueDates) {
    if (typeof due === "string") {
      if (due < today) return true;
    } else if (due.dueDate < today) {
      fellDue = fellDue ? fellDue.plus(due.amount) : new Dec(due.amount);
    }
  }
  // Nothing fell due: nothing can exceed what was paid (a list page asks this of every invoice).
  if (!fellDue) return false;
  return fellDue.times(sign).gt(covered.gt(0) ? covered : 0);
}

export type PaymentStatus = "pendiente" | "parcial" | "pagada" | "vencida" | "reversed";

/**
 * The payment status, derived from the document's figures, never stored by hand. `dueDates` are
 * the instalments' dates; with their amounts, an invoice is overdue only when what fell due before
 * `today` exceeds what was paid, and with bare dates as soon as any date is past.
 */
export function paymentStatus(args: {
  total: string;
  paid: string;
  dueDates: Array<string | { dueDate: string; amount: string }>;
  today: string;
  fullyRectified?: boolean;
}): PaymentStatus {
  if (args.fullyRectified) return "reversed";
  const total = new Dec(args.total);
  const paid = new Dec(args.paid);
  const sign = total.isNegative() ? -1 : 1;
  // Work on the side of the total: a credit note's refunds are negative payments.
  const owed = sign < 0 ? total.neg() : total;
  const covered = sign < 0 ? paid.neg() : paid;
  if (covered.gte(owed)) return "pagada";
  if (isOverdue(args.dueDates, args.today, sign, covered)) return "vencida";
  return covered.gt(0) ? "parcial" : "pendiente";
}
