import { addDays, today } from "../../platform/dates.js";
import { type AuthedCtx, inCtxTransaction } from "../../platform/http/context.js";
import { createFiscalYear, listFiscalYears } from "../accounting/index.js";
import { type ContactRow, listContacts } from "../clients/index.js";
import {
  convertDocuments,
  createDocument,
  type DocumentScope,
  insertDocumentInTransaction,
  issueSalesInvoiceInTransaction,
  type LineInput,
  listDocuments,
  rectifyInvoice,
  setDocumentState,
} from "../documents/index.js";
import { listProducts } from "../products/index.js";

/** 199 invoices in series A and one rectifying invoice in series R: 200 issued invoices. */
const INVOICES = 199;
/** Customers (by position among the company's customers) who buy every week: over 3,005.06 a year. */
const REGULARS = [0, 1, 2, 4, 5, 6, 8, 10];
/** The customer who rents the company's warehouse: a monthly invoice with the 19 % rent withholding. */
const TENANT = 12;
const RENT = "1200.00";
const MONTHS = [
  "enero",
  "febrero",
  "marzo",
  "abril",
  "mayo",
  "junio",
  "julio",
  "agosto",
  "septiembre",
  "octubre",
  "noviembre",
  "diciembre",
];

const scope = (kind: DocumentScope["kind"]): DocumentScope => ({ direction: "sale", kind });

export interface SalesDemoResult {
  created: boolean;
  invoices: number;
}

type Product = { id: string; salePrice: string };

/** Lines of `count` products picked by `seed`, each worth about `target` EUR before VAT. */
function productLines(products: Product[], seed: number, count: number, target: number): LineInput[] {
  return Array.from({ length: count }, (_, k) => {
    const product = products[(seed * 7 + k * 13) % products.length];
    const price = Number(product.salePrice) || 1;
    const quantity = Math.max(1, Math.round((target * (0.6 + ((seed + k) % 5) * 0.2)) / price));
    return { productId: product.id, quantity: String(quantity) };
  });
}

/** Issue dates of the year up to today, in order: invoice i of n. */
function spread(year: number, end: string, i: number, n: number): string {
  const start = `${year}-01-01`;
  const span = Math.max(0, Math.round((Date.parse(end) - Date.parse(start)) / 86_400_000));
  return addDays(start, Math.floor((i * span) / n));
}

async function ensureFiscalYear(ctx: AuthedCtx, companyId: string, year: number) {
  const years = await listFiscalYears(ctx, { companyId, limit: 100, offset: 0 });
  if (!years.rows.some((y) => y.code === String(year)))
    await createFiscalYear(ctx, {
      companyId,
      code: String(year),
      startDate: `${year}-01-01`,
      endDate: `${year}-12-31`,
    });
}

/**
 * The demo company's sales through the documents engine (real numbering, totals, entries and
 * receipts): 3 estimates, 2 orders (one from an estimate), 2 delivery notes (one partly serving an
 * order) and 200 issued invoices over the current year — eight regular customers over the modelo
 * 347 threshold (two retailers under recargo de equivalencia), a tenant billed monthly with the 19 %
 * rent withholding, occasional customers under the threshold, and one rectifying invoice. One
 * transaction; does nothing when the company already has sales documents.
 */
export async function loadSalesDemo(ctx: AuthedCtx, companyId: string): Promise<SalesDemoResult> {
  return inCtxTransaction(ctx, async (tx) => {
    const page = { companyId, limit: 1, offset: 0 };
    const existing =
      (await listDocuments(tx, scope("invoice"), page)).total +
      (await listDocuments(tx, scope("estimate"), page)).total;
    if (existing > 0) return { created: false, invoices: 0 };

    const end = today();
    const year = Number(end.slice(0, 4));
    await ensureFiscalYear(tx, companyId, year);
    const customers: ContactRow[] = (
      await listContacts(tx, { companyId, contactType: "customer", limit: 10_000, offset: 0 })
    ).rows;
    const products: Product[] = (await listProducts(tx, { companyId, limit: 10_000, offset: 0 })).rows;
    if (customers.length <= TENANT || !products.length) return { created: false, invoices: 0 };
    const regulars = REGULARS.map((i) => customers[i]);
    const occasional = customers.filter((_, i) => i !== TENANT && !REGULARS.includes(i));

    let issued = 0;
    let month = -1;
    let rectified: { id: string; lineId: string; quantity: string } | undefined;
    for (let i = 0; i < INVOICES; i++) {
      const date = spread(year, end, i, INVOICES);
      const m = Number(date.slice(5, 7)) - 1;
      let contactId: string;
      let lines: LineInput[];
      let regular = false;
      if (m !== month) {
        month = m;
        contactId = customers[TENANT].id;
        lines = [
          {
            description: `Alquiler nave almacén, Polígono Industrial Las Américas, nave 7: ${MONTHS[m]} de ${year}`,
            quantity: "1",
            unitPrice: RENT,
            taxCode: "IVA21",
            irpfCode: "IRPF19A",
            accountCode: "752",
          },
        ];
      } else if (i % 5 === 4) {
        contactId = occasional[Math.floor(i / 5) % occasional.length].id;
        lines = productLines(products, i, 1, 250);
      } else {
        contactId = regulars[i % regulars.length].id;
        regular = true;
        lines = productLines(products, i, 1 + (i % 3), 400);
      }
      const draft = await insertDocumentInTransaction(tx, scope("invoice"), {
        companyId,
        contactId,
        date,
        lines,
      });
      await issueSalesInvoiceInTransaction(tx, draft.id, { date });
      issued += 1;
      if (!rectified && regular && i >= 120)
        rectified = {
          id: draft.id,
          lineId: draft.lines[0].id,
          quantity: String(Math.max(1, Math.floor(Number(lines[0].quantity) / 2))),
        };
    }

    if (rectified) {
      const draft = await rectifyInvoice(tx, "sale", rectified.id, {
        type: "I",
        reason: "Devolución de material defectuoso",
        lines: [{ lineId: rectified.lineId, quantity: rectified.quantity }],
        date: end,
      });
      await issueSalesInvoiceInTransaction(tx, draft.id, { date: end });
      issued += 1;
    }

    await loadCommercialDocuments(tx, companyId, regulars, products, end);
    return { created: true, invoices: issued };
  });
}

/** Estimates, orders and delivery notes of the last three weeks, one chain partly served. */
async function loadCommercialDocuments(
  tx: AuthedCtx,
  companyId: string,
  customers: ContactRow[],
  products: Product[],
  end: string,
) {
  const day = (n: number) => addDays(end, -n);
  const make = (kind: DocumentScope["kind"], n: number, date: string, extra: { validUntil?: string } = {}) =>
    createDocument(tx, scope(kind), {
      companyId,
      contactId: customers[n % customers.length].id,
      date,
      lines: productLines(products, 500 + n, 3, 600),
      ...extra,
    });

  const estimates = [];
  for (const [n, ago] of [
    [0, 20],
    [1, 12],
    [2, 5],
  ] as const)
    estimates.push(await make("estimate", n, day(ago), { validUntil: addDays(day(ago), 30) }));
  await setDocumentState(tx, scope("estimate"), estimates[0].id, "abierto");
  await setDocumentState(tx, scope("estimate"), estimates[1].id, "abierto");

  // The first estimate was accepted: it became an order.
  await convertDocuments(tx, {
    direction: "sale",
    fromKind: "estimate",
    toKind: "order",
    sourceIds: [estimates[0].id],
    date: day(10),
  });
  const order = await make("order", 3, day(8));
  await setDocumentState(tx, scope("order"), order.id, "abierto");
  // The first delivery served part of the second order's first line.
  const first = order.lines[0];
  await convertDocuments(tx, {
    direction: "sale",
    fromKind: "order",
    toKind: "delivery_note",
    sourceIds: [order.id],
    lines: [{ lineId: first.id, quantity: String(Math.max(1, Math.floor(Number(first.quantity) / 2))) }],
    date: day(3),
  });
  await make("delivery_note", 4, day(1));
}
