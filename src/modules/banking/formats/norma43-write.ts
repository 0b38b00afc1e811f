import { centsToMoney, moneyToCents } from "./cents.js";

/**
 * Writes a Norma 43 file (records 11, 22, 23, 33, 88; latin-1, CRLF) with consistent totals: the
 * demo's bank statement and the benchmarks' files. The reader (norma43.ts) reads it back exactly.
 */

export interface Norma43MovementInput {
  operationDate: string;
  valueDate?: string;
  /** Signed, 2 decimals: positive = credit (money in). */
  amount: string;
  commonConcept?: string;
  ownConcept?: string;
  document?: string;
  reference1?: string;
  reference2?: string;
  /** Up to 10 texts of at most 38 characters (two per record 23, five records). */
  concepts?: string[];
}

export interface Norma43StatementInput {
  bank: string;
  office: string;
  account: string;
  dateFrom: string;
  dateTo: string;
  openingBalance: string;
  name?: string;
  movements: Norma43MovementInput[];
}

/** Record 33 counts debits and credits in 5 digits each. */
const MAX_MOVEMENTS = 99_999;

const yymmdd = (iso: string) => iso.slice(2, 4) + iso.slice(5, 7) + iso.slice(8, 10);
const num = (value: bigint | number | string, width: number) =>
  String(value).padStart(width, "0").slice(-width);
const alpha = (value: string, width: number) => value.slice(0, width).padEnd(width, " ");

function cents(amount: string): bigint {
  const c = moneyToCents(amount);
  if (c === null) throw new Error(`Not an amount with 2 decimals: ${amount}`);
  return c;
}

export function writeNorma43(statements: Norma43StatementInput[]): Buffer {
  const out: string[] = [];
  for (const s of statements) {
    if (s.movements.length > MAX_MOVEMENTS)
      throw new Error(
        `A Norma 43 account block holds at most ${MAX_MOVEMENTS} movements (record 33 counts in 5 digits): split the statement`,
      );
    const key = num(s.bank, 4) + num(s.office, 4) + num(s.account, 10);
    const opening = cents(s.openingBalance);
    out.push(
      "11" +
        key +
        yymmdd(s.dateFrom) +
        yymmdd(s.dateTo) +
        (opening < 0n ? "1" : "2") +
        num(opening < 0n ? -opening : opening, 14) +
        "978" +
        "3" +
        alpha(s.name ?? "", 26) +
        "   ",
    );
    let debits = 0n;
    let credits = 0n;
    let debitCount = 0;
    let creditCount = 0;
    for (const m of s.movements) {
      const c = cents(m.amount);
      const abs = c < 0n ? -c : c;
      if (c < 0n) {
        debits += abs;
        debitCount++;
      } else {
        credits += abs;
        creditCount++;
      }
      out.push(
        "22" +
          "    " +
          num(s.office, 4) +
          yymmdd(m.operationDate) +
          yymmdd(m.valueDate ?? m.operationDate) +
          num(m.commonConcept ?? "99", 2) +
          alpha(m.ownConcept ?? "000", 3) +
          (c < 0n ? "1" : "2") +
          num(abs, 14) +
          alpha(m.document ?? "0000000000", 10) +
          alpha(m.reference1 ?? "", 12) +
          alpha(m.reference2 ?? "", 16),
      );
      const texts = m.concepts ?? [];
      for (let i = 0; i < texts.length && i < 10; i += 2) {
        out.push(`23${num(i / 2 + 1, 2)}${alpha(texts[i] ?? "", 38)}${alpha(texts[i + 1] ?? "", 38)}`);
      }
    }
    const final = opening + credits - debits;
    out.push(
      "33" +
        key +
        num(debitCount, 5) +
        num(debits, 14) +
        num(creditCount, 5) +
        num(credits, 14) +
        (final < 0n ? "1" : "2") +
        num(final < 0n ? -final : final, 14) +
        "978" +
        "    ",
    );
  }
  out.push(`88${"9".repeat(18)}${num(out.length, 6)}${" ".repeat(54)}`);
  return Buffer.from(`${out.join("\r\n")}\r\n`, "latin1");
}

/** The closing balance a statement written by writeNorma43 declares. */
export function closingBalanceOf(s: Norma43StatementInput): string {
  return centsToMoney(s.movements.reduce((acc, m) => acc + cents(m.amount), cents(s.openingBalance)));
}
