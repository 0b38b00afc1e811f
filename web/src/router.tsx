import {
  createRootRoute,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
  redirect,
} from "@tanstack/react-router";
import { tokens } from "./api/session";
import { AppLayout } from "./layout/AppLayout";
import { LoginPage } from "./pages/LoginPage";
import { NotFound } from "./pages/NotFound";

const rootRoute = createRootRoute({ component: Outlet, notFoundComponent: NotFound });

export const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/login",
  validateSearch: (search: Record<string, unknown>): { redirect?: string } =>
    typeof search.redirect === "string" && search.redirect.startsWith("/")
      ? { redirect: search.redirect }
      : {},
  component: LoginPage,
});

/** Every page but /login needs a session: without tokens, go sign in and come back. */
const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: "app",
  beforeLoad: ({ location }) => {
    if (!tokens.access) throw redirect({ to: "/login", search: { redirect: location.href } });
  },
  component: AppLayout,
});

const page = <const TPath extends string>(
  path: TPath,
  load: () => Promise<Record<string, unknown>>,
  name: string,
) =>
  createRoute({
    getParentRoute: () => appRoute,
    path,
    component: lazyRouteComponent(load as () => Promise<Record<string, () => React.ReactNode>>, name),
  });

const dashboard = page("/", () => import("./pages/Dashboard"), "Dashboard");

// One chunk per area: each area's pages import from its own index.
const projects = () => import("./pages/projects");
const budgets = createRoute({
  getParentRoute: () => appRoute,
  path: "/projects/budgets",
  validateSearch: (s: Record<string, unknown>): { estado?: string; search?: string } => ({
    estado: typeof s.estado === "string" ? s.estado : undefined,
    search: typeof s.search === "string" ? s.search : undefined,
  }),
  component: lazyRouteComponent(projects, "BudgetsPage"),
});
const budgetDetail = page("/projects/budgets/$budgetId", projects, "BudgetDetailPage");
const certification = page("/projects/certifications/$certificationId", projects, "CertificationPage");

const accounting = () => import("./pages/accounting");
const entries = createRoute({
  getParentRoute: () => appRoute,
  path: "/accounting/entries",
  validateSearch: (s: Record<string, unknown>): { subaccount?: string; entry?: string } => ({
    subaccount: typeof s.subaccount === "string" ? s.subaccount : undefined,
    entry: typeof s.entry === "string" ? s.entry : undefined,
  }),
  component: lazyRouteComponent(accounting, "EntriesPage"),
});
const newEntry = page("/accounting/entries/new", accounting, "NewEntryPage");
const trialBalance = page("/accounting/trial-balance", accounting, "TrialBalancePage");
const accounts = page("/accounting/accounts", accounting, "AccountsPage");
const fiscalYears = page("/accounting/fiscal-years", accounting, "FiscalYearsPage");
const companies = page("/accounting/companies", accounting, "CompaniesPage");
const contacts = page("/accounting/contacts", accounting, "ContactsPage");
const products = page("/accounting/products", accounting, "ProductsPage");
const agents = page("/accounting/agents", accounting, "AgentsPage");
const families = page("/accounting/families", accounting, "FamiliesPage");

const admin = () => import("./pages/admin");
const users = page("/admin/users", admin, "UsersPage");
const roles = page("/admin/roles", admin, "RolesPage");
const audit = page("/admin/login-audit", admin, "LoginAuditPage");
const apiTokens = page("/admin/api-tokens", admin, "ApiTokensPage");

const sales = () => import("./pages/sales");
const salesInvoices = page("/sales/invoices", sales, "SalesInvoicesPage");
const purchaseInvoices = page("/purchases/invoices", sales, "PurchaseInvoicesPage");
const salesOrders = page("/sales/orders", sales, "SalesOrdersPage");
const purchaseOrders = page("/purchases/orders", sales, "PurchaseOrdersPage");
const newSalesInvoice = page("/sales/invoices/new", sales, "SalesInvoiceEditorPage");
const salesInvoice = page("/sales/invoices/$invoiceId", sales, "SalesInvoiceEditorPage");
const newPurchaseInvoice = page("/purchases/invoices/new", sales, "PurchaseInvoiceEditorPage");
const purchaseInvoice = page("/purchases/invoices/$invoiceId", sales, "PurchaseInvoiceEditorPage");
const cashFlow = page("/treasury/cash-flow", sales, "CashFlowPage");
const bank = page("/treasury/bank", sales, "BankReconciliationPage");

// webtreasury: receipts and payments, aging, the treasury budget; connected assistants (OAuth grants).
const treasury = () => import("./pages/treasury");
const receipts = page("/treasury/receipts", treasury, "ReceiptsPage");
const payments = page("/treasury/payments", treasury, "PaymentsPage");
const aging = page("/treasury/aging", treasury, "AgingPage");
const forecast = page("/treasury/budgets", treasury, "ForecastPage");
const assistants = page("/account/assistants", () => import("./pages/account"), "AssistantsPage");

const tax = () => import("./pages/tax");
const taxReturns = page("/tax/returns", tax, "ReturnsPage");
const taxReturn = page("/tax/returns/$returnId", tax, "ReturnDetailPage");
const vatBooks = page("/tax/vat-books", tax, "VatBooksPage");
const boxMap = page("/tax/box-map", tax, "BoxMapPage");

const routeTree = rootRoute.addChildren([
  loginRoute,
  appRoute.addChildren([
    dashboard,
    budgets,
    budgetDetail,
    certification,
    entries,
    newEntry,
    trialBalance,
    accounts,
    fiscalYears,
    companies,
    contacts,
    products,
    agents,
    families,
    users,
    roles,
    audit,
    apiTokens,
    salesInvoices,
    purchaseInvoices,
    salesOrders,
    purchaseOrders,
    newSalesInvoice,
    salesInvoice,
    newPurchaseInvoice,
    purchaseInvoice,
    cashFlow,
    bank,
    receipts,
    payments,
    aging,
    forecast,
    assistants,
    taxReturns,
    taxReturn,
    vatBooks,
    boxMap,
  ]),
]);

export const router = createRouter({ routeTree, defaultPreload: "intent" });

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
}
