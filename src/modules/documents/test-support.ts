/**
 * Shared setup of the documents engine's tests (sales and purchases), through the HTTP API.
 * This file is not a test itself.
 */
import type { LightMyRequestResponse } from "fastify";
import { type ApiCaller, createCompany, createFiscalYear } from "../accounting/test-support.js";

export function expectStatus<T = Record<string, unknown>>(
  res: LightMyRequestResponse,
  status: number,
  what = "request",
): T {
  if (res.statusCode !== status)
    throw new Error(`${what}: expected ${status}, got ${res.statusCode} ${res.body}`);
  return (res.body ? res.json() : null) as T;
}

let contactCounter = 0;

/** A valid NIF (DNI digits + letter) no other contact of the run uses. */
export function uniqueNif(): string {
  contactCounter += 1;
  const n = (process.pid * 1000 + contactCounter) % 100_000_000;
  return `${String(n).padStart(8, "0")}${"TRWAGMYFPDXBNJZSQVHLCKE"[n % 23]}`;
}

export async function createContact(
  api: ApiCaller,
  companyId: string,
  body: Record<string, unknown> = {},
): Promise<{ id: string; name: string; tax_id: string | null }> {
  const res = await api.as(api.adminToken, {
    method: "POST",
    url: "/api/clients",
    payload: {
      company_id: companyId,
      contact_type: "both",
      name: `Contact ${contactCounter + 1}`,
      tax_id: uniqueNif(),
      postal_code: "28001",
      ...body,
    },
  });
  return expectStatus(res, 201, "create contact");
}

/** A company with fiscal year 2026, a customer and a supplier (both with a Spanish NIF). */
export async function documentsFixture(api: ApiCaller) {
  const companyId = await createCompany(api, { name: "Documents test company" });
  await createFiscalYear(api, companyId, "2026");
  const customer = await createContact(api, companyId, { name: "Cliente Uno, S.L." });
  const supplier = await createContact(api, companyId, { name: "Proveedor Uno, S.L." });
  return { companyId, customer, supplier };
}

/** A document as the API answers it (the fields tests read). */
export interface DocOut {
  id: string;
  kind: string;
  code: string | null;
  series: string;
  estado: string;
  entry_id: string;
  payment_status: string | null;
  corrects_invoice_id: string | null;
  rectification_type: string | null;
  totals: Record<string, string>;
  lines: Array<Record<string, string> & { id: string }>;
  dues: Array<Record<string, string>>;
  sources: Array<{ id: string }>;
  rectifications: Array<{ id: string }>;
  [field: string]: unknown;
}

export type Line = Record<string, unknown>;
export const line = (quantity: string, unitPrice: string, taxCode = "IVA21", extra: Line = {}): Line => ({
  description: `Line ${quantity} x ${unitPrice}`,
  quantity,
  unit_price: unitPrice,
  tax_code: taxCode,
  ...extra,
});

export async function createSalesInvoice(
  api: ApiCaller,
  companyId: string,
  clientId: string,
  lines: Line[],
  extra: Record<string, unknown> = {},
  token = api.adminToken,
) {
  return api.as(token, {
    method: "POST",
    url: "/api/sales/invoices",
    payload: { company_id: companyId, client_id: clientId, date: "2026-03-10", lines, ...extra },
  });
}

export async function issueSalesInvoice(
  api: ApiCaller,
  id: string,
  date = "2026-03-10",
  token = api.adminToken,
) {
  return api.as(token, { method: "POST", url: `/api/sales/invoices/${id}/issue`, payload: { date } });
}

/** Creates and issues a sales invoice; returns the issued invoice. */
export async function issuedSalesInvoice(
  api: ApiCaller,
  companyId: string,
  clientId: string,
  lines: Line[],
  date = "2026-03-10",
  extra: Record<string, unknown> = {},
) {
  const draft = expectStatus<{ id: string }>(
    await createSalesInvoice(api, companyId, clientId, lines, { date, ...extra }),
    201,
    "create invoice",
  );
  return expectStatus<Record<string, unknown> & { id: string; code: string; entry_id: string }>(
    await issueSalesInvoice(api, draft.id, date),
    200,
    "issue invoice",
  );
}

/** The lines of a ledger entry as {subaccount: signed amount} (debit positive). */
export async function entryLines(api: ApiCaller, entryId: string) {
  const entry = expectStatus<{
    lines: Array<{ subaccount_code: string; debit: string; credit: string }>;
  }>(
    await api.as(api.adminToken, { method: "GET", url: `/api/accounting/entries/${entryId}` }),
    200,
    "entry",
  );
  return entry.lines.map((l) => ({ code: l.subaccount_code, debit: l.debit, credit: l.credit }));
}
