/** Calendar arithmetic on ISO dates (YYYY-MM-DD), in UTC so no time zone can shift a day. */

const DAY_MS = 86_400_000;

const toTime = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const toIso = (time: number) => new Date(time).toISOString().slice(0, 10);

export const addDays = (iso: string, days: number) => toIso(toTime(iso) + days * DAY_MS);

export const firstOfMonth = (iso: string) => `${iso.slice(0, 7)}-01`;

export function lastOfMonth(iso: string): string {
  const d = new Date(toTime(iso));
  return toIso(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0));
}

/** The same day one year later (29 February -> 1 March). */
export function addOneYear(iso: string): string {
  const d = new Date(toTime(iso));
  return toIso(Date.UTC(d.getUTCFullYear() + 1, d.getUTCMonth(), d.getUTCDate()));
}

export const today = () => new Date().toISOString().slice(0, 10);

export interface DateSpan {
  from: string;
  to: string;
}

/**
 * How to read the inclusive range [from, to] from the balance tables: the whole months it covers
 * from the monthly table (by their first day), and the loose days at either edge from the daily table.
 */
export interface BalanceRangePlan {
  months: DateSpan | null;
  days: DateSpan[];
}

export function planBalanceRange(from: string, to: string): BalanceRangePlan {
  if (from > to) return { months: null, days: [] };
  const firstWholeMonth = from === firstOfMonth(from) ? from : addDays(lastOfMonth(from), 1);
  const lastWholeMonthEnd = to === lastOfMonth(to) ? to : addDays(firstOfMonth(to), -1);
  if (firstWholeMonth > lastWholeMonthEnd) return { months: null, days: [{ from, to }] };
  const days: DateSpan[] = [];
  if (from < firstWholeMonth) days.push({ from, to: addDays(firstWholeMonth, -1) });
  if (lastWholeMonthEnd < to) days.push({ from: addDays(lastWholeMonthEnd, 1), to });
  return { months: { from: firstWholeMonth, to: firstOfMonth(lastWholeMonthEnd) }, days };
}
