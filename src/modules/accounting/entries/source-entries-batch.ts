import { inTransaction } from "../../../platform/db/sql.js";
import type { AuthedCtx } from "../../../platform/http/context.js";
import { AppError, ConflictError } from "../../../platform/http/errors.js";
import { uuidv7 } from "../../../platform/ids.js";
import { toMoney } from "../../../platform/money.js";
import { subaccountCodesOfContacts } from "../chart/repository.js";
import type { FiscalYearRow } from "../fiscal-years/repository.js";
import { takeEntryNumbers } from "../fiscal-years/repository.js";
import { fiscalYearForEntry } from "../fiscal-years/service.js";
import { runEntryPostingHooks } from "./hooks.js";
import * as repo from "./repository.js";
import { assertBalanced } from "./service.js";
import {
  contactSubaccountCode,
  postSourceEntry,
  prepareSourceEntry,
  type SourceEntryInput,
} from "./source-entries.js";

/** What happened to one entry of a batch: posted, or refused for a reason of the ledger (4xx). */
export type SourceEntryOutcome = { entryId: string } | { error: AppError };

/** Business refusals (4xx) are the outcome of the items they concern; anything else aborts. */
function refusal(err: unknown): AppError {
  if (err instanceof AppError && err.status < 500) return err;
  throw err;
}

/**
 * Runs `work` once per distinct key, remembering its value or its refusal. Loops over a batch look
 * the key up first (`cache.get(key) ?? await once(...)`): an await per item of 100,000 costs more
 * than the lookup.
 */
async function once<T>(cache: Map<string, T | AppError>, key: string, work: () => Promise<T>) {
  if (!cache.has(key)) {
    try {
      cache.set(key, await work());
    } catch (err) {
      cache.set(key, refusal(err));
    }
  }
  return cache.get(key)!;
}

/**
 * postSourceEntry for many entries in the caller's transaction, with the same rules and the same
 * refusals, set-based: each fiscal year, journal, posting hook and group of subaccounts is resolved
 * once (not per entry), each year's numbers are taken in one UPDATE (in input order), and entries
 * and lines go in multi-row INSERTs. An entry refused by the ledger (no open year for its date, a
 * posting hook, an inactive subaccount) is reported as its outcome; the others are posted.
 */
export async function postSourceEntries(
  ctx: AuthedCtx,
  inputs: SourceEntryInput[],
): Promise<SourceEntryOutcome[]> {
  const outcomes: Array<SourceEntryOutcome | undefined> = inputs.map(() => undefined);
  const years = new Map<string, FiscalYearRow | AppError>();
  const hooks = new Map<string, true | AppError>();
  const ready: Array<{ i: number; year: FiscalYearRow; total: string }> = [];
  for (const [i, input] of inputs.entries()) {
    let total: string;
    try {
      total = toMoney(assertBalanced(input.lines));
    } catch (err) {
      outcomes[i] = { error: refusal(err) };
      continue;
    }
    const yearKey = `${input.companyId}|${input.date}`;
    const year =
      years.get(yearKey) ??
      (await once(years, yearKey, () => fiscalYearForEntry(ctx.db, input.companyId, { date: input.date })));
    if (year instanceof AppError) {
      outcomes[i] = { error: year };
      continue;
    }
    const hookKey = `${input.companyId}|${input.date}|${input.source.type}`;
    const hook =
      hooks.get(hookKey) ??
      (await once(hooks, hookKey, async () => {
        await runEntryPostingHooks(ctx.db, {
          companyId: input.companyId,
          date: input.date,
          sourceType: input.source.type,
        });
        return true as const;
      }));
    if (hook instanceof AppError) {
      outcomes[i] = { error: hook };
      continue;
    }
    ready.push({ i, year, total });
  }

  // Per company, year and journal: the union of the lines resolved as one entry would be (the
  // missing general subaccounts created, the journal created on first use, every code active).
  const groups = new Map<string, typeof ready>();
  for (const item of ready) {
    const input = inputs[item.i]!;
    const key = `${input.companyId}|${item.year.id}|${input.journal.code}`;
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  const entryRows: repo.EntryInsert[] = [];
  const lineRows: repo.EntryLineInsert[] = [];
  const oneByOne: number[] = [];
  for (const items of groups.values()) {
    const first = inputs[items[0]!.i]!;
    const year = items[0]!.year;
    const names = new Map<string, string>();
    for (const { i } of items)
      for (const l of inputs[i]!.lines) names.set(l.subaccountCode, l.subaccountName);
    let resolved: Awaited<ReturnType<typeof prepareSourceEntry>>["resolved"];
    try {
      // One pseudo-entry touching every subaccount of the group, each once on each side: resolved
      // as a single entry would be, but never inserted.
      ({ resolved } = await inTransaction(ctx.db, async (sp) =>
        prepareSourceEntry(
          { ...ctx, db: sp },
          {
            companyId: first.companyId,
            date: first.date,
            journal: first.journal,
            source: first.source,
            lines: [...names].flatMap(([code, name]) => [
              { subaccountCode: code, subaccountName: name, debit: "1.00" },
              { subaccountCode: code, subaccountName: name, credit: "1.00" },
            ]),
          },
        ),
      ));
    } catch (err) {
      refusal(err);
      // Some subaccount of the group is refused: each entry takes the single path and its own verdict.
      oneByOne.push(...items.map(({ i }) => i));
      continue;
    }
    const firstNumber = await takeEntryNumbers(ctx.db, year.id, items.length);
    if (firstNumber === undefined) {
      const error = new ConflictError(`Fiscal year ${year.code} is closed`);
      for (const { i } of items) outcomes[i] = { error };
      continue;
    }
    items.forEach(({ i, total }, n) => {
      const input = inputs[i]!;
      const entryId = uuidv7();
      entryRows.push({
        id: entryId,
        companyId: input.companyId,
        fiscalYearId: year.id,
        journalId: resolved.journal.id,
        number: firstNumber + n,
        date: input.date,
        concept: input.concept,
        total,
        reversalOf: null,
        sourceType: input.source.type,
        sourceId: input.source.id,
        createdBy: ctx.actor.userId,
      });
      for (const [lineNo, l] of input.lines.entries())
        lineRows.push({
          id: uuidv7(),
          companyId: input.companyId,
          fiscalYearId: year.id,
          entryId,
          entryDate: input.date,
          entryNumber: firstNumber + n,
          lineNo: lineNo + 1,
          subaccountId: resolved.found.get(l.subaccountCode)!.id,
          debit: toMoney(l.debit ?? 0),
          credit: toMoney(l.credit ?? 0),
          description: l.description ?? "",
        });
      outcomes[i] = { entryId };
    });
  }
  await repo.insertEntriesWithLines(ctx.db, entryRows, lineRows);
  for (const i of oneByOne) {
    try {
      const entry = await inTransaction(ctx.db, (sp) => postSourceEntry({ ...ctx, db: sp }, inputs[i]!));
      outcomes[i] = { entryId: entry.id };
    } catch (err) {
      outcomes[i] = { error: refusal(err) };
    }
  }
  return outcomes.map((o) => {
    if (!o) throw new Error("postSourceEntries left an entry without an outcome");
    return o;
  });
}

export interface ContactSubaccountRequest {
  contact: { id: string; companyId: string; name: string; contactType: "customer" | "supplier" | "both" };
  account: "430" | "400";
  date: string;
}

/**
 * contactSubaccountCode for many contacts: one query per fiscal year finds the subaccounts the
 * contacts have; only a contact without one under that account is created on its own (as the
 * single path does). Answers in input order: the code, or the ledger's refusal.
 */
export async function contactSubaccountCodes(
  ctx: AuthedCtx,
  requests: ContactSubaccountRequest[],
): Promise<Array<string | AppError>> {
  const years = new Map<string, FiscalYearRow | AppError>();
  const yearOf: Array<FiscalYearRow | AppError> = [];
  for (const r of requests) {
    const key = `${r.contact.companyId}|${r.date}`;
    yearOf.push(
      years.get(key) ??
        (await once(years, key, () => fiscalYearForEntry(ctx.db, r.contact.companyId, { date: r.date }))),
    );
  }
  const contactsByYear = new Map<string, Set<string>>();
  for (const [n, r] of requests.entries()) {
    const year = yearOf[n]!;
    if (year instanceof AppError) continue;
    contactsByYear.set(year.id, (contactsByYear.get(year.id) ?? new Set()).add(r.contact.id));
  }
  const codes = new Map<string, string[]>();
  for (const [yearId, contactIds] of contactsByYear)
    for (const row of await subaccountCodesOfContacts(ctx.db, yearId, [...contactIds]))
      codes.set(`${yearId}|${row.contactId}`, [...(codes.get(`${yearId}|${row.contactId}`) ?? []), row.code]); // few per contact
  const created = new Map<string, string | AppError>();
  const out: Array<string | AppError> = [];
  for (const [n, r] of requests.entries()) {
    const year = yearOf[n]!;
    if (year instanceof AppError) {
      out.push(year);
      continue;
    }
    const found = codes.get(`${year.id}|${r.contact.id}`)?.find((c) => c.startsWith(r.account));
    out.push(
      found ??
        (await once(created, `${year.id}|${r.contact.id}|${r.account}`, () =>
          contactSubaccountCode(ctx, r.contact, r.account, r.date),
        )),
    );
  }
  return out;
}
