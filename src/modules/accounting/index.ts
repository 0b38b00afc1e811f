/**
 * The general ledger's entry point: the only file other modules, the CLI, MCP and the app import.
 * Contacts (and later sales, purchases, treasury) post through these services.
 */
export { accountBalanceOut, toAccountBalanceOut } from "./balances/schemas.js";
export { getAccountBalance, getBalances, getTrialBalance } from "./balances/service.js";
export { ensureContactSubaccounts, type LedgerContact } from "./chart/contact-subaccounts.js";
export { accountOut, toAccountOut } from "./chart/schemas.js";
export { createSubaccount, getSubaccount, listAccounts, listSubaccounts } from "./chart/service.js";
export { loadLedgerDemo } from "./demo.js";
export { type EntryPosting, type EntryPostingHook, onEntryPosting } from "./entries/hooks.js";
export { entryOut, toEntryOut } from "./entries/schemas.js";
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
  type PreparedSourceEntry,
  PURCHASES_JOURNAL,
  postPreparedSourceEntry,
  postSourceEntry,
  prepareSourceEntry,
  SALES_JOURNAL,
  type SourceEntryInput,
  type SourceEntryLine,
  subaccountCode,
  subaccountLengthOf,
} from "./entries/source-entries.js";
export {
  type ContactSubaccountRequest,
  contactSubaccountCodes,
  postSourceEntries,
  type SourceEntryOutcome,
} from "./entries/source-entries-batch.js";
export { fiscalYearOut, toFiscalYearOut } from "./fiscal-years/schemas.js";
export {
  createFiscalYear,
  getFiscalYear,
  getFiscalYearByCode,
  listFiscalYears,
  setFiscalYearState,
} from "./fiscal-years/service.js";
export { createJournal, DEFAULT_JOURNAL, getJournal, listJournals } from "./journals/service.js";
export { accountingRoutes } from "./routes.js";
export { FISCAL_YEAR_STATES } from "./tables.js";
