export { BudgetDetailPage } from "./BudgetDetailPage";
export { BudgetsPage } from "./BudgetsPage";
export { CertificationPage } from "./CertificationPage";
