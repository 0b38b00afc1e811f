import { today } from "../../../platform/dates.js";
import type { Db } from "../../../platform/db/client.js";
import { allQueries } from "../../../platform/db/sql.js";
import { dec } from "../../../platform/money.js";
import type { DocumentKind } from "../tables.js";
import { type PaymentStatus, paymentStatus } from "../transitions.js";
import * as repo from "./repository.js";

export interface DocumentView extends repo.DocumentHeader {
  lines: repo.LineRow[];
  taxes: repo.TaxRow[];
  dues: repo.DueRow[];
  paymentStatus: PaymentStatus | null;
  sources: RelatedDocument[];
  targets: RelatedDocument[];
  rectifications: RelatedDocument[];
  /** The corrected invoice's code and date (rectifying invoices). */
  corrects: { id: string; code: string | null; issueDate: string } | null;
}

export interface RelatedDocument {
  id: string;
  kind: DocumentKind;
  code: string | null;
  estado: string;
}

/** Finalized invoices (issued, approved) have a payment status; other documents none. */
export function paymentStatusOf(
  d: repo.DocumentHeader,
  openDues: Array<{ dueDate: string; amount: string }>,
  rectified: boolean,
  asOf = today(),
): PaymentStatus | null {
  if (d.kind !== "invoice" || (d.estado !== "emitida" && d.estado !== "aprobada")) return null;
  return paymentStatus({
    total: d.total,
    paid: d.paidAmount,
    dueDates: openDues,
    today: asOf,
    fullyRectified: rectified,
  });
}

/** The whole document: lines, taxes, dues, and the documents it came from and went to. */
export async function loadDocumentView(db: Db, header: repo.DocumentHeader): Promise<DocumentView> {
  const [lines, taxes, dues, related, corrects] = await allQueries(db, [
    () => repo.linesOf(db, header.id),
    () => repo.taxesOf(db, header.id),
    () => repo.duesOf(db, header.id),
    () => repo.relatedDocuments(db, header.id),
    async () => (header.correctsDocumentId ? repo.findDocument(db, header.correctsDocumentId) : undefined),
  ]);
  const rectifications = related.rectifications.map(toRelated);
  const fullyRectified = rectifications.length > 0 && (await isFullyRectified(db, header, lines));
  return {
    ...header,
    lines,
    taxes,
    dues,
    paymentStatus: paymentStatusOf(
      header,
      dues.filter((d) => d.estado !== "pagado"),
      fullyRectified,
    ),
    sources: related.sources.map(toRelated),
    targets: related.targets.map(toRelated),
    rectifications,
    corrects: corrects ? { id: corrects.id, code: corrects.code, issueDate: corrects.issueDate } : null,
  };
}

const toRelated = (r: { id: string; kind: DocumentKind; code: string | null; estado: string }) => ({
  id: r.id,
  kind: r.kind,
  code: r.code,
  estado: r.estado,
});

/** An invoice whose every line is cancelled by issued rectifying lines. */
async function isFullyRectified(db: Db, header: repo.DocumentHeader, lines: repo.LineRow[]) {
  if (header.kind !== "invoice" || header.correctsDocumentId || !lines.length) return false;
  const corrected = await repo.rectifiedQuantities(
    db,
    lines.map((l) => l.id),
    { issuedOnly: true },
  );
  return lines.every((l) => dec(corrected.get(l.id)).neg().gte(l.quantity));
}
