import { addDays, lastOfMonth } from "../../../platform/dates.js";

export const GRANULARITIES = ["day", "week", "month"] as const;
export type Granularity = (typeof GRANULARITIES)[number];

export interface Bucket {
  start: string;
  end: string;
  /** 2026-11-23, 2026-W48 (ISO week), 2026-11. */
  label: string;
}

/** Monday = 0 ... Sunday = 6. */
const weekday = (iso: string) => (new Date(`${iso}T00:00:00Z`).getUTCDay() + 6) % 7;

/** ISO 8601 week label of a date: the year of its Thursday, and the week number. */
export function isoWeekLabel(iso: string): string {
  const thursday = addDays(iso, 3 - weekday(iso));
  const year = Number(thursday.slice(0, 4));
  const firstThursday = addDays(`${year}-01-04`, 3 - weekday(`${year}-01-04`));
  const week = 1 + Math.round((Date.parse(thursday) - Date.parse(firstThursday)) / (7 * 86_400_000));
  return `${year}-W${String(week).padStart(2, "0")}`;
}

/**
 * The buckets covering [from, to]: days, ISO weeks (Monday to Sunday) or calendar months, the first
 * and last cut to the window.
 */
export function buckets(from: string, to: string, granularity: Granularity): Bucket[] {
  const out: Bucket[] = [];
  let start = from;
  while (start <= to) {
    const natural =
      granularity === "day"
        ? start
        : granularity === "week"
          ? addDays(start, 6 - weekday(start))
          : lastOfMonth(start);
    const end = natural < to ? natural : to;
    const label =
      granularity === "day" ? start : granularity === "week" ? isoWeekLabel(start) : start.slice(0, 7);
    out.push({ start, end, label });
    start = addDays(end, 1);
  }
  return out;
}

/** How many buckets [from, to] makes, without building them. */
export function bucketCount(from: string, to: string, granularity: Granularity): number {
  const days = Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;
  if (granularity === "day") return days;
  if (granularity === "week") return Math.ceil((days + weekday(from)) / 7);
  const months =
    (Number(to.slice(0, 4)) - Number(from.slice(0, 4))) * 12 +
    Number(to.slice(5, 7)) -
    Number(from.slice(5, 7));
  return months + 1;
}

/** The index of the bucket holding `date` (buckets sorted and contiguous), or -1 outside them. */
export function bucketIndex(list: Bucket[], date: string): number {
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (date < list[mid].start) hi = mid - 1;
    else if (date > list[mid].end) lo = mid + 1;
    else return mid;
  }
  return -1;
}
