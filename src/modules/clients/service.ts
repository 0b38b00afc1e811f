import { assertCompanyVisible, canSeeCompany, companyFilter } from "../../platform/auth/company-scope.js";
import { type AuthedCtx, inCtxTransaction } from "../../platform/http/context.js";
import { BadRequestError, ConflictError } from "../../platform/http/errors.js";
import { ensureContactSubaccounts } from "../accounting/index.js";
import { findAgentOfCompany } from "../agents/index.js";
import { resolveCompanyForWrite } from "../companies/index.js";
import type { ContactRow } from "./repository.js";
import * as repo from "./repository.js";
import { type ContactType, contacts, type TaxRegime } from "./tables.js";
import { normalizeContactTaxId } from "./tax-id.js";

export interface ContactFields {
  contactType?: ContactType;
  code?: string;
  name?: string;
  legalName?: string;
  /** As typed: validated against the contact's country and normalized here. */
  taxId?: string | null;
  email?: string;
  phone?: string;
  address?: string;
  city?: string;
  postalCode?: string;
  province?: string;
  country?: string;
  paymentTermsDays?: number;
  taxRegime?: TaxRegime;
  /** Days of the month the contact pays on: up to 3 distinct days 1..31, stored ascending. */
  paymentDays?: number[];
  agentId?: string | null;
  isActive?: boolean;
}

export type NewContact = ContactFields & { contactType: ContactType; name: string; companyId?: string };

export interface ContactListFilters {
  companyId?: string;
  /** customer or supplier also match contacts of type both. */
  contactType?: ContactType;
  search?: string;
  /** Exactly this state when given; otherwise inactive ones only with includeInactive. */
  isActive?: boolean;
  includeInactive?: boolean;
  limit: number;
  offset: number;
}

const DEFAULT_COUNTRY = "ES";

/** Payment days as stored (ascending), or a 400 naming the day that is wrong. */
function paymentDaysOf(days: number[] | undefined): number[] | undefined {
  if (days === undefined) return undefined;
  const errors = days.flatMap((d, i) =>
    !Number.isInteger(d) || d < 1 || d > 31
      ? [{ path: `payment_days.${i}`, message: "must be a day of the month, 1 to 31" }]
      : days.indexOf(d) !== i
        ? [{ path: `payment_days.${i}`, message: "repeats a day" }]
        : [],
  );
  if (days.length > 3) errors.push({ path: "payment_days", message: "at most 3 payment days" });
  if (errors.length) throw new BadRequestError("payment_days is not valid", errors);
  return [...days].sort((a, b) => a - b);
}

/** Contacts by id (reports); those of companies the caller cannot see are left out. */
export async function getContactsByIds(ctx: AuthedCtx, ids: string[]): Promise<ContactRow[]> {
  return (await repo.findContactsByIds(ctx.db, ids)).filter((c) => canSeeCompany(ctx.actor, c.companyId));
}

export async function getContact(ctx: AuthedCtx, id: string): Promise<ContactRow> {
  return assertCompanyVisible(ctx.actor, await repo.findContact(ctx.db, id), "Contact");
}

export function listContacts(ctx: AuthedCtx, f: ContactListFilters) {
  return repo.listContacts(ctx.db, {
    scope: companyFilter(ctx.actor, contacts.companyId, f.companyId),
    contactType: f.contactType,
    search: f.search,
    isActive: f.isActive,
    includeInactive: f.includeInactive ?? false,
    limit: f.limit,
    offset: f.offset,
  });
}

async function assertAgentUsable(ctx: AuthedCtx, companyId: string, agentId: string) {
  const agent = await findAgentOfCompany(ctx, companyId, agentId);
  if (!agent)
    throw new BadRequestError("agent_id is not an agent of the contact's company", [
      { path: "agent_id", message: "is not an agent of this company" },
    ]);
  if (!agent.isActive)
    throw new BadRequestError("The agent is inactive", [{ path: "agent_id", message: "is inactive" }]);
}

async function assertNoDuplicates(
  ctx: AuthedCtx,
  companyId: string,
  values: { code?: string; taxId?: string | null },
  exceptId?: string,
) {
  const taken = await repo.findDuplicates(ctx.db, companyId, values, exceptId);
  if (taken.code)
    throw new ConflictError(`A contact with code ${values.code} already exists in this company`);
  if (taken.taxId)
    throw new ConflictError(`A contact with tax ID ${values.taxId} already exists in this company`);
}

/** Generated codes: C00001, C00002... per company, skipping codes typed in by hand. */
async function generateCode(ctx: AuthedCtx, companyId: string): Promise<string> {
  const format = (n: number) => `C${String(n).padStart(5, "0")}`;
  const candidate = format(await repo.takeCodeNumber(ctx.db, companyId));
  const { code: taken } = await repo.findDuplicates(ctx.db, companyId, { code: candidate });
  return taken ? format(await repo.skipPastManualCodes(ctx.db, companyId)) : candidate;
}

export async function createContact(ctx: AuthedCtx, input: NewContact): Promise<ContactRow> {
  const { companyId: requested, ...fields } = input;
  const companyId = await resolveCompanyForWrite(ctx, requested);
  const country = fields.country ?? DEFAULT_COUNTRY;
  const taxId = fields.taxId ? normalizeContactTaxId(fields.taxId, country) : null;
  const paymentDays = paymentDaysOf(fields.paymentDays);
  return inCtxTransaction(ctx, async (txCtx) => {
    if (fields.agentId) await assertAgentUsable(txCtx, companyId, fields.agentId);
    await assertNoDuplicates(txCtx, companyId, { code: fields.code, taxId });
    const code = fields.code ?? (await generateCode(txCtx, companyId));
    const row = await repo.insertContact(txCtx.db, {
      ...fields,
      code,
      taxId,
      country,
      paymentDays,
      companyId,
    });
    await ensureContactSubaccounts(txCtx, row);
    return row;
  });
}

/** The normalized tax id to store, when the update touches the tax id or the country. */
function taxIdAfterUpdate(current: ContactRow, fields: ContactFields): string | null | undefined {
  const country = fields.country ?? current.country;
  if (fields.taxId !== undefined) return fields.taxId ? normalizeContactTaxId(fields.taxId, country) : null;
  if (fields.country !== undefined && current.taxId) return normalizeContactTaxId(current.taxId, country);
  return undefined;
}

export async function updateContact(ctx: AuthedCtx, id: string, fields: ContactFields): Promise<ContactRow> {
  const current = await getContact(ctx, id);
  const taxId = taxIdAfterUpdate(current, fields);
  const paymentDays = paymentDaysOf(fields.paymentDays);
  return inCtxTransaction(ctx, async (txCtx) => {
    if (fields.agentId && fields.agentId !== current.agentId)
      await assertAgentUsable(txCtx, current.companyId, fields.agentId);
    await assertNoDuplicates(
      txCtx,
      current.companyId,
      {
        code: fields.code !== current.code ? fields.code : undefined,
        taxId: taxId !== current.taxId ? taxId : undefined,
      },
      id,
    );
    const row = await repo.updateContact(txCtx.db, id, { ...fields, taxId, paymentDays });
    if (row.contactType !== current.contactType) await ensureContactSubaccounts(txCtx, row);
    return row;
  });
}

export async function deactivateContact(ctx: AuthedCtx, id: string): Promise<void> {
  await getContact(ctx, id);
  await repo.updateContact(ctx.db, id, { isActive: false });
}
