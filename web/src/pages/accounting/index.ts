export { AgentsPage } from "./AgentsPage";
export { EntriesPage } from "./EntriesPage";
export { FamiliesPage } from "./FamiliesPage";
export { AccountsPage, ContactsPage, FiscalYearsPage, ProductsPage } from "./ListPages";
export { NewEntryPage } from "./NewEntryPage";
export { TrialBalancePage } from "./TrialBalancePage";
