import { describe, expect, it } from "vitest";
import { AppError } from "../../platform/http/errors.js";
import {
  assertTransition,
  COMMERCIAL_STATES,
  isEditable,
  PURCHASE_INVOICE_STATES,
  paymentStatus,
  SALES_INVOICE_STATES,
  SYSTEM_TRANSITIONS,
  TRANSITIONS,
  type TransitionKind,
} from "./transitions.js";

const STATES: Record<TransitionKind, readonly string[]> = {
  estimate: COMMERCIAL_STATES,
  order: COMMERCIAL_STATES.filter((s) => s !== "caducado"),
  delivery_note: COMMERCIAL_STATES.filter((s) => s !== "caducado"),
  sales_invoice: SALES_INVOICE_STATES,
  purchase_invoice: PURCHASE_INVOICE_STATES,
};
const KINDS = Object.keys(STATES) as TransitionKind[];
// biome-ignore lint/suspicious/noExplicitAny: the tables are walked generically here
const check = assertTransition as (kind: TransitionKind, from: any, to: any, by?: "user" | "system") => void;

function conflict(fn: () => void): AppError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return e as AppError;
  }
  throw new Error("expected a 409");
}

describe("transition tables", () => {
  it("cover exactly the states of each kind, and only point to states of the same kind", () => {
    for (const kind of KINDS) {
      for (const tables of [TRANSITIONS, SYSTEM_TRANSITIONS]) {
        const table = tables[kind] as Record<string, readonly string[]>;
        expect(Object.keys(table).sort(), kind).toEqual([...STATES[kind]].sort());
        for (const targets of Object.values(table)) {
          for (const to of targets) expect(STATES[kind]).toContain(to);
        }
      }
    }
  });

  for (const by of ["user", "system"] as const) {
    const tables = by === "user" ? TRANSITIONS : SYSTEM_TRANSITIONS;
    for (const kind of KINDS) {
      it(`${kind} (${by}): accepts every listed transition and refuses every other with a 409 naming the allowed ones`, () => {
        const table = tables[kind] as Record<string, readonly string[]>;
        let accepted = 0;
        let refused = 0;
        for (const from of STATES[kind]) {
          for (const to of STATES[kind]) {
            if (table[from].includes(to)) {
              expect(() => check(kind, from, to, by)).not.toThrow();
              accepted++;
            } else {
              const error = conflict(() => check(kind, from, to, by));
              expect(error.status).toBe(409);
              expect(error.options.extensions).toEqual({ estado: from, allowed: [...table[from]] });
              for (const allowed of table[from]) expect(error.message).toContain(allowed);
              expect(error.message).toContain(`in ${from} cannot move to ${to}`);
              refused++;
            }
          }
        }
        expect(accepted + refused).toBe(STATES[kind].length ** 2);
        expect(refused).toBeGreaterThan(0);
      });
    }
  }

  it("lets nobody set conversion-driven states by hand, and only the engine expires estimates", () => {
    for (const kind of ["estimate", "order", "delivery_note"] as const) {
      for (const from of STATES[kind]) {
        const manual = (TRANSITIONS[kind] as Record<string, readonly string[]>)[from];
        expect(manual).not.toContain("parcial");
        expect(manual).not.toContain("convertido");
        expect(manual).not.toContain("caducado");
      }
      expect(TRANSITIONS[kind].convertido).toEqual([]);
    }
    expect(() => check("estimate", "abierto", "caducado", "system")).not.toThrow();
    expect(conflict(() => check("order", "abierto", "caducado", "system")).status).toBe(409);
  });

  it("issued sales invoices and approved purchase invoices are final", () => {
    const issued = conflict(() => check("sales_invoice", "emitida", "borrador"));
    expect(issued.message).toContain("cannot change state");
    expect(issued.options.extensions).toEqual({ estado: "emitida", allowed: [] });
    expect(conflict(() => check("purchase_invoice", "aprobada", "pendiente")).status).toBe(409);
    expect(() => check("purchase_invoice", "rechazada", "pendiente")).not.toThrow();
  });

  it("refuses a state foreign to the kind", () => {
    const error = conflict(() => check("estimate", "emitida", "abierto"));
    expect(error.status).toBe(409);
    expect(error.options.extensions).toEqual({ estado: "emitida", allowed: [] });
    expect(conflict(() => check("order", "abierto", "emitida")).status).toBe(409);
  });
});

describe("isEditable", () => {
  it("is true only in borrador and abierto for commercial documents, borrador for sales invoices, pendiente for purchase invoices", () => {
    const editable: Record<TransitionKind, string[]> = {
      estimate: ["borrador", "abierto"],
      order: ["borrador", "abierto"],
      delivery_note: ["borrador", "abierto"],
      sales_invoice: ["borrador"],
      purchase_invoice: ["pendiente"],
    };
    for (const kind of KINDS) {
      for (const state of STATES[kind]) {
        // biome-ignore lint/suspicious/noExplicitAny: walking every state of every kind
        expect(isEditable(kind, state as any), `${kind} ${state}`).toBe(editable[kind].includes(state));
      }
    }
  });
});

describe("paymentStatus", () => {
  const base = { total: "121.00", paid: "0.00", dueDates: ["2026-02-15"], today: "2026-02-01" };

  it("pendiente when nothing is paid and nothing is due yet", () => {
    expect(paymentStatus(base)).toBe("pendiente");
  });

  it("parcial when part is paid", () => {
    expect(paymentStatus({ ...base, paid: "0.01" })).toBe("parcial");
    expect(paymentStatus({ ...base, paid: "120.99" })).toBe("parcial");
  });

  it("pagada when the paid amount reaches the total, or exceeds it", () => {
    expect(paymentStatus({ ...base, paid: "121.00" })).toBe("pagada");
    expect(paymentStatus({ ...base, paid: "150.00", today: "2026-03-01" })).toBe("pagada");
  });

  it("vencida when not fully paid and a due date is before today (the due date itself is not overdue)", () => {
    expect(paymentStatus({ ...base, today: "2026-02-15" })).toBe("pendiente");
    expect(paymentStatus({ ...base, today: "2026-02-16" })).toBe("vencida");
    expect(paymentStatus({ ...base, paid: "100.00", today: "2026-02-16" })).toBe("vencida");
  });

  it("with instalment amounts, overdue only when what fell due exceeds what was paid", () => {
    const dueDates = [
      { dueDate: "2026-01-15", amount: "60.50" },
      { dueDate: "2026-02-15", amount: "60.50" },
    ];
    expect(paymentStatus({ ...base, dueDates, paid: "60.50" })).toBe("parcial");
    expect(paymentStatus({ ...base, dueDates, paid: "60.49" })).toBe("vencida");
    expect(paymentStatus({ ...base, dueDates, paid: "60.50", today: "2026-02-16" })).toBe("vencida");
  });

  it("mirrors for a negative total (credit note): refunds are negative payments", () => {
    const credit = { total: "-50.00", dueDates: ["2026-02-15"], today: "2026-02-01" };
    expect(paymentStatus({ ...credit, paid: "0.00" })).toBe("pendiente");
    expect(paymentStatus({ ...credit, paid: "-20.00" })).toBe("parcial");
    expect(paymentStatus({ ...credit, paid: "-50.00" })).toBe("pagada");
    expect(paymentStatus({ ...credit, paid: "-60.00" })).toBe("pagada");
    expect(paymentStatus({ ...credit, paid: "20.00" })).toBe("pendiente");
    expect(paymentStatus({ ...credit, paid: "-20.00", today: "2026-03-01" })).toBe("vencida");
  });

  it("a zero total is paid; a fully rectified invoice is reversed whatever was paid", () => {
    expect(paymentStatus({ ...base, total: "0.00" })).toBe("pagada");
    expect(paymentStatus({ ...base, fullyRectified: true, today: "2027-01-01" })).toBe("reversed");
    expect(paymentStatus({ ...base, paid: "121.00", fullyRectified: true })).toBe("reversed");
  });
});
