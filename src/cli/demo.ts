import { loadLedgerDemo } from "../modules/accounting/index.js";
import { loadAgentsDemo } from "../modules/agents/index.js";
import { loadBankingDemo } from "../modules/banking/index.js";
import { listContacts, loadContactsDemo } from "../modules/clients/index.js";
import { loadCompanyDemo } from "../modules/companies/index.js";
// The demo company gets the documents engine's defaults (series, tax codes...) like any other company.
import "../modules/documents/index.js";
import { loadProductsDemo } from "../modules/products/index.js";
import { loadProjectsDemo } from "../modules/projects/index.js";
import { loadPurchasesDemo, type PurchasesDemoResult } from "../modules/purchases/index.js";
import { loadSalesDemo, type SalesDemoResult } from "../modules/sales/index.js";
import { loadTaxDemo, type TaxDemoResult } from "../modules/tax/index.js";
import { loadTreasuryDemo, type TreasuryDemoResult } from "../modules/treasury/index.js";
import { loadVerifactuDemo } from "../modules/verifactu/index.js";
import type { Db } from "../platform/db/client.js";
import { type AuthedCtx, inCtxTransaction } from "../platform/http/context.js";
import { cliActor } from "./api-token.js";

export interface DemoResult {
  budget: { created: boolean; budgetId: string };
  company: { created: boolean; companyId: string };
  entriesCreated: number;
  sales: SalesDemoResult;
  purchases: PurchasesDemoResult;
  treasury: TreasuryDemoResult;
  bankMovements: number;
  tax: TaxDemoResult;
}

/**
 * The enterprise demo in one transaction: a construction company with 5 sales agents, 50 contacts,
 * 4 product families and 100 products. Does nothing when the company exists.
 */
export async function loadEnterpriseDemo(ctx: AuthedCtx): Promise<{ created: boolean; companyId: string }> {
  return inCtxTransaction(ctx, async (txCtx) => {
    const company = await loadCompanyDemo(txCtx);
    if (!company.created) return company;
    const agentIds = await loadAgentsDemo(txCtx, company.companyId);
    await loadContactsDemo(txCtx, company.companyId, agentIds);
    await loadProductsDemo(txCtx, company.companyId);
    return company;
  });
}

/** The steps of `loadDemo`, in order (the CLI shows them as progress). */
export const DEMO_STEPS = [
  "company, contacts and products",
  "projects",
  "ledger",
  "VeriFactu",
  "sales",
  "purchases",
  "treasury",
  "banking",
] as const;

/** Loads every module's demo; each step is idempotent, so running it twice changes nothing. */
export async function loadDemo(
  db: Db,
  adminEmail: string,
  onStep: (step: (typeof DEMO_STEPS)[number], index: number) => void = () => {},
): Promise<DemoResult> {
  const step = (name: (typeof DEMO_STEPS)[number]) => onStep(name, DEMO_STEPS.indexOf(name));
  const actor = await cliActor(db, adminEmail);
  const ctx: AuthedCtx = { db, tenantId: "cli", actor };
  step("company, contacts and products");
  const company = await loadEnterpriseDemo(ctx);
  // The demo budget belongs to the demo company.
  step("projects");
  const budget = await loadProjectsDemo(db, { userId: actor.userId, companyId: company.companyId });
  const contacts = await listContacts(ctx, { companyId: company.companyId, limit: 10_000, offset: 0 });
  step("ledger");
  const entriesCreated = await loadLedgerDemo(ctx, company.companyId, contacts.rows);
  // VeriFactu on before the sales demo issues its invoices: each gets its chained record and QR.
  step("VeriFactu");
  await loadVerifactuDemo(ctx, company.companyId);
  step("sales");
  const sales = await loadSalesDemo(ctx, company.companyId);
  step("purchases");
  const purchases = await loadPurchasesDemo(ctx, company.companyId);
  step("treasury");
  const treasury = await loadTreasuryDemo(ctx, company.companyId);
  // After the demos that issue invoices: the statement is generated from their open receipts.
  step("banking");
  const banking = await loadBankingDemo(ctx, company.companyId);
  // Last: confirming the quarters that are over locks them against anything dated inside.
  const tax = await loadTaxDemo(ctx, company.companyId);
  return {
    budget,
    company,
    entriesCreated,
    sales,
    purchases,
    treasury,
    bankMovements: banking.movements,
    tax,
  };
}
