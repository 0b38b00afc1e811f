import { BadRequestError } from "../../../platform/http/errors.js";
import { Dec } from "../../../platform/money.js";
import { money, parseDecimal } from "../decimal.js";
import { parseIsoDate } from "../due-dates.js";

/**
 * One invoice's contribution to the 347: `amount` = base + VAT (+ RE), IRPF not deducted; a
 * rectifying invoice contributes a negative amount. `cash` is what was collected in cash for it.
 * Purchases with IRPF withheld are left out by the caller (they go to modelos 190/180).
 */
export interface Row347 {
  contactId: string;
  key: "A" | "B";
  /** Operation date (accrual), YYYY-MM-DD; decides the quarter. */
  date: string;
  amount: string;
  cash?: string;
}

export interface Totals347 {
  contactId: string;
  key: "A" | "B";
  annual: string;
  q1: string;
  q2: string;
  q3: string;
  q4: string;
  /** Cash received, only when over the cash threshold; "0.00" otherwise. */
  cash: string;
}

export const THRESHOLD_347 = "3005.06";
export const CASH_THRESHOLD_347 = "6000.00";

/**
 * Per (contact, key): the annual total and the quarters. A pair is declared when its absolute
 * annual total exceeds the threshold (RD 1065/2007 art. 33 "hayan superado": 3,005.07 in, 3,005.06
 * out), or when the cash received from the contact exceeds 6,000 (art. 34.1, reported apart).
 * All rows must belong to one calendar year. Order: first appearance of each pair.
 */
export function aggregate347(
  rows: Row347[],
  threshold: string = THRESHOLD_347,
  cashThreshold: string = CASH_THRESHOLD_347,
): Totals347[] {
  const limit = parseDecimal(threshold, "threshold");
  const cashLimit = parseDecimal(cashThreshold, "cashThreshold");
  const pairs = new Map<string, { contactId: string; key: "A" | "B"; quarters: Dec[]; cash: Dec }>();
  let year: number | null = null;
  rows.forEach((row, i) => {
    const at = (field: string) => `rows.${i}.${field}`;
    if (row.key !== "A" && row.key !== "B") {
      throw new BadRequestError(`${at("key")}: must be A or B`, [
        { path: at("key"), message: "must be A or B" },
      ]);
    }
    const date = parseIsoDate(row.date, at("date"));
    year ??= date.getUTCFullYear();
    if (date.getUTCFullYear() !== year) {
      const message = `every row must fall in ${year}`;
      throw new BadRequestError(`${at("date")}: ${message}`, [{ path: at("date"), message }]);
    }
    const id = `${row.contactId}\u0000${row.key}`;
    const pair = pairs.get(id) ?? {
      contactId: row.contactId,
      key: row.key,
      quarters: [new Dec(0), new Dec(0), new Dec(0), new Dec(0)],
      cash: new Dec(0),
    };
    const quarter = Math.floor(date.getUTCMonth() / 3);
    pair.quarters[quarter] = pair.quarters[quarter].plus(parseDecimal(row.amount, at("amount")));
    pair.cash = pair.cash.plus(parseDecimal(row.cash, at("cash")));
    pairs.set(id, pair);
  });

  const declared: Totals347[] = [];
  for (const pair of pairs.values()) {
    const annual = pair.quarters.reduce((acc, q) => acc.plus(q), new Dec(0));
    const cashOver = pair.cash.gt(cashLimit);
    if (!annual.abs().gt(limit) && !cashOver) continue;
    const [q1, q2, q3, q4] = pair.quarters.map(money);
    declared.push({
      contactId: pair.contactId,
      key: pair.key,
      annual: money(annual),
      q1,
      q2,
      q3,
      q4,
      cash: cashOver ? money(pair.cash) : "0.00",
    });
  }
  return declared;
}
