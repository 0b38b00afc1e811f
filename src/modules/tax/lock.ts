import type { Db } from "../../platform/db/client.js";
import { ConflictError } from "../../platform/http/errors.js";
import { onEntryPosting } from "../accounting/index.js";
import { onInvoiceFinalized } from "../documents/index.js";
import { findLockingReturn } from "./returns/repository.js";

/**
 * The period lock: once a 303 is confirmed, nothing dated inside its period is issued, approved,
 * rectified or posted (invoices, receipts and payments, manual entries) until an admin reopens it.
 * The settlement entry of the return itself (source tax_return) is the one posting let through.
 */
export async function assertPeriodOpen(db: Db, companyId: string, date: string): Promise<void> {
  const locking = await findLockingReturn(db, companyId, date);
  if (!locking) return;
  throw new ConflictError(
    `${date} is inside VAT period ${locking.period} ${locking.year}, closed by the ${locking.estado} modelo 303 ` +
      `${locking.id}: an admin must reopen that return (POST /api/tax/returns/${locking.id}/reopen) before anything ` +
      "is dated in it, or date the document in an open period",
    { tax_return_id: locking.id, period: locking.period, year: locking.year },
  );
}

let registered = false;

/** Registers the lock on the documents engine and the ledger (once, when tax is imported). */
export function registerPeriodLock(): void {
  if (registered) return;
  registered = true;
  onInvoiceFinalized((tx, invoice) =>
    assertPeriodOpen(tx.db, invoice.companyId, invoice.operationDate ?? invoice.issueDate),
  );
  onEntryPosting((tx, entry) =>
    entry.sourceType === "tax_return" ? Promise.resolve() : assertPeriodOpen(tx, entry.companyId, entry.date),
  );
}
