/**
 * Shared setup of treasury's tests (and banking's), through the HTTP API. Not a test itself.
 */
import type { ApiCaller } from "../accounting/test-support.js";
import { documentsFixture, expectStatus, issuedSalesInvoice, type Line } from "../documents/test-support.js";

/** Valid Spanish IBANs (check digits and CCC control digits right). */
export const IBANS = ["ES9121000418450200051332", "ES7921000813610123456789", "ES6000491500051234567892"];

export interface BankAccountOut {
  id: string;
  company_id: string;
  name: string;
  iban: string;
  subaccount_code: string;
  is_active: boolean;
}

export async function createBankAccount(
  api: ApiCaller,
  companyId: string,
  body: Record<string, unknown> = {},
): Promise<BankAccountOut> {
  const res = await api.as(api.adminToken, {
    method: "POST",
    url: "/api/treasury/bank-accounts",
    payload: { company_id: companyId, name: "Banco test", iban: IBANS[0], ...body },
  });
  return expectStatus<BankAccountOut>(res, 201, "create bank account");
}

/** A documents fixture (company, year 2026, customer, supplier) with a bank account. */
export async function treasuryFixture(api: ApiCaller) {
  const fx = await documentsFixture(api);
  const bank = await createBankAccount(api, fx.companyId, { name: "Banco Uno" });
  return { ...fx, bank };
}

/** Creates, then approves, a purchase invoice; returns it. */
export async function approvedPurchaseInvoice(
  api: ApiCaller,
  companyId: string,
  supplierId: string,
  lines: Line[],
  date = "2026-03-10",
  extra: Record<string, unknown> = {},
) {
  const draft = expectStatus<{ id: string }>(
    await api.as(api.adminToken, {
      method: "POST",
      url: "/api/purchases/invoices",
      payload: {
        company_id: companyId,
        supplier_id: supplierId,
        supplier_number: `P-${Math.random().toString(36).slice(2, 10)}`,
        date,
        lines,
        ...extra,
      },
    }),
    201,
    "create purchase invoice",
  );
  return expectStatus<Record<string, unknown> & { id: string; code: string }>(
    await api.as(api.adminToken, { method: "POST", url: `/api/purchases/invoices/${draft.id}/approve` }),
    200,
    "approve purchase invoice",
  );
}

export { issuedSalesInvoice };
