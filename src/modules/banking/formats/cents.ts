/** Amounts in the parsers: integer cents as bigint (exact, and fast over 100,000 movements). */

export function centsToMoney(cents: bigint): string {
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  const units = abs / 100n;
  const rest = (abs % 100n).toString().padStart(2, "0");
  return `${negative ? "-" : ""}${units}.${rest}`;
}

/** "1234.5" / "-0.01" -> cents; null when it is not a plain decimal with at most 2 decimals. */
export function moneyToCents(text: string): bigint | null {
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!m) return null;
  const cents = BigInt(m[2]!) * 100n + BigInt((m[3] ?? "").padEnd(2, "0") || "0");
  return m[1] ? -cents : cents;
}
