/**
 * Shared setup of the purchases tests (this file is not a test itself): supplier invoices through
 * the HTTP API.
 */
import type { ApiCaller } from "../accounting/test-support.js";
import { expectStatus, type Line } from "../documents/test-support.js";

export function createPurchaseInvoice(
  api: ApiCaller,
  companyId: string,
  supplierId: string,
  lines: Line[],
  extra: Record<string, unknown> = {},
  token = api.adminToken,
) {
  return api.as(token, {
    method: "POST",
    url: "/api/purchases/invoices",
    payload: {
      company_id: companyId,
      supplier_id: supplierId,
      supplier_number: `SUP-${Math.random().toString(36).slice(2, 10)}`,
      date: "2026-03-10",
      lines,
      ...extra,
    },
  });
}

export const invoiceAction = (
  api: ApiCaller,
  id: string,
  action: string,
  payload?: unknown,
  token = api.adminToken,
) =>
  api.as(token, {
    method: "POST",
    url: `/api/purchases/invoices/${id}/${action}`,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

/** Creates and approves a supplier invoice; returns the approved invoice. */
export async function approvedPurchaseInvoice(
  api: ApiCaller,
  companyId: string,
  supplierId: string,
  lines: Line[],
  extra: Record<string, unknown> = {},
) {
  const pending = expectStatus<{ id: string }>(
    await createPurchaseInvoice(api, companyId, supplierId, lines, extra),
    201,
    "create supplier invoice",
  );
  return expectStatus<Record<string, unknown> & { id: string; code: string; entry_id: string | null }>(
    await invoiceAction(api, pending.id, "approve"),
    200,
    "approve supplier invoice",
  );
}
