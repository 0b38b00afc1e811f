import { BadRequestError } from "../../../platform/http/errors.js";
import { toQuantity, toUnitPrice } from "../../../platform/money.js";
import {
  type DecompositionLine,
  itemAmount,
  type MeasurementLine,
  quantityFromMeasurements,
  unitPriceFromDecomposition,
} from "./arithmetic.js";

/** A measurement line as sent: blanks may be left out. */
export interface MeasurementInput {
  label: string;
  units?: string | null;
  length?: string | null;
  width?: string | null;
  height?: string | null;
}

export interface PricingInput {
  quantity?: string;
  unitPrice?: string;
  measurements?: MeasurementInput[];
  decomposition?: DecompositionLine[];
}

/** What the item holds now (undefined when creating). */
export interface CurrentPricing {
  quantity: string;
  unitPrice: string;
  hasMeasurements: boolean;
  hasDecomposition: boolean;
}

export interface ResolvedPricing {
  quantity: string;
  unitPrice: string;
  amount: string;
  /** New lines to store; undefined = leave the stored ones as they are. */
  measurements?: MeasurementLine[];
  decomposition?: DecompositionLine[];
}

const toLine = (m: MeasurementInput): MeasurementLine => ({
  label: m.label,
  units: m.units ?? null,
  length: m.length ?? null,
  width: m.width ?? null,
  height: m.height ?? null,
});

/**
 * Quantity, unit price and amount of an item. Measurement lines, when sent, set the quantity and
 * decomposition lines set the unit price (each over the plain field in the same body). A derived value
 * can't be overwritten alone: sending `quantity` to an item that keeps its measurement lines is a 400.
 */
export function resolvePricing(
  input: PricingInput,
  current?: CurrentPricing,
  budget: { indirectPct?: string } = {},
): ResolvedPricing {
  const measurements = input.measurements?.map(toLine);
  const decomposition = input.decomposition;
  if (!measurements && current?.hasMeasurements && input.quantity !== undefined) {
    throw new BadRequestError("The quantity comes from the measurement lines", [
      {
        path: "body.quantity",
        message: "send measurements (or measurements: [] to enter the quantity by hand)",
      },
    ]);
  }
  if (!decomposition && current?.hasDecomposition && input.unitPrice !== undefined) {
    throw new BadRequestError("The unit price comes from the decomposition", [
      {
        path: "body.unit_price",
        message: "send decomposition (or decomposition: [] to enter the price by hand)",
      },
    ]);
  }
  const quantity = measurements?.length
    ? quantityFromMeasurements(measurements)
    : toQuantity(input.quantity ?? current?.quantity ?? "0");
  const unitPrice = decomposition?.length
    ? unitPriceFromDecomposition(decomposition, { indirectPct: budget.indirectPct })
    : toUnitPrice(input.unitPrice ?? current?.unitPrice ?? "0");
  return { quantity, unitPrice, amount: itemAmount(quantity, unitPrice), measurements, decomposition };
}
