export { EntriesPage } from "./EntriesPage";
export { AccountsPage, ContactsPage, FiscalYearsPage, ProductsPage } from "./ListPages";
export { NewEntryPage } from "./NewEntryPage";
export { TrialBalancePage } from "./TrialBalancePage";
