import type { Db } from "../../../platform/db/client.js";

/**
 * Extension point of the ledger for modules that build on it without the ledger importing them:
 * tax refuses postings dated inside a confirmed VAT period.
 */

/** An entry about to be posted (after validation, before it takes its number). */
export interface EntryPosting {
  companyId: string;
  date: string;
  /** The document the entry posts (sales_invoice, payment, tax_return...), null for manual entries. */
  sourceType: string | null;
}

/** Runs inside the transaction that posts the entry: if it throws, nothing is posted. */
export type EntryPostingHook = (tx: Db, entry: EntryPosting) => Promise<void>;

const postingHooks = new Set<EntryPostingHook>();

export function onEntryPosting(fn: EntryPostingHook): void {
  postingHooks.add(fn);
}

export async function runEntryPostingHooks(tx: Db, entry: EntryPosting): Promise<void> {
  for (const hook of postingHooks) await hook(tx, entry);
}
