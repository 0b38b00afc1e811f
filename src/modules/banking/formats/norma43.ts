import { centsToMoney } from "./cents.js";
import { decodeStatement, StatementFormatError } from "./format-error.js";
import type { ParsedFile, ParsedMovement, ParsedStatement } from "./types.js";

/**
 * Norma 43 (AEB/CSB 43) reader, exactly to the layout in ../shared/design/documents.md: records 11
 * (account header), 22 (movement), 23 (up to 5 extra concepts), 24 (currency equivalence), 33
 * (account end) and 88 (file end), 80 characters each (shorter lines padded), dates YYMMDD, amounts
 * 14 digits with 2 implied decimals. Every check fails the whole file with the line that breaks it:
 * record 33's counts and totals against the movements, opening + credits - debits = final, and
 * record 88's count of the records before it (+-1: some banks count the 88 itself).
 */

const RECORD_LENGTH = 80;
const MAX_EXTRA_CONCEPTS = 5;

/** ISO 4217 numeric codes seen in Spanish statements; others are kept as their number. */
const CURRENCIES: Record<string, string> = {
  "978": "EUR",
  "840": "USD",
  "826": "GBP",
  "756": "CHF",
  "392": "JPY",
};

/** 1-based inclusive field, as the layout gives it. */
const field = (record: string, from: number, to: number) => record.slice(from - 1, to);

function fail(line: number, problem: string): never {
  throw new StatementFormatError(`line ${line}`, problem);
}

function digits(record: string, from: number, to: number, line: number, what: string): string {
  const value = field(record, from, to);
  if (!/^\d+$/.test(value)) fail(line, `${what} (positions ${from}-${to}) must be digits, found "${value}"`);
  return value;
}

function amountCents(record: string, from: number, to: number, line: number, what: string): bigint {
  return BigInt(digits(record, from, to, line, what));
}

function count(record: string, from: number, to: number, line: number, what: string): number {
  return Number(digits(record, from, to, line, what));
}

/** Dates already checked (a statement repeats a few dozen days): YYMMDD -> YYYY-MM-DD. */
const checkedDates = new Map<string, string>();
const MAX_CHECKED_DATES = 10_000;

/** YYMMDD -> YYYY-MM-DD (years 00-79 are 20xx, 80-99 are 19xx); an impossible date fails. */
function date(record: string, from: number, line: number, what: string): string {
  const raw = digits(record, from, from + 5, line, what);
  const known = checkedDates.get(raw);
  if (known) return known;
  const yy = Number(raw.slice(0, 2));
  const iso = `${yy < 80 ? 2000 + yy : 1900 + yy}-${raw.slice(2, 4)}-${raw.slice(4, 6)}`;
  const parsed = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== iso)
    fail(line, `${what} (positions ${from}-${from + 5}) is not a date: "${raw}"`);
  if (checkedDates.size >= MAX_CHECKED_DATES) checkedDates.clear();
  checkedDates.set(raw, iso);
  return iso;
}

/** D/H digit: 1 debit, 2 credit. Final balances also come as 0 (read as credit). */
function sign(record: string, at: number, line: number, what: string, allowZero = false): 1n | -1n {
  const d = field(record, at, at);
  if (d === "1") return -1n;
  if (d === "2" || (allowZero && d === "0")) return 1n;
  return fail(line, `${what} (position ${at}) must be 1 (debit) or 2 (credit), found "${d}"`);
}

function currencyOf(code: string): string {
  return CURRENCIES[code] ?? code;
}

interface OpenStatement {
  statement: ParsedStatement;
  line: number;
  accountKey: string;
  opening: bigint;
  debits: bigint;
  credits: bigint;
  debitCount: number;
  creditCount: number;
}

export function parseNorma43(bytes: Uint8Array): ParsedFile {
  const text = decodeStatement(bytes);
  const lines = text.split(/\r\n|\n|\r/);
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === "") lines.pop();
  if (lines.length === 0) throw new StatementFormatError("line 1", "the file is empty");

  const statements: ParsedStatement[] = [];
  let open: OpenStatement | null = null;
  let movement: ParsedMovement | null = null;
  let extraConcepts = 0;
  let records = 0;
  let ended = false;

  for (let i = 0; i < lines.length; i++) {
    const line = i + 1;
    const raw = lines[i]!;
    if (raw.trim() === "") fail(line, "empty line inside the file");
    if (raw.length > RECORD_LENGTH)
      fail(line, `a record has ${RECORD_LENGTH} characters, this one has ${raw.length}`);
    if (ended) fail(line, "nothing may follow the file end record 88");
    const record = raw.padEnd(RECORD_LENGTH, " ");
    const code = record.slice(0, 2);

    switch (code) {
      case "11": {
        if (open)
          fail(line, `record 11 opens an account while the one of line ${open.line} has no record 33`);
        const bank = digits(record, 3, 6, line, "bank");
        const office = digits(record, 7, 10, line, "office");
        const account = digits(record, 11, 20, line, "account");
        const opening =
          sign(record, 33, line, "opening balance sign", true) *
          amountCents(record, 34, 47, line, "opening balance");
        open = {
          line,
          accountKey: bank + office + account,
          opening,
          debits: 0n,
          credits: 0n,
          debitCount: 0,
          creditCount: 0,
          statement: {
            position: `line ${line}`,
            account: bank + office + account,
            accountName: field(record, 52, 77).trim(),
            currency: currencyOf(digits(record, 48, 50, line, "currency")),
            dateFrom: date(record, 21, line, "start date"),
            dateTo: date(record, 27, line, "end date"),
            openingBalance: centsToMoney(opening),
            closingBalance: "0.00",
            debitCount: 0,
            debitTotal: "0.00",
            creditCount: 0,
            creditTotal: "0.00",
            movements: [],
          },
        };
        movement = null;
        break;
      }
      case "22": {
        if (!open) fail(line, "movement record 22 outside an account (no record 11 before it)");
        const direction = sign(record, 28, line, "debit/credit mark");
        const cents = amountCents(record, 29, 42, line, "amount");
        if (direction < 0n) {
          open.debits += cents;
          open.debitCount++;
        } else {
          open.credits += cents;
          open.creditCount++;
        }
        movement = {
          position: `line ${line}`,
          operationDate: date(record, 11, line, "operation date"),
          valueDate: date(record, 17, line, "value date"),
          commonConcept: digits(record, 23, 24, line, "common concept"),
          ownConcept: field(record, 25, 27).trim(),
          amount: centsToMoney(direction * cents),
          document: field(record, 43, 52).trim(),
          reference1: field(record, 53, 64).trim(),
          reference2: field(record, 65, 80).trim(),
          concepts: [],
          foreignCurrency: null,
          foreignAmount: null,
        };
        open.statement.movements.push(movement);
        extraConcepts = 0;
        break;
      }
      case "23": {
        if (!movement) fail(line, "extra concepts record 23 without a movement record 22 before it");
        if (++extraConcepts > MAX_EXTRA_CONCEPTS)
          fail(line, `a movement has at most ${MAX_EXTRA_CONCEPTS} extra concept records 23`);
        digits(record, 3, 4, line, "data code");
        for (const text of [field(record, 5, 42).trim(), field(record, 43, 80).trim()])
          if (text) movement.concepts.push(text);
        break;
      }
      case "24": {
        if (!movement) fail(line, "currency record 24 without a movement record 22 before it");
        digits(record, 3, 4, line, "data code");
        movement.foreignCurrency = currencyOf(digits(record, 5, 7, line, "currency"));
        movement.foreignAmount = centsToMoney(amountCents(record, 8, 21, line, "amount"));
        break;
      }
      case "33": {
        if (!open) fail(line, "account end record 33 without a record 11 before it");
        const key = field(record, 3, 20);
        if (key !== open.accountKey)
          fail(
            line,
            `record 33 closes account ${key.trim()} but line ${open.line} opened ${open.accountKey}`,
          );
        const debitCount = count(record, 21, 25, line, "debits count");
        const debitTotal = amountCents(record, 26, 39, line, "debits total");
        const creditCount = count(record, 40, 44, line, "credits count");
        const creditTotal = amountCents(record, 45, 58, line, "credits total");
        const final =
          sign(record, 59, line, "final balance sign", true) *
          amountCents(record, 60, 73, line, "final balance");
        const s = open.statement;
        if (debitCount !== open.debitCount)
          fail(line, `record 33 counts ${debitCount} debits, the account has ${open.debitCount}`);
        if (creditCount !== open.creditCount)
          fail(line, `record 33 counts ${creditCount} credits, the account has ${open.creditCount}`);
        if (debitTotal !== open.debits)
          fail(
            line,
            `record 33 totals debits ${centsToMoney(debitTotal)}, the movements add up to ${centsToMoney(open.debits)}`,
          );
        if (creditTotal !== open.credits)
          fail(
            line,
            `record 33 totals credits ${centsToMoney(creditTotal)}, the movements add up to ${centsToMoney(open.credits)}`,
          );
        const expected = open.opening + open.credits - open.debits;
        if (final !== expected)
          fail(
            line,
            `final balance ${centsToMoney(final)} is not opening ${centsToMoney(open.opening)} + credits ` +
              `${centsToMoney(open.credits)} - debits ${centsToMoney(open.debits)} = ${centsToMoney(expected)}`,
          );
        s.closingBalance = centsToMoney(final);
        s.debitCount = debitCount;
        s.debitTotal = centsToMoney(debitTotal);
        s.creditCount = creditCount;
        s.creditTotal = centsToMoney(creditTotal);
        statements.push(s);
        open = null;
        movement = null;
        break;
      }
      case "88": {
        if (open) fail(line, `file end record 88 while the account of line ${open.line} has no record 33`);
        if (statements.length === 0) fail(line, "file end record 88 without any account (records 11..33)");
        if (field(record, 3, 20) !== "9".repeat(18))
          fail(line, "record 88 must carry eighteen 9s in positions 3-20");
        const declared = count(record, 21, 26, line, "record count");
        if (Math.abs(declared - records) > 1)
          fail(line, `record 88 counts ${declared} records, the file has ${records} before it`);
        ended = true;
        break;
      }
      default:
        fail(line, `unknown record code "${code}" (expected 11, 22, 23, 24, 33 or 88)`);
    }
    records++;
  }
  if (open) fail(lines.length, `the account opened at line ${open.line} has no end record 33`);
  if (!ended) fail(lines.length, "the file has no end record 88");
  return { format: "norma43", statements };
}
