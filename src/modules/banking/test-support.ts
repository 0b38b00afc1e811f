/**
 * Shared setup of banking's tests, through the HTTP API. Not a test itself.
 */
import type { LightMyRequestResponse } from "fastify";
import type { ApiCaller } from "../accounting/test-support.js";
import { expectStatus } from "../documents/test-support.js";
import { createBankAccount, treasuryFixture } from "../treasury/test-support.js";
import { type Norma43MovementInput, writeNorma43 } from "./formats/norma43-write.js";

export { expectStatus };

const WEIGHTS = [1, 2, 4, 8, 5, 10, 9, 7, 3, 6];
function cccDigit(ten: string): string {
  const d = 11 - ([...ten].reduce((acc, c, i) => acc + Number(c) * WEIGHTS[i]!, 0) % 11);
  return String(d === 11 ? 0 : d === 10 ? 1 : d);
}

/** The valid Spanish IBAN of a bank, office and account number (CCC and IBAN check digits computed). */
export function spanishIban(bank: string, office: string, account: string): string {
  const dc = cccDigit(`00${bank}${office}`) + cccDigit(account);
  const bban = `${bank}${office}${dc}${account}`;
  const check = 98 - Number(BigInt(`${bban}142800`) % 97n);
  return `ES${String(check).padStart(2, "0")}${bban}`;
}

/** A Norma 43 file of one statement for the bank account of this IBAN. */
export function norma43For(
  iban: string,
  movements: Norma43MovementInput[],
  opts: { openingBalance?: string; dateFrom?: string; dateTo?: string } = {},
): Buffer {
  return writeNorma43([
    {
      bank: iban.slice(4, 8),
      office: iban.slice(8, 12),
      account: iban.slice(14, 24),
      dateFrom: opts.dateFrom ?? "2026-03-01",
      dateTo: opts.dateTo ?? "2026-03-31",
      openingBalance: opts.openingBalance ?? "1000.00",
      name: "CUADRA TEST",
      movements,
    },
  ]);
}

/** multipart/form-data with text fields and one file. */
export function multipartForm(fields: Record<string, string>, file?: { content: Buffer; name?: string }) {
  const boundary = `----cuadra-banking-${Date.now().toString(36)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name ?? "extracto.n43"}"\r\n` +
          "Content-Type: application/octet-stream\r\n\r\n",
      ),
      file.content,
      Buffer.from("\r\n"),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}

export function importFile(
  api: ApiCaller,
  bankAccountId: string,
  content: Buffer,
  token = api.adminToken,
  name = "extracto.n43",
): Promise<LightMyRequestResponse> {
  return api.as(token, {
    method: "POST",
    url: "/api/bank-reconciliation/import",
    ...multipartForm({ bank_account_id: bankAccountId }, { content, name }),
  });
}

export interface MovementOut {
  id: string;
  company_id: string;
  amount: string;
  status: string;
  concepts: string[];
  suggestions: Array<{
    target: string;
    id: string;
    document_code: string;
    score: number;
    reasons: Array<{ code: string; points: number }>;
  }>;
  reconciliation: {
    target: string;
    payment_id: string | null;
    entry_id: string;
    amount: string;
    fees: string;
    origin: string;
  } | null;
}

export async function listMovements(api: ApiCaller, query = "", token = api.adminToken) {
  return expectStatus<{ data: MovementOut[]; total: number }>(
    await api.as(token, { method: "GET", url: `/api/bank-reconciliation/movements?limit=1000${query}` }),
    200,
    "list movements",
  );
}

/** A treasury fixture (company, year 2026, customer, supplier, bank account) for banking. */
export async function bankingFixture(api: ApiCaller) {
  return treasuryFixture(api);
}

export { createBankAccount };
