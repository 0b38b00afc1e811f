import { lastOfMonth } from "../../../platform/dates.js";
import { BadRequestError } from "../../../platform/http/errors.js";
import type { TaxModel } from "../tables.js";

export interface Period {
  year: number;
  period: string;
  dateFrom: string;
  dateTo: string;
  /** 4T, 12 or 0A: the last period of the year (box 68, refunds). */
  last: boolean;
}

const QUARTER = /^[1-4]T$/;
const MONTH = /^(0[1-9]|1[0-2])$/;

/**
 * The dates of a model's period: 303, 111 and 115 are quarterly (1T-4T) or monthly (01-12); 349
 * too; 390 is annual (0A). Anything else is a 400 naming the field.
 */
export function periodOf(model: TaxModel, year: number, period: string): Period {
  if (!Number.isInteger(year) || year < 2000 || year > 2999)
    throw new BadRequestError("year must be a 4-digit year", [
      { path: "year", message: "must be 2000-2999" },
    ]);
  const p = period.toUpperCase();
  if (model === "390") {
    if (p !== "0A")
      throw new BadRequestError("A 390 is annual: its period is 0A", [
        { path: "period", message: "must be 0A" },
      ]);
    return { year, period: p, dateFrom: `${year}-01-01`, dateTo: `${year}-12-31`, last: true };
  }
  if (QUARTER.test(p)) {
    const q = Number(p[0]);
    const first = `${year}-${String(q * 3 - 2).padStart(2, "0")}-01`;
    const last = `${year}-${String(q * 3).padStart(2, "0")}-01`;
    return { year, period: p, dateFrom: first, dateTo: lastOfMonth(last), last: q === 4 };
  }
  if (MONTH.test(p)) {
    const first = `${year}-${p}-01`;
    return { year, period: p, dateFrom: first, dateTo: lastOfMonth(first), last: p === "12" };
  }
  throw new BadRequestError(`period ${period} is not a period of the ${model}`, [
    { path: "period", message: "must be 1T-4T (quarter) or 01-12 (month)" },
  ]);
}

/** The period before (same granularity), for the compensation carried to the next return. */
export function previousPeriod(year: number, period: string): { year: number; period: string } {
  if (QUARTER.test(period)) {
    const q = Number(period[0]);
    return q === 1 ? { year: year - 1, period: "4T" } : { year, period: `${q - 1}T` };
  }
  const m = Number(period);
  return m === 1 ? { year: year - 1, period: "12" } : { year, period: String(m - 1).padStart(2, "0") };
}
