export { AgentsPage } from "./AgentsPage";
export { CompaniesPage } from "./CompaniesPage";
export { ContactsPage } from "./ContactsPage";
export { EntriesPage } from "./EntriesPage";
export { FamiliesPage } from "./FamiliesPage";
export { AccountsPage, FiscalYearsPage } from "./ListPages";
export { NewEntryPage } from "./NewEntryPage";
export { ProductsPage } from "./ProductsPage";
export { TrialBalancePage } from "./TrialBalancePage";
