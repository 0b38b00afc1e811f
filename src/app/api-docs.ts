import type { DocsOptions } from "../platform/http/docs.js";
import type { License } from "../platform/http/openapi.js";

/** The version both OpenAPI documents carry. */
export const API_VERSION = "0.1.0";

/**
 * No licence is granted yet (package.json says UNLICENSED): the documents say so rather than
 * inventing one. Choosing an open-source licence changes it here and in package.json.
 */
const LICENSE: License = { name: "UNLICENSED (no licence granted yet)" };

const AUTH_TAGS = {
  auth: "Log in with e-mail and password, rotate the refresh token, log out. Login is throttled per account and per address (429 with Retry-After).",
};

export const V1_DOCS: DocsOptions = {
  prefix: "/api/v1",
  title: "Cuadra project cost management API",
  description: "Budgets, budget items, activities, certifications, project costs and BC3 files.",
  version: API_VERSION,
  license: LICENSE,
  tags: {
    ...AUTH_TAGS,
    users: "Users, their roles and company restriction; the caller's own profile and password.",
    roles: "Roles and the permissions (modulo:accion) they grant; the permission catalog.",
    budgets:
      "Construction budgets of a company: totals (PEM, PEC, VAT), states borrador -> aprobado -> en_ejecucion -> finalizado, history, duplication.",
    bc3: "FIEBDC-3 (BC3) files: a budget created from or replaced by a file, or downloaded as one.",
    "budget-items": "The chapters and items of a budget, with their measurement and decomposition lines.",
    activities: "Schedule activities of a budget, linked to its items, with planned and earned value.",
    certifications:
      "Monthly certifications of a budget in execution: quantities per item, to origin and per period; PDF.",
    accounting:
      "Actual costs of a budget (with attached files) and the budgeted vs certified vs actual summary.",
  },
};

export const API_DOCS: DocsOptions = {
  prefix: "/api",
  title: "Cuadra enterprise accounting API",
  description:
    "Companies, contacts, products, agents, sales and purchases, general ledger, treasury, bank " +
    "reconciliation, tax returns, VeriFactu, API tokens and the MCP server.",
  version: API_VERSION,
  license: LICENSE,
  tags: {
    ...AUTH_TAGS,
    "api-tokens":
      "API tokens (cdr_...) for programs: their scopes, company restriction and expiry. The secret is shown once.",
    companies: "The companies of the tenant; business records belong to one.",
    clients: "Contacts: customers and suppliers, with their tax ids, addresses and terms.",
    products: "Products and services with their prices and taxes, grouped in families.",
    agents: "Sales agents and their commission.",
    accounting:
      "General ledger: fiscal years, the PGC 2007 chart, journals, subaccounts, entries, balances and trial balance.",
    documents:
      "Settings of the commercial documents: numbering series, tax codes (VAT, IRPF), payment terms, per-company settings.",
    "sales estimates": "Quotes to customers, convertible into orders.",
    "sales orders": "Customer orders, delivered by delivery notes or invoiced.",
    "sales delivery notes": "Goods delivered to customers, invoiced one by one or several together.",
    "sales invoices": "Customer invoices: issued (numbered, posted, VeriFactu), rectified, as PDF.",
    "sales reports": "Sales reports: modelo 347.",
    "purchase estimates": "Quotes from suppliers, convertible into orders.",
    "purchase orders": "Orders to suppliers.",
    "purchase delivery notes": "Goods received from suppliers.",
    "purchase invoices":
      "Supplier invoices: approved (posted, payments due) or rejected, rectified, with the supplier's files.",
    treasury:
      "Bank accounts, customer receipts and supplier payments with their payments, treasury budget, cash flow and aging.",
    "bank-reconciliation":
      "Bank statements (Norma 43, CAMT.053) imported and their movements reconciled with receipts, payments or entries.",
    tax: "Spanish tax returns (303, 111, 115, 349, 390) from the books, the box map and the VAT books.",
    verifactu: "VeriFactu: the chained registration records of issued invoices, their XML and the event log.",
    mcp: "The Model Context Protocol server for AI assistants (read-only tools), over Streamable HTTP and the legacy SSE pair.",
    oauth:
      "Assistants connected to the MCP server by OAuth sign-in (docs/mcp.md): list them and revoke their access.",
  },
};
