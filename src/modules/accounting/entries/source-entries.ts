import type { AuthedCtx } from "../../../platform/http/context.js";
import { BadRequestError } from "../../../platform/http/errors.js";
import { uuidv7 } from "../../../platform/ids.js";
import { getCompany } from "../../companies/index.js";
import { ensureContactSubaccounts } from "../chart/contact-subaccounts.js";
import {
  accountNamesByCode,
  findParentAccounts,
  findSubaccountsByCodes,
  insertSubaccounts,
  subaccountCodesOfContact,
} from "../chart/repository.js";
import { lockCompany } from "../fiscal-years/repository.js";
import { fiscalYearForEntry } from "../fiscal-years/service.js";
import { insertJournalIfMissing } from "../journals/repository.js";
import type { JournalType } from "../tables.js";
import {
  assertBalanced,
  type EntryDetail,
  insertResolvedEntry,
  type PostInput,
  type ResolvedEntry,
  resolveEntry,
} from "./service.js";

/** A line of an entry a document posts: its subaccount is created (under its account) when missing. */
export interface SourceEntryLine {
  subaccountCode: string;
  /** Name given to the subaccount if it has to be created. */
  subaccountName: string;
  debit?: string;
  credit?: string;
  description?: string;
}

export interface SourceEntryInput {
  companyId: string;
  date: string;
  journal: { code: string; name: string; type: JournalType };
  concept: string;
  source: { type: string; id: string };
  lines: SourceEntryLine[];
}

/** The company's journals for documents, created on first use. */
export const SALES_JOURNAL = { code: "VEN", name: "Ventas", type: "sales" } as const;
export const PURCHASES_JOURNAL = { code: "COM", name: "Compras", type: "purchases" } as const;
export const BANK_JOURNAL = { code: "BAN", name: "Bancos", type: "bank" } as const;

/**
 * A subaccount code of the company's length under `account`, ending with `suffix`
 * (e.g. 477 + 12100 -> 4770012100 with 10 digits).
 */
export function subaccountCode(account: string, suffix: string, length: number): string {
  const padding = length - account.length - suffix.length;
  if (padding < 0) throw new Error(`subaccount ${account}/${suffix} does not fit in ${length} digits`);
  return account + "0".repeat(padding) + suffix;
}

/** Creates the general subaccounts among `lines` that the entry's year lacks, under their accounts. */
async function ensureGeneralSubaccounts(
  ctx: AuthedCtx,
  companyId: string,
  fiscalYearId: string,
  yearCode: string,
  lines: SourceEntryLine[],
) {
  const codes = [...new Set(lines.map((l) => l.subaccountCode))];
  const existing = new Set((await findSubaccountsByCodes(ctx.db, fiscalYearId, codes)).map((s) => s.code));
  const missing = codes.filter((c) => !existing.has(c));
  if (!missing.length) return;
  await lockCompany(ctx.db, "subaccounts", companyId);
  const stillMissing = new Set(missing);
  for (const s of await findSubaccountsByCodes(ctx.db, fiscalYearId, missing)) stillMissing.delete(s.code);
  if (!stillMissing.size) return;
  const parentOf = await findParentAccounts(
    ctx.db,
    [...stillMissing].map((code) => ({ fiscalYearId, code })),
  );
  const nameOf = new Map(lines.map((l) => [l.subaccountCode, l.subaccountName]));
  const planned = [...stillMissing].map((code) => {
    const accountCode = parentOf(fiscalYearId, code);
    if (!accountCode) {
      throw new BadRequestError(
        `No account of fiscal year ${yearCode} starts the subaccount ${code}: check the ledger accounts configured`,
        [{ path: "account_code", message: `no account of the chart starts ${code}` }],
      );
    }
    return { accountCode, code };
  });
  // A subaccount without a name of its own takes its account's (e.g. 7000000000 "Ventas de mercaderías").
  const accountNames = await accountNamesByCode(
    ctx.db,
    fiscalYearId,
    planned.filter((p) => !nameOf.get(p.code)).map((p) => p.accountCode),
  );
  const rows = planned.map(({ accountCode, code }) => ({
    id: uuidv7(),
    companyId,
    fiscalYearId,
    accountCode,
    code,
    name: nameOf.get(code) || accountNames.get(accountCode) || code,
  }));
  await insertSubaccounts(ctx.db, rows);
}

/**
 * Posts the entry of a document (invoice, payment) in the caller's transaction: the fiscal year
 * containing the date, the document journal (created on first use), missing general subaccounts
 * created, the entry linked back to its source.
 */
export async function postSourceEntry(ctx: AuthedCtx, input: SourceEntryInput): Promise<EntryDetail> {
  return postPreparedSourceEntry(ctx, await prepareSourceEntry(ctx, input), input.concept);
}

/** A document's entry checked and resolved (year, subaccounts, journal), waiting for its number. */
export interface PreparedSourceEntry {
  input: PostInput;
  resolved: ResolvedEntry;
}

/**
 * The first half of postSourceEntry: everything but numbering and inserting, so a caller that
 * numbers a document in the same transaction (a hot counter) does this before taking its number.
 */
export async function prepareSourceEntry(
  ctx: AuthedCtx,
  input: Omit<SourceEntryInput, "concept">,
): Promise<PreparedSourceEntry> {
  const total = assertBalanced(input.lines);
  const year = await fiscalYearForEntry(ctx.db, input.companyId, { date: input.date });
  await ensureGeneralSubaccounts(ctx, input.companyId, year.id, year.code, input.lines);
  await insertJournalIfMissing(ctx.db, { companyId: input.companyId, ...input.journal });
  const post: PostInput = {
    companyId: input.companyId,
    fiscalYearCode: year.code,
    journal: input.journal.code,
    date: input.date,
    concept: "",
    total,
    source: input.source,
    lines: input.lines.map((l) => ({
      subaccountCode: l.subaccountCode,
      debit: l.debit,
      credit: l.credit,
      description: l.description,
    })),
  };
  return { input: post, resolved: await resolveEntry(ctx.db, post) };
}

/** The second half: takes the year's next entry number and inserts the entry with its concept. */
export async function postPreparedSourceEntry(
  ctx: AuthedCtx,
  prepared: PreparedSourceEntry,
  concept: string,
): Promise<EntryDetail> {
  return insertResolvedEntry(ctx.db, ctx.actor.userId, { ...prepared.input, concept }, prepared.resolved);
}

/**
 * The subaccount of a customer (430) or supplier (400) in the fiscal year containing `date`,
 * created when the contact has none there yet. Runs in the caller's transaction.
 */
export async function contactSubaccountCode(
  ctx: AuthedCtx,
  contact: { id: string; companyId: string; name: string; contactType: "customer" | "supplier" | "both" },
  account: "430" | "400",
  date: string,
): Promise<string> {
  const year = await fiscalYearForEntry(ctx.db, contact.companyId, { date });
  const find = async () =>
    (await findContactSubaccounts(ctx, year.id, contact.id)).find((s) => s.startsWith(account));
  const found = await find();
  if (found) return found;
  const type = account === "430" ? "customer" : "supplier";
  const contactType =
    contact.contactType === type || contact.contactType === "both" ? contact.contactType : "both";
  await ensureContactSubaccounts(ctx, { ...contact, contactType });
  const created = await find();
  if (!created) throw new Error(`no ${account} subaccount for contact ${contact.id} in ${year.code}`);
  return created;
}

async function findContactSubaccounts(ctx: AuthedCtx, fiscalYearId: string, contactId: string) {
  return subaccountCodesOfContact(ctx.db, fiscalYearId, contactId);
}

/** The company's subaccount length (digits of every subaccount code). */
export async function subaccountLengthOf(ctx: AuthedCtx, companyId: string): Promise<number> {
  return (await getCompany(ctx, companyId)).subaccountLength;
}
