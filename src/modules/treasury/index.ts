/**
 * Treasury's entry point: the only file other modules (banking), the CLI, MCP and the app import.
 */
export { bankAccountOut, toBankAccountOut } from "./bank-accounts/schemas.js";
export {
  type BankAccountRow,
  bankAccountsOfCompany,
  createBankAccount,
  getBankAccount,
  listBankAccounts,
} from "./bank-accounts/service.js";
export { loadTreasuryDemo, type TreasuryDemoResult } from "./demo.js";
export { type PayDueOutcome, payDues } from "./payments/batch.js";
export {
  getPayment,
  listOpenDues,
  listOpenDuesForMatching,
  type OpenDue,
  type PayDueInput,
  type PaymentRow,
  payDue,
  undoPayment,
} from "./payments/service.js";
export { cashFlowOut, toCashFlowOut } from "./reports/schemas.js";
export { type CashFlow, getCashFlow } from "./reports/service.js";
export { treasuryRoutes } from "./routes.js";
export { bankAccounts, type PaymentDirection, treasuryPayments } from "./tables.js";
