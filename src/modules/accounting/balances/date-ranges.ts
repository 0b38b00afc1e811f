import { addDays, firstOfMonth, lastOfMonth } from "../../../platform/dates.js";

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
