import type { BudgetRecurrence } from "../tables.js";

const MONTHS: Record<Exclude<BudgetRecurrence, "none">, number> = { monthly: 1, quarterly: 3, yearly: 12 };

/** The date `months` months after `iso`, on the same day or the month's last when it has fewer. */
export function addMonthsClamped(iso: string, months: number): string {
  const [y, m, d] = iso.split("-").map(Number);
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(Math.min(d, last)).padStart(2, "0")}`;
}

/**
 * The dates a budget line falls on within [from, to]: its date, and with a recurrence every month,
 * quarter or year after it (always counted from the first date, so 31 January gives 28 February
 * then 31 March) up to `until` when set.
 */
export function occurrences(
  line: { date: string; recurrence: BudgetRecurrence; until: string | null },
  from: string,
  to: string,
): string[] {
  if (line.recurrence === "none") return line.date >= from && line.date <= to ? [line.date] : [];
  const step = MONTHS[line.recurrence];
  const end = line.until && line.until < to ? line.until : to;
  const out: string[] = [];
  for (let i = 0; ; i++) {
    const date = addMonthsClamped(line.date, i * step);
    if (date > end) break;
    if (date >= from) out.push(date);
  }
  return out;
}
