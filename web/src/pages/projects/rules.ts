import Decimal from "decimal.js";
import type { BudgetItem } from "../../api/types";

type T = (key: string, options?: Record<string, unknown>) => string;

/**
 * A typed decimal as the API wants it: "1.234,5" (Spanish: the comma is the decimal mark, dots group
 * thousands) or "1234.5". Blank is null; anything else, or more than `decimals` decimals, is undefined.
 */
export function decimalText(text: string, decimals: number): string | null | undefined {
  const s = text.trim();
  if (!s) return null;
  const normalized = s.includes(",") ? s.replace(/\./g, "").replace(",", ".") : s;
  return new RegExp(`^-?\\d{1,15}(\\.\\d{1,${decimals}})?$`).test(normalized) ? normalized : undefined;
}

/** A stored decimal ("2.500") as a field shows it: no trailing zeros, the comma in Spanish; null is blank. */
export function inputDecimal(value: string | null, comma: boolean): string {
  if (value === null) return "";
  const plain = new Decimal(value).toFixed();
  return comma ? plain.replace(".", ",") : plain;
}

/** A form rule: blank allowed (or not), else a decimal with at most `decimals` decimals. */
export const decimalRule =
  (t: T, decimals: number, required = false) =>
  (v: string) => {
    const d = decimalText(v, decimals);
    if (d === null) return required ? t("auth.required") : null;
    return d === undefined ? t("projectsEdit.badDecimal", { decimals }) : null;
  };

// --- Activities ---

export interface ActivityValues {
  code: string;
  name: string;
  planned_start: string;
  planned_end: string;
  actual_start: string;
  actual_end: string;
  progress_pct: string;
}

const endBefore = (t: T, end: string, start: string) =>
  end && start && end < start ? t("projectsEdit.endBeforeStart") : null;

/** The activity form's rules: what the server checks, said before sending. */
export function activityRules(t: T) {
  return {
    code: (v: string) => (v.trim() ? null : t("auth.required")),
    name: (v: string) => (v.trim() ? null : t("auth.required")),
    progress_pct: (v: string) => {
      const d = decimalText(v, 2);
      if (d === null) return null;
      return d === undefined || new Decimal(d).lt(0) || new Decimal(d).gt(100)
        ? t("projectsEdit.progressRange")
        : null;
    },
    planned_end: (v: string, all: ActivityValues) => endBefore(t, v, all.planned_start),
    actual_end: (v: string, all: ActivityValues) => endBefore(t, v, all.actual_start),
  };
}

// --- Measurement lines (FIEBDC-3 ~M: comment, units, length, width, height) ---

export interface MeasurementText {
  label: string;
  units: string;
  length: string;
  width: string;
  height: string;
}
export const MEASURE_FIELDS = ["units", "length", "width", "height"] as const;

/**
 * A line's product: its non-blank values multiplied (blanks count as 1); a line with every value
 * blank is a comment and counts 0; a value that is not a number makes it NaN. Same reading as the
 * server (src/modules/projects/items/arithmetic.ts).
 */
export function lineProduct(line: MeasurementText): Decimal {
  const values = MEASURE_FIELDS.map((f) => decimalText(line[f], 3)).filter((v) => v !== null);
  if (values.length === 0) return new Decimal(0);
  if (values.some((v) => v === undefined)) return new Decimal(Number.NaN);
  return values.reduce((acc, v) => acc.times(v as string), new Decimal(1));
}

/** The lines' sum, to the 3 decimals a quantity keeps. */
export const linesTotal = (lines: MeasurementText[]): Decimal =>
  lines.reduce((s, l) => s.plus(lineProduct(l)), new Decimal(0)).toDecimalPlaces(3);

/** The lines as the API takes them: decimals normalised, blanks null. */
export const measurementsBody = (lines: MeasurementText[]) =>
  lines.map((l) => ({
    label: l.label.trim(),
    units: decimalText(l.units, 3) ?? null,
    length: decimalText(l.length, 3) ?? null,
    width: decimalText(l.width, 3) ?? null,
    height: decimalText(l.height, 3) ?? null,
  }));

// --- Decomposition (the components of a unit price) ---

export const DECOMPOSITION_TYPES = ["labour", "machinery", "material", "other"] as const;

/** A component as typed: the API's decomposition line without its computed cost. */
export type ComponentText = Omit<BudgetItem["decomposition"][number], "cost">;

/**
 * Each component's cost, as the server computes it (ADR 015): yield x price, or for a code with "%"
 * its yield (per one) times the costs of the lines before it whose code starts with what precedes
 * the "%". A line not yet a number costs NaN.
 */
export function componentCosts(lines: Pick<ComponentText, "code" | "yield" | "price">[]): Decimal[] {
  const costs: Decimal[] = [];
  lines.forEach((line, i) => {
    const y = decimalText(line.yield, 6);
    const p = decimalText(line.price, 4);
    if (!y) {
      costs.push(new Decimal(Number.NaN));
      return;
    }
    const percent = line.code.indexOf("%");
    if (percent < 0) {
      costs.push(p ? new Decimal(y).times(p) : new Decimal(Number.NaN));
      return;
    }
    const mask = line.code.slice(0, percent);
    const base = costs
      .slice(0, i)
      .reduce((s, c, j) => (lines[j].code.startsWith(mask) ? s.plus(c) : s), new Decimal(0));
    costs.push(base.times(y));
  });
  return costs;
}

/** The direct cost of a unit: the components' costs added (before the budget's indirect costs). */
export const directCost = (lines: ComponentText[]): Decimal =>
  componentCosts(lines).reduce((s, c) => s.plus(c), new Decimal(0));

/** The lines as the API takes them; call it on lines the form's rules accepted. */
export const decompositionBody = (lines: ComponentText[]) =>
  lines.map((l) => ({
    type: l.type,
    code: l.code.trim(),
    unit: l.unit.trim(),
    summary: l.summary.trim(),
    yield: decimalText(l.yield, 6) as string,
    price: decimalText(l.price, 4) as string,
  }));
