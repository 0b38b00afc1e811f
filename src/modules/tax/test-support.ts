/**
 * Shared setup of the tax tests: invoices through the documents engine's HTTP API, custom tax codes,
 * box-map edits and returns. This file is not a test itself.
 */
import type { ApiCaller } from "../accounting/test-support.js";
import { expectStatus, issuedSalesInvoice, type Line, uniqueNif } from "../documents/test-support.js";

export { createContact, documentsFixture, expectStatus, line } from "../documents/test-support.js";

let supplierNumber = 0;

/** Creates and approves a purchase invoice dated `date`; returns it. */
export async function approvedPurchaseInvoice(
  api: ApiCaller,
  companyId: string,
  supplierId: string,
  lines: Line[],
  date = "2026-03-10",
  extra: Record<string, unknown> = {},
) {
  supplierNumber += 1;
  const draft = expectStatus<{ id: string }>(
    await api.as(api.adminToken, {
      method: "POST",
      url: "/api/purchases/invoices",
      payload: {
        company_id: companyId,
        supplier_id: supplierId,
        date,
        supplier_number: `P-${process.pid}-${supplierNumber}`,
        lines,
        ...extra,
      },
    }),
    201,
    "create purchase invoice",
  );
  return expectStatus<{ id: string; code: string; entry_id: string }>(
    await api.as(api.adminToken, { method: "POST", url: `/api/purchases/invoices/${draft.id}/approve` }),
    200,
    "approve purchase invoice",
  );
}

export { issuedSalesInvoice };

/** Rectifies a whole finalized invoice (type I) and issues/approves the credit note on `date`. */
export async function creditWhole(api: ApiCaller, direction: "sale" | "purchase", id: string, date: string) {
  const base = direction === "sale" ? "/api/sales/invoices" : "/api/purchases/invoices";
  supplierNumber += 1;
  const draft = expectStatus<{ id: string }>(
    await api.as(api.adminToken, {
      method: "POST",
      url: `${base}/${id}/rectify`,
      payload: {
        type: "I",
        reason: "Devolución",
        date,
        ...(direction === "purchase" ? { supplier_number: `AB-${process.pid}-${supplierNumber}` } : {}),
      },
    }),
    201,
    "rectify",
  );
  const res =
    direction === "sale"
      ? await api.as(api.adminToken, { method: "POST", url: `${base}/${draft.id}/issue`, payload: { date } })
      : await api.as(api.adminToken, { method: "POST", url: `${base}/${draft.id}/approve` });
  return expectStatus<{ id: string; code: string; entry_id: string }>(res, 200, "finalize rectification");
}

/** A company-specific tax code (POST /api/taxes). */
export async function createTaxCode(api: ApiCaller, companyId: string, body: Record<string, unknown>) {
  return expectStatus<{ id: string; code: string }>(
    await api.as(api.adminToken, {
      method: "POST",
      url: "/api/taxes",
      payload: { company_id: companyId, ...body },
    }),
    201,
    `create tax code ${body.code}`,
  );
}

export interface BoxRowOut {
  id: string;
  model: string;
  tax_code: string;
  direction: string;
  rectifying: boolean;
  side: string;
  base_box: string | null;
  quota_box: string | null;
  re_base_box: string | null;
  re_quota_box: string | null;
}

export async function boxMapOf(api: ApiCaller, companyId: string, taxCode?: string) {
  const res = await api.as(api.adminToken, {
    method: "GET",
    url: `/api/tax/box-map?company_id=${companyId}&limit=10000${taxCode ? `&tax_code=${taxCode}` : ""}`,
  });
  return expectStatus<{ data: BoxRowOut[]; total: number }>(res, 200, "box map").data;
}

/** Points the rows of a code (matching `where`) at other boxes. */
export async function remap(
  api: ApiCaller,
  companyId: string,
  taxCode: string,
  where: Partial<BoxRowOut>,
  boxes: Record<string, string | null>,
) {
  const rows = (await boxMapOf(api, companyId, taxCode)).filter((r) =>
    Object.entries(where).every(([k, v]) => r[k as keyof BoxRowOut] === v),
  );
  if (!rows.length) throw new Error(`no box-map row of ${taxCode} matches ${JSON.stringify(where)}`);
  for (const row of rows)
    expectStatus(
      await api.as(api.adminToken, { method: "PATCH", url: `/api/tax/box-map/${row.id}`, payload: boxes }),
      200,
      "remap",
    );
}

export interface ReturnOut {
  id: string;
  model: string;
  estado: string;
  boxes: Record<string, string>;
  result: string | null;
  declaration_type: string | null;
  entry_id: string | null;
  records: Array<Record<string, unknown>>;
  [field: string]: unknown;
}

export async function createReturn(
  api: ApiCaller,
  companyId: string,
  model: string,
  period: string,
  year = 2026,
  token = api.adminToken,
) {
  return api.as(token, {
    method: "POST",
    url: "/api/tax/returns",
    payload: { company_id: companyId, model, year, period },
  });
}

export async function draftReturn(
  api: ApiCaller,
  companyId: string,
  model: string,
  period: string,
  year = 2026,
) {
  return expectStatus<ReturnOut>(
    await createReturn(api, companyId, model, period, year),
    201,
    `create ${model}`,
  );
}

export async function returnAction(
  api: ApiCaller,
  id: string,
  action: string,
  payload?: unknown,
  token = api.adminToken,
) {
  return api.as(token, {
    method: "POST",
    url: `/api/tax/returns/${id}/${action}`,
    ...(payload ? { payload } : {}),
  });
}

/** An EU customer or supplier (VAT number with its country prefix). */
export async function euContact(api: ApiCaller, companyId: string, name: string, vat: string) {
  const res = await api.as(api.adminToken, {
    method: "POST",
    url: "/api/clients",
    payload: { company_id: companyId, contact_type: "both", name, tax_id: vat, country: vat.slice(0, 2) },
  });
  return expectStatus<{ id: string }>(res, 201, "create EU contact");
}

export { uniqueNif };
