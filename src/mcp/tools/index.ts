import type { ToolSpec } from "../tool-kit.js";
import { listBankMovements } from "./banking.js";
import { getContact, listContacts } from "./contacts.js";
import { getAccountBalance, listAccounts, listJournalEntries } from "./ledger.js";
import { getProduct, listProducts } from "./products.js";

/**
 * Every MCP tool, all read-only. The invoices, purchase invoices, cash flow and bank movements tools
 * arrive with the sales, purchases, treasury and banking modules.
 */
export const TOOLS: readonly ToolSpec[] = [
  listContacts,
  getContact,
  listProducts,
  getProduct,
  listAccounts,
  getAccountBalance,
  listJournalEntries,
  listBankMovements,
];
