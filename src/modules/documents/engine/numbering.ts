import type { Direction, DocumentKind } from "../tables.js";

/** Code prefixes: FV (factura de venta), FC (factura de compra), PRV/PRC, PEV/PEC, ALV/ALC. */
const PREFIXES: Record<Direction, Record<DocumentKind, string>> = {
  sale: { estimate: "PRV", order: "PEV", delivery_note: "ALV", invoice: "FV" },
  purchase: { estimate: "PRC", order: "PEC", delivery_note: "ALC", invoice: "FC" },
};

/**
 * A numbered document's code: prefix, the series when it is not the general A, year, number of 6
 * digits — FV2026-000123, FVR2026-000004 (rectifying series R), PRV2026-000010.
 */
export function documentCode(
  scope: { direction: Direction; kind: DocumentKind },
  seriesCode: string,
  year: number,
  number: number,
): string {
  const series = seriesCode === "A" ? "" : seriesCode;
  return `${PREFIXES[scope.direction][scope.kind]}${series}${year}-${String(number).padStart(6, "0")}`;
}
