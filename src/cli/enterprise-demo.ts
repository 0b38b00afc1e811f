import { DEMO_AGENTS } from "../modules/agents/demo.js";
import { createAgent } from "../modules/agents/service.js";
import { demoContacts } from "../modules/clients/demo.js";
import { createContact } from "../modules/clients/service.js";
import * as companies from "../modules/companies/service.js";
// The demo company gets the documents engine's defaults (series, tax codes...) like any other.
import "../modules/documents/index.js";
import { DEMO_FAMILIES, demoProducts } from "../modules/products/demo.js";
import { createFamily } from "../modules/products/families/service.js";
import { createProduct } from "../modules/products/products/service.js";
import { inTransaction } from "../platform/db/sql.js";
import type { AuthedCtx } from "../platform/http/context.js";

/** The demo company is recognised by this tax id, which keeps the load idempotent. */
export const DEMO_COMPANY_TAX_ID = "B12345674";

async function findDemoCompany(ctx: AuthedCtx) {
  const { rows } = await companies.list(ctx, {
    search: DEMO_COMPANY_TAX_ID,
    include_inactive: true,
    skip: 0,
    limit: 10,
  });
  return rows.find((c) => c.taxId === DEMO_COMPANY_TAX_ID);
}

/**
 * Loads the enterprise demo in one transaction: a construction company with 5 sales agents,
 * 50 contacts, 4 product families and 100 products. Contacts go through the contacts service, so
 * they get their ledger subaccounts in any open fiscal year. Does nothing when the company exists.
 */
export async function loadEnterpriseDemo(ctx: AuthedCtx): Promise<{ created: boolean; companyId: string }> {
  return inTransaction(ctx.db, async (tx) => {
    const txCtx: AuthedCtx = { ...ctx, db: tx };
    const existing = await findDemoCompany(txCtx);
    if (existing) return { created: false, companyId: existing.id };

    const company = await companies.create(txCtx, {
      name: "Construcciones Demo, S.L.",
      legalName: "Construcciones Demo, S.L.",
      taxId: DEMO_COMPANY_TAX_ID,
      address: "Calle de Alcalá 100",
      city: "Madrid",
      postalCode: "28009",
      province: "Madrid",
      country: "ES",
    });
    const companyId = company.id;
    const agentIds: string[] = [];
    for (const agent of DEMO_AGENTS) agentIds.push((await createAgent(txCtx, { ...agent, companyId })).id);
    for (const contact of demoContacts(agentIds)) await createContact(txCtx, { ...contact, companyId });
    for (const family of DEMO_FAMILIES) await createFamily(txCtx, { ...family, companyId });
    for (const product of demoProducts()) await createProduct(txCtx, { ...product, companyId });
    return { created: true, companyId };
  });
}
