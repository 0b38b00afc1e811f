import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../../platform/db/client.js";
import { txLookup } from "../../../platform/db/tx-lookups.js";
import { documentSeries, documentSettings, paymentTerms, taxCodes } from "../tables.js";

/** The company configuration a document reads: series, tax codes, payment terms and settings. */

export type SeriesRow = typeof documentSeries.$inferSelect;
export type TaxCodeRow = typeof taxCodes.$inferSelect;
export type PaymentTermRow = typeof paymentTerms.$inferSelect;
export type SettingsRow = typeof documentSettings.$inferSelect;

export async function findSeriesByCode(db: Db, companyId: string, code: string) {
  const [row] = await db
    .select()
    .from(documentSeries)
    .where(and(eq(documentSeries.companyId, companyId), eq(documentSeries.code, code)))
    .limit(1);
  return row;
}

export async function findSeriesById(db: Db, id: string) {
  const [row] = await db.select().from(documentSeries).where(eq(documentSeries.id, id)).limit(1);
  return row;
}

/** The company's first active series of a kind (R for rectifying invoices...). */
export async function findSeriesOfKind(db: Db, companyId: string, kind: SeriesRow["kind"]) {
  const [row] = await db
    .select()
    .from(documentSeries)
    .where(
      and(
        eq(documentSeries.companyId, companyId),
        eq(documentSeries.kind, kind),
        eq(documentSeries.isActive, true),
      ),
    )
    .orderBy(documentSeries.code)
    .limit(1);
  return row;
}

export async function findTaxCodes(db: Db, companyId: string, codes: string[]) {
  if (!codes.length) return new Map<string, TaxCodeRow>();
  const rows = await db
    .select()
    .from(taxCodes)
    .where(and(eq(taxCodes.companyId, companyId), inArray(taxCodes.code, [...new Set(codes)])));
  return new Map(rows.map((r) => [r.code, r]));
}

export async function findTaxCodesByIds(db: Db, ids: string[]) {
  if (!ids.length) return new Map<string, TaxCodeRow>();
  const rows = await db
    .select()
    .from(taxCodes)
    .where(inArray(taxCodes.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, r]));
}

export async function findPaymentTerm(db: Db, id: string) {
  const [row] = await db.select().from(paymentTerms).where(eq(paymentTerms.id, id)).limit(1);
  return row;
}

/** The company's document settings, read once per transaction (ADR 047); the defaults when it has no row yet. */
export function settingsOf(db: Db, companyId: string): Promise<SettingsRow> {
  return txLookup(db, "document_settings", companyId, () => readSettings(db, companyId));
}

async function readSettings(db: Db, companyId: string): Promise<SettingsRow> {
  const [row] = await db.select().from(documentSettings).where(eq(documentSettings.companyId, companyId));
  return (
    row ?? {
      companyId,
      taxRegime: "general",
      autoPosting: true,
      salesAccount: "700",
      purchasesAccount: "600",
      salesReturnsAccount: null,
      suppliedAccount: "555",
      updatedAt: new Date(0),
    }
  );
}
