/**
 * The general ledger's service surface: what routes, the MCP server and other modules (contacts,
 * sales, purchases) call. Other modules use this file only, never the repositories or tables.
 */
export { getAccountBalance, getBalances, getTrialBalance } from "./balances/service.js";
export { ensureContactSubaccounts, type LedgerContact } from "./chart/contact-subaccounts.js";
export { createSubaccount, getSubaccount, listAccounts, listSubaccounts } from "./chart/service.js";
export {
  assertBalanced,
  createEntry,
  type EntryDetail,
  type EntryInput,
  type EntryLineInput,
  getEntry,
  listEntries,
  listEntriesWithLines,
  reverseEntry,
} from "./entries/service.js";
export {
  BANK_JOURNAL,
  contactSubaccountCode,
  PURCHASES_JOURNAL,
  postSourceEntry,
  SALES_JOURNAL,
  type SourceEntryInput,
  type SourceEntryLine,
  subaccountCode,
  subaccountLengthOf,
} from "./entries/source-entries.js";
export {
  createFiscalYear,
  getFiscalYear,
  getFiscalYearByCode,
  listFiscalYears,
  setFiscalYearState,
} from "./fiscal-years/service.js";
export { createJournal, DEFAULT_JOURNAL, getJournal, listJournals } from "./journals/service.js";
