export { BankReconciliationPage } from "./BankReconciliationPage";
export { CashFlowPage } from "./CashFlowPage";
export { PurchaseInvoicesPage, SalesInvoicesPage } from "./InvoicesPages";
