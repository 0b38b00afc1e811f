import { inTransaction } from "../../../platform/db/sql.js";
import type { AuthedCtx } from "../../../platform/http/context.js";
import { ConflictError } from "../../../platform/http/errors.js";
import { uuidv7 } from "../../../platform/ids.js";
import { getCompany } from "../../companies/index.js";
import { lockCompany, openFiscalYears } from "../fiscal-years/repository.js";
import {
  contactSubaccountSlots,
  findParentAccounts,
  insertSubaccounts,
  type SubaccountInsert,
} from "./repository.js";

/** PGC accounts of a contact's subaccounts: 430 Clientes, 400 Proveedores. */
const CUSTOMER_ACCOUNT = "430";
const SUPPLIER_ACCOUNT = "400";

const ACCOUNTS_BY_CONTACT_TYPE = {
  customer: [CUSTOMER_ACCOUNT],
  supplier: [SUPPLIER_ACCOUNT],
  both: [CUSTOMER_ACCOUNT, SUPPLIER_ACCOUNT],
} as const;

export interface LedgerContact {
  id: string;
  companyId: string;
  contactType: "customer" | "supplier" | "both";
  name: string;
}

/**
 * Gives a customer a subaccount under 430 and a supplier one under 400 (both: both) in every open
 * fiscal year of its company: the account followed by the next number, zero-padded to the company's
 * subaccount length (4300000001, 4300000002...). A contact that already has one under that account
 * in that year keeps it. Runs in the caller's transaction when ctx.db is one.
 */
export async function ensureContactSubaccounts(ctx: AuthedCtx, contact: LedgerContact): Promise<void> {
  const company = await getCompany(ctx, contact.companyId);
  const length = company.subaccountLength;
  const accountCodes = ACCOUNTS_BY_CONTACT_TYPE[contact.contactType];
  await inTransaction(ctx.db, async (tx) => {
    await lockCompany(tx, "subaccounts", company.id);
    const years = await openFiscalYears(tx, company.id);
    if (!years.length) return;
    const slots = await contactSubaccountSlots(tx, {
      fiscalYearIds: years.map((y) => y.id),
      accountCodes: [...accountCodes],
      contactId: contact.id,
      length,
    });
    const planned: SubaccountInsert[] = [];
    for (const year of years) {
      for (const accountCode of accountCodes) {
        const slot = slots.find((s) => s.fiscalYearId === year.id && s.accountCode === accountCode);
        if (slot?.hasContact) continue;
        const next = (slot?.highest ? BigInt(slot.highest.slice(accountCode.length)) : 0n) + 1n;
        const code = accountCode + next.toString().padStart(length - accountCode.length, "0");
        if (code.length > length) {
          throw new ConflictError(
            `Fiscal year ${year.code} has no free subaccount number under ${accountCode}`,
          );
        }
        planned.push({
          id: uuidv7(),
          companyId: company.id,
          fiscalYearId: year.id,
          accountCode,
          code,
          name: contact.name,
          contactId: contact.id,
        });
      }
    }
    if (!planned.length) return;
    const parentOf = await findParentAccounts(tx, planned);
    await insertSubaccounts(
      tx,
      planned.map((p) => ({ ...p, accountCode: parentOf(p.fiscalYearId, p.code) ?? p.accountCode })),
    );
  });
}
