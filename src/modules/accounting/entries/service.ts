import { assertCompanyVisible } from "../../../platform/auth/company-scope.js";
import type { Db } from "../../../platform/db/client.js";
import { inTransaction, violatedConstraint } from "../../../platform/db/sql.js";
import type { AuthedCtx } from "../../../platform/http/context.js";
import { BadRequestError, ConflictError, type FieldError } from "../../../platform/http/errors.js";
import { uuidv7 } from "../../../platform/ids.js";
import { Dec, dec, sum, toMoney } from "../../../platform/money.js";
import { resolveCompanyForWrite } from "../../companies/index.js";
import { findSubaccountsByCodes } from "../chart/repository.js";
import { takeNextEntryNumber } from "../fiscal-years/repository.js";
import { fiscalYearForEntry, ledgerListCompany } from "../fiscal-years/service.js";
import { journalForEntry } from "../journals/service.js";
import { runEntryPostingHooks } from "./hooks.js";
import type { EntryLineView, EntryView } from "./repository.js";
import * as repo from "./repository.js";

export interface EntryLineInput {
  subaccountCode: string;
  debit?: string;
  credit?: string;
  description?: string;
}

export interface EntryInput {
  companyId?: string;
  fiscalYearCode?: string;
  /** Journal code; the default general journal when absent. */
  journal?: string;
  date: string;
  concept: string;
  lines: EntryLineInput[];
}

export type EntryDetail = EntryView & { lines: EntryLineView[] };

const positive = (amount: Dec) => amount.greaterThan(0);

/** A line amount (absent = 0); NaN for text that is not a number, so the checks below refuse it. */
function amountOf(value: string | undefined): Dec {
  try {
    return dec(value);
  } catch {
    return new Dec(Number.NaN);
  }
}

/**
 * The rules every entry obeys, whoever calls: two lines at least, each with exactly one positive
 * amount of 2 decimals at most, debits equal to credits. Returns the total.
 */
export function assertBalanced(lines: EntryLineInput[]): Dec {
  if (lines.length < 2) {
    throw new BadRequestError("An entry has at least two lines", [
      { path: "lines", message: "needs at least two lines" },
    ]);
  }
  const errors: FieldError[] = [];
  const amounts = lines.map((line, i) => {
    const debit = amountOf(line.debit);
    const credit = amountOf(line.credit);
    const wellFormed = [debit, credit].every(
      (a) => a.isFinite() && !a.isNegative() && a.decimalPlaces() <= 2,
    );
    if (!wellFormed || positive(debit) === positive(credit)) {
      errors.push({
        path: `lines.${i}`,
        message: "exactly one of debit and credit must be a positive amount with 2 decimals at most",
      });
    }
    return { debit, credit };
  });
  if (errors.length) throw new BadRequestError("Some lines are not valid", errors);
  const debits = sum(amounts.map((a) => a.debit));
  const credits = sum(amounts.map((a) => a.credit));
  if (!debits.equals(credits)) {
    throw new BadRequestError(
      `The entry does not balance: debits ${toMoney(debits)} != credits ${toMoney(credits)} ` +
        `(difference ${toMoney(debits.minus(credits).abs())})`,
      [{ path: "lines", message: "the sum of debits must equal the sum of credits" }],
    );
  }
  return debits;
}

export interface PostInput extends EntryInput {
  companyId: string;
  total: Dec;
  reversalOf?: string;
  /** The document the entry posts (sales_invoice, purchase_invoice, payment...). */
  source?: { type: string; id: string };
}

/** Posts a validated entry inside the caller's transaction, taking the year's next number last. */
export async function postEntry(tx: Db, createdBy: string, input: PostInput): Promise<EntryDetail> {
  return insertResolvedEntry(tx, createdBy, input, await resolveEntry(tx, input));
}

/** What an entry needs from the ledger before it is numbered: its year, subaccounts and journal. */
export type ResolvedEntry = Awaited<ReturnType<typeof resolveEntry>>;

/**
 * Checks and looks up everything an entry refers to, without numbering it: a caller holding a
 * hot lock (an invoice counter) resolves first, then numbers and inserts in few round trips.
 */
export async function resolveEntry(tx: Db, input: Omit<PostInput, "concept" | "total">) {
  const year = await fiscalYearForEntry(tx, input.companyId, {
    code: input.fiscalYearCode,
    date: input.date,
  });
  const codes = [...new Set(input.lines.map((l) => l.subaccountCode))];
  const found = new Map((await findSubaccountsByCodes(tx, year.id, codes)).map((s) => [s.code, s]));
  const unusable = input.lines.flatMap((l, i) =>
    found.get(l.subaccountCode)?.isActive
      ? []
      : [{ path: `lines.${i}.subaccount_code`, code: l.subaccountCode }],
  );
  if (unusable.length) {
    throw new BadRequestError(
      `Unknown or inactive subaccount in fiscal year ${year.code}: ${[...new Set(unusable.map((u) => u.code))].join(", ")}`,
      unusable.map((u) => ({
        path: u.path,
        message: "no active subaccount of the fiscal year has this code",
      })),
    );
  }
  const subaccountById = new Map([...found.values()].map((s) => [s.id, s]));
  const journal = await journalForEntry(tx, input.companyId, input.journal);
  await runEntryPostingHooks(tx, {
    companyId: input.companyId,
    date: input.date,
    sourceType: input.source?.type ?? null,
  });
  return { year, found, subaccountById, journal };
}

/** Numbers and inserts a resolved entry (the year's counter is locked from here to commit). */
export async function insertResolvedEntry(
  tx: Db,
  createdBy: string,
  input: PostInput,
  { year, found, subaccountById, journal }: ResolvedEntry,
): Promise<EntryDetail> {
  const number = await takeNextEntryNumber(tx, year.id);
  if (number === undefined) throw new ConflictError(`Fiscal year ${year.code} is closed`);
  const entry = await repo.insertEntry(tx, {
    id: uuidv7(),
    companyId: input.companyId,
    fiscalYearId: year.id,
    journalId: journal.id,
    number,
    date: input.date,
    concept: input.concept,
    total: toMoney(input.total),
    reversalOf: input.reversalOf ?? null,
    sourceType: input.source?.type ?? null,
    sourceId: input.source?.id ?? null,
    createdBy,
  });
  const lines = await repo.insertEntryLines(
    tx,
    input.lines.map((l, i) => ({
      id: uuidv7(),
      companyId: input.companyId,
      fiscalYearId: year.id,
      entryId: entry.id,
      entryDate: entry.date,
      entryNumber: entry.number,
      lineNo: i + 1,
      subaccountId: found.get(l.subaccountCode)!.id,
      debit: toMoney(dec(l.debit)),
      credit: toMoney(dec(l.credit)),
      description: l.description ?? "",
    })),
  );
  return {
    ...entry,
    fiscalYearCode: year.code,
    journalCode: journal.code,
    reversedBy: null,
    lines: lines
      .sort((a, b) => a.lineNo - b.lineNo)
      .map((l) => {
        const subaccount = subaccountById.get(l.subaccountId)!;
        return { ...l, subaccountCode: subaccount.code, subaccountName: subaccount.name };
      }),
  };
}

export async function createEntry(ctx: AuthedCtx, input: EntryInput): Promise<EntryDetail> {
  const total = assertBalanced(input.lines);
  const companyId = await resolveCompanyForWrite(ctx, input.companyId);
  return inTransaction(ctx.db, (tx) => postEntry(tx, ctx.actor.userId, { ...input, companyId, total }));
}

export async function getEntry(ctx: AuthedCtx, id: string): Promise<EntryDetail> {
  const entry = assertCompanyVisible(ctx.actor, await repo.findEntry(ctx.db, id), "Entry");
  return { ...entry, lines: await repo.findEntryLines(ctx.db, id) };
}

export interface EntryListFilters {
  companyId?: string;
  fiscalYearCode?: string;
  journal?: string;
  dateFrom?: string;
  dateTo?: string;
  subaccountCode?: string;
  search?: string;
  sort?: "newest" | "number";
  limit: number;
  offset: number;
  /** Keyset cursor: the id of the last entry of the previous page. */
  after?: string;
}

/** Journal entries without their lines (REST and MCP). */
export async function listEntries(ctx: AuthedCtx, f: EntryListFilters) {
  const page = await repo.listEntries(ctx.db, {
    companyId: await ledgerListCompany(ctx, f),
    fiscalYearCode: f.fiscalYearCode,
    journalCode: f.journal,
    dateFrom: f.dateFrom,
    dateTo: f.dateTo,
    subaccountCode: f.subaccountCode,
    search: f.search,
    sort: f.sort ?? "newest",
    limit: f.limit,
    offset: f.offset,
    after: f.after,
  });
  if (!page)
    throw new BadRequestError("after: no entry of this list has that id", [
      { path: "after", message: "must be the id of an entry matching the same filters" },
    ]);
  return page;
}

/** The same page with every entry's lines, loaded in one more query (MCP). */
export async function listEntriesWithLines(ctx: AuthedCtx, f: EntryListFilters) {
  const { rows, total } = await listEntries(ctx, f);
  const lines = await repo.findLinesOfEntries(
    ctx.db,
    rows.map((r) => r.id),
  );
  const byEntry = new Map<string, EntryLineView[]>();
  for (const line of lines) {
    const ofEntry = byEntry.get(line.entryId);
    if (ofEntry) ofEntry.push(line);
    else byEntry.set(line.entryId, [line]);
  }
  return { rows: rows.map((r) => ({ ...r, lines: byEntry.get(r.id) ?? [] })), total };
}

/**
 * Posts the counter-entry of a posted entry (debits and credits swapped), numbered in its own year
 * and linked through reversal_of. An entry is reversed once at most.
 */
export async function reverseEntry(ctx: AuthedCtx, id: string, input: { date?: string; concept?: string }) {
  const original = await getEntry(ctx, id);
  const alreadyReversed = () =>
    new ConflictError(
      `Entry ${original.number} of fiscal year ${original.fiscalYearCode} is already reversed`,
    );
  if (original.reversedBy) throw alreadyReversed();
  const concept =
    input.concept ??
    `Reversal of entry ${original.number}/${original.fiscalYearCode}: ${original.concept}`.slice(0, 500);
  try {
    return await inTransaction(ctx.db, (tx) =>
      postEntry(tx, ctx.actor.userId, {
        companyId: original.companyId,
        fiscalYearCode: input.date ? undefined : original.fiscalYearCode,
        journal: original.journalCode,
        date: input.date ?? original.date,
        concept,
        total: new Dec(original.total),
        reversalOf: original.id,
        lines: original.lines.map((l) => ({
          subaccountCode: l.subaccountCode,
          debit: positive(dec(l.credit)) ? l.credit : undefined,
          credit: positive(dec(l.debit)) ? l.debit : undefined,
          description: l.description,
        })),
      }),
    );
  } catch (err) {
    if (violatedConstraint(err) === "entries_reversal_of_key") throw alreadyReversed();
    throw err;
  }
}
