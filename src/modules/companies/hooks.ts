import type { Db } from "../../platform/db/client.js";

/** Work other modules do for every new company (its defaults), inside the transaction that creates it. */
export type CompanyCreatedHook = (tx: Db, companyId: string) => Promise<void>;

const hooks = new Set<CompanyCreatedHook>();

/**
 * Registers a hook run for every company created from now on, in the creating transaction: if it
 * throws, the company is not created. Registering the same function twice runs it once.
 */
export function onCompanyCreated(fn: CompanyCreatedHook): void {
  hooks.add(fn);
}

/** Runs the registered hooks in registration order. */
export async function runCompanyCreatedHooks(tx: Db, companyId: string): Promise<void> {
  for (const hook of hooks) await hook(tx, companyId);
}
