/**
 * Shared setup of the documents configuration tests (series, taxes, payment terms, settings); this
 * file is not a test itself. It depends on Fastify's inject types only, so it compiles with src.
 */
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import type { Db } from "../../platform/db/client.js";
import { cifControlDigit } from "../../platform/tax-id.js";
import { documentLines, documents } from "./tables.js";

export interface ApiCaller {
  adminToken: string;
  db: Db;
  as(token: string, options: InjectOptions): Promise<LightMyRequestResponse>;
}

let cifCounter = 0;

/** A valid CIF that no other company of this test file uses. */
export function uniqueCif(): string {
  cifCounter += 1;
  const digits = String((process.pid * 100 + cifCounter) % 10_000_000).padStart(7, "0");
  return `B${digits}${cifControlDigit(digits)}`;
}

/** Every row of a list route for one company, inactive ones included. */
export async function listAll<T = Record<string, unknown>>(
  t: ApiCaller,
  path: string,
  companyId: string,
): Promise<T[]> {
  const res = await t.as(t.adminToken, {
    method: "GET",
    url: `${path}?company_id=${companyId}&include_inactive=true&limit=10000`,
  });
  if (res.statusCode !== 200) throw new Error(`GET ${path}: ${res.statusCode} ${res.body}`);
  return res.json().data as T[];
}

/** The id of a company's row with this code in a list route. */
export async function idOfCode(t: ApiCaller, path: string, companyId: string, code: string): Promise<string> {
  const row = (await listAll<{ id: string; code: string }>(t, path, companyId)).find((r) => r.code === code);
  if (!row) throw new Error(`${path}: no ${code} in company ${companyId}`);
  return row.id;
}

/**
 * A draft sales invoice of the company in that series, with one line taxed with the given codes
 * (the sales module will create documents; the configuration only needs one to exist).
 */
export async function draftDocument(
  t: ApiCaller,
  input: { companyId: string; seriesId: string; taxCodeId?: string; irpfCodeId?: string },
): Promise<string> {
  const contact = await t.as(t.adminToken, {
    method: "POST",
    url: "/api/clients",
    payload: { company_id: input.companyId, contact_type: "customer", name: "Cliente de prueba" },
  });
  if (contact.statusCode !== 201) throw new Error(`contact: ${contact.statusCode} ${contact.body}`);
  const [doc] = await t.db
    .insert(documents)
    .values({
      companyId: input.companyId,
      direction: "sale",
      kind: "invoice",
      seriesId: input.seriesId,
      estado: "borrador",
      contactId: contact.json().id,
      contactName: "Cliente de prueba",
      issueDate: "2026-03-01",
    })
    .returning({ id: documents.id });
  await t.db.insert(documentLines).values({
    companyId: input.companyId,
    documentId: doc.id,
    lineNo: 1,
    description: "Servicio",
    quantity: "1",
    unitPrice: "100",
    taxCodeId: input.taxCodeId ?? null,
    irpfCodeId: input.irpfCodeId ?? null,
  });
  return doc.id;
}
