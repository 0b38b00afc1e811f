import type { ToolSpec } from "../tool-kit.js";
import { listBankMovements } from "./banking.js";
import { listCompanies, listFiscalYears } from "./companies.js";
import { getContact, listContacts } from "./contacts.js";
import { getInvoice, listInvoices } from "./invoices.js";
import { getAccountBalance, listAccounts, listJournalEntries } from "./ledger.js";
import { getProduct, listProducts } from "./products.js";
import { getBudget, getCertification, listBudgets, listCertifications } from "./projects.js";
import { getPurchaseInvoice, listPurchaseInvoices } from "./purchase-invoices.js";
import { getVatReturn, listVatBookEntries } from "./tax.js";
import { getCashFlow } from "./treasury.js";

/**
 * Every MCP tool, all read-only.
 */
export const TOOLS: readonly ToolSpec[] = [
  listContacts,
  getContact,
  listProducts,
  getProduct,
  listAccounts,
  getAccountBalance,
  listJournalEntries,
  listInvoices,
  getInvoice,
  listPurchaseInvoices,
  getPurchaseInvoice,
  getVatReturn,
  listVatBookEntries,
  getCashFlow,
  listBankMovements,
  listBudgets,
  getBudget,
  listCertifications,
  getCertification,
  listCompanies,
  listFiscalYears,
];
