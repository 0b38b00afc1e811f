/**
 * Shared setup of the VeriFactu tests, through the HTTP API (this file is not a test itself).
 */
import { type ApiCaller, createCompany, createFiscalYear } from "../accounting/test-support.js";
import { createContact, expectStatus } from "../documents/test-support.js";

/** A company with fiscal year 2026, a Spanish customer and VeriFactu on. */
export async function verifactuFixture(api: ApiCaller, opts: { on?: boolean; name?: string } = {}) {
  const companyId = await createCompany(api, { name: opts.name ?? "VeriFactu test company, S.L." });
  await createFiscalYear(api, companyId, "2026");
  const customer = await createContact(api, companyId, { name: "Cliente VeriFactu, S.L." });
  if (opts.on !== false) await setMode(api, companyId, "verifactu");
  return { companyId, customer };
}

export async function setMode(api: ApiCaller, companyId: string, mode: "off" | "verifactu") {
  return expectStatus(
    await api.as(api.adminToken, {
      method: "PUT",
      url: "/api/verifactu/settings",
      payload: { company_id: companyId, mode },
    }),
    200,
    `verifactu ${mode}`,
  );
}

/** A record as the API answers it (the fields tests read). */
export interface RecordOut {
  id: string;
  sequence: number;
  record_type: string;
  document_id: string;
  invoice_number: string;
  invoice_date: string;
  invoice_type: string | null;
  cuota_total: string | null;
  importe_total: string | null;
  previous_id: string | null;
  previous_hash: string;
  generated_at: string;
  hash: string;
  hash_input: string;
  cancels_record_id: string | null;
  cancelled_by: string | null;
  submission: { estado: string; attempts: number; code: string | null } | null;
  details: Record<string, unknown> & {
    breakdown: Array<Record<string, string | null>>;
    recipient: Record<string, string | null> | null;
    rectification: Record<string, unknown> | null;
  };
  [field: string]: unknown;
}

export async function recordsOf(api: ApiCaller, companyId: string, query = "") {
  return expectStatus<{ data: RecordOut[]; total: number }>(
    await api.as(api.adminToken, {
      method: "GET",
      url: `/api/verifactu/records?company_id=${companyId}${query.includes("limit=") ? "" : "&limit=10000"}${query}`,
    }),
    200,
    "records",
  );
}

export async function recordOf(api: ApiCaller, id: string) {
  return expectStatus<RecordOut>(
    await api.as(api.adminToken, { method: "GET", url: `/api/verifactu/records/${id}` }),
    200,
    "record",
  );
}

export async function verify(api: ApiCaller, companyId: string) {
  return expectStatus<{
    ok: boolean;
    records: {
      checked: number;
      first_break: { sequence: number; problem: string; id: string | null } | null;
    };
    events: { checked: number; first_break: { sequence: number; problem: string } | null };
  }>(
    await api.as(api.adminToken, { method: "GET", url: `/api/verifactu/verify?company_id=${companyId}` }),
    200,
    "verify",
  );
}
