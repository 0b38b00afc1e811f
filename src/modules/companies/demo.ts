import type { AuthedCtx } from "../../platform/http/context.js";
import { createCompany, listCompanies } from "./service.js";

/** The demo company is recognised by this tax id, which keeps the load idempotent. */
export const DEMO_COMPANY_TAX_ID = "B12345674";

/** The demo construction company; created only when no company has its tax id. */
export async function loadCompanyDemo(ctx: AuthedCtx): Promise<{ created: boolean; companyId: string }> {
  const { rows } = await listCompanies(ctx, {
    search: DEMO_COMPANY_TAX_ID,
    includeInactive: true,
    limit: 10,
    offset: 0,
  });
  const existing = rows.find((c) => c.taxId === DEMO_COMPANY_TAX_ID);
  if (existing) return { created: false, companyId: existing.id };
  const company = await createCompany(ctx, {
    name: "Construcciones Demo, S.L.",
    legalName: "Construcciones Demo, S.L.",
    taxId: DEMO_COMPANY_TAX_ID,
    address: "Calle de Alcalá 100",
    city: "Madrid",
    postalCode: "28009",
    province: "Madrid",
    country: "ES",
  });
  return { created: true, companyId: company.id };
}
