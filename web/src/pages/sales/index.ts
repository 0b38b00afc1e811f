export { BankReconciliationPage } from "./BankReconciliationPage";
export { CashFlowPage } from "./CashFlowPage";
export { PurchaseInvoiceEditorPage, SalesInvoiceEditorPage } from "./InvoiceEditorPage";
export { PurchaseInvoicesPage, SalesInvoicesPage } from "./InvoicesPages";
export { PurchaseOrdersPage, SalesOrdersPage } from "./OrdersPage";
