import type { Db } from "./client.js";

/**
 * The tables whose lookups a transaction remembers (ADR 047): rows read again and again while one
 * transaction posts many entries or invoices (the company, its document settings, fiscal years,
 * journals and 303s).
 */
export type LookupTable = "companies" | "document_settings" | "fiscal_years" | "journals" | "tax_returns";

/** One transaction's remembered lookups: per table, per key, what the lookup returned. */
export type TxLookups = Map<LookupTable, Map<string, unknown>>;

/** The lookups of each transaction object `inTransaction` made (its savepoints share the outermost's). */
const lookupsOf = new WeakMap<Db, TxLookups>();

/** Whether `db` is a transaction that remembers lookups (made by `inTransaction`). */
export function remembersLookups(db: Db): boolean {
  return lookupsOf.has(db);
}

/** Called by `inTransaction` for each transaction object; nested ones share `outer`'s map. */
export function shareLookups(tx: Db, outer: Db): TxLookups {
  const lookups = lookupsOf.get(outer) ?? new Map();
  lookupsOf.set(tx, lookups);
  return lookups;
}

/**
 * What `load` returns for `key`, read once per transaction: inside an `inTransaction`, the first
 * call runs `load` and the later ones (savepoints included) get the same value until a write of the
 * same transaction to `table` forgets it. Outside a transaction every call runs `load`. The value
 * is frozen: a caller changing it would change what the next caller reads.
 */
export async function txLookup<T>(
  db: Db,
  table: LookupTable,
  key: string,
  load: () => Promise<T>,
): Promise<T> {
  const lookups = lookupsOf.get(db);
  if (!lookups) return load();
  let byKey = lookups.get(table);
  if (byKey?.has(key)) return byKey.get(key) as T;
  const value = await load();
  if (value && typeof value === "object") Object.freeze(value);
  byKey ??= lookups.get(table) ?? new Map();
  lookups.set(table, byKey);
  byKey.set(key, value);
  return value;
}

/** Every write to `table` in the transaction `db` (when one) calls this: its lookups are read again. */
export function forgetLookups(db: Db, table: LookupTable): void {
  lookupsOf.get(db)?.delete(table);
}

/**
 * A write whose new values the caller knows (a counter it just advanced): each remembered value of
 * `table` becomes `update(value)` instead of being read again.
 */
export function updateLookups(db: Db, table: LookupTable, update: (value: unknown) => unknown): void {
  const byKey = lookupsOf.get(db)?.get(table);
  if (!byKey) return;
  for (const [key, value] of byKey) {
    const updated = update(value);
    if (updated && typeof updated === "object") Object.freeze(updated);
    byKey.set(key, updated);
  }
}
