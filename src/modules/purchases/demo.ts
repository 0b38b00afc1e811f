import { addDays, today } from "../../platform/dates.js";
import { type AuthedCtx, inCtxTransaction } from "../../platform/http/context.js";
import { type ContactRow, listContacts } from "../clients/index.js";
import {
  approvePurchaseInvoiceInTransaction,
  convertDocuments,
  createDocument,
  type DocumentScope,
  insertDocumentInTransaction,
  type LineInput,
  listDocuments,
  rejectPurchaseInvoice,
  setDocumentState,
} from "../documents/index.js";
import { listProducts } from "../products/index.js";

/** 119 supplier invoices registered directly and one from a delivery note: 120. */
const INVOICES = 119;
/** The last invoices of the year wait for approval; one of them is rejected. */
const APPROVED = 110;
const REJECTED = 117;
/** Where in the year the professional's invoice (with IRPF) falls. */
const PROFESSIONAL_AT = 60;

/** Services bought without a product: [description, PGC account, price]. */
const SERVICES: [string, string, string][] = [
  ["Alquiler de grúa autopropulsada, jornada", "621", "640.00"],
  ["Transporte de material a obra", "624", "185.00"],
  ["Suministro eléctrico de obra, periodo mensual", "628", "312.40"],
  ["Reparación de hormigonera", "622", "236.00"],
];

const scope = (kind: DocumentScope["kind"]): DocumentScope => ({ direction: "purchase", kind });

export interface PurchasesDemoResult {
  created: boolean;
  invoices: number;
}

type Product = { id: string; costPrice: string };

function productLines(products: Product[], seed: number, count: number, target: number): LineInput[] {
  return Array.from({ length: count }, (_, k) => {
    const product = products[(seed * 11 + k * 17) % products.length];
    const price = Number(product.costPrice) || 1;
    const quantity = Math.max(1, Math.round((target * (0.6 + ((seed + k) % 5) * 0.2)) / price));
    return { productId: product.id, quantity: String(quantity) };
  });
}

function spread(year: number, end: string, i: number, n: number): string {
  const start = `${year}-01-01`;
  const span = Math.max(0, Math.round((Date.parse(end) - Date.parse(start)) / 86_400_000));
  return addDays(start, Math.floor((i * span) / n));
}

/** A supplier who is a person (a DNI, not a company's CIF): the professional. */
const isPerson = (c: ContactRow) => /^\d/.test(c.taxId ?? "");

/**
 * The demo company's purchases through the documents engine: 2 estimates (one became an order), 3
 * orders, 3 delivery notes (one partly serving an order, one turned into a supplier invoice) and 120
 * supplier invoices over the current year — most approved (registration number, entry, payments
 * due), the last ones pending, one rejected, one from a professional with 15 % IRPF (left out of
 * modelo 347) and some from a retailer under recargo de equivalencia. Loaded after the sales demo
 * (the fiscal year exists); one transaction; does nothing when the company has purchase documents.
 */
export async function loadPurchasesDemo(ctx: AuthedCtx, companyId: string): Promise<PurchasesDemoResult> {
  return inCtxTransaction(ctx, async (tx) => {
    const page = { companyId, limit: 1, offset: 0 };
    const existing =
      (await listDocuments(tx, scope("invoice"), page)).total +
      (await listDocuments(tx, scope("estimate"), page)).total;
    if (existing > 0) return { created: false, invoices: 0 };

    const end = today();
    const year = Number(end.slice(0, 4));
    const all = (await listContacts(tx, { companyId, contactType: "supplier", limit: 10_000, offset: 0 }))
      .rows;
    const professional = all.find(isPerson);
    const suppliers = all.filter((c) => !isPerson(c));
    const products: Product[] = (await listProducts(tx, { companyId, limit: 10_000, offset: 0 })).rows;
    if (!professional || !suppliers.length || !products.length) return { created: false, invoices: 0 };

    let count = 0;
    for (let i = 0; i < INVOICES; i++) {
      const date = spread(year, end, i, INVOICES);
      const supplier = i === PROFESSIONAL_AT ? professional : suppliers[(i * 7) % suppliers.length];
      let lines: LineInput[];
      if (i === PROFESSIONAL_AT)
        lines = [
          {
            description: "Dirección de ejecución de obra y coordinación de seguridad y salud",
            quantity: "1",
            unitPrice: "3500.00",
            taxCode: "IVA21",
            irpfCode: "IRPF15",
            accountCode: "623",
          },
        ];
      else if (i % 4 === 3) {
        const [description, accountCode, unitPrice] = SERVICES[i % SERVICES.length];
        lines = [{ description, accountCode, unitPrice, quantity: String(1 + (i % 3)), taxCode: "IVA21" }];
      } else lines = productLines(products, i, 1 + (i % 3), 500);
      const invoice = await insertDocumentInTransaction(tx, scope("invoice"), {
        companyId,
        contactId: supplier.id,
        date,
        supplierNumber: `${String(i + 1).padStart(4, "0")}/${year}`,
        lines,
      });
      count += 1;
      if (i < APPROVED) await approvePurchaseInvoiceInTransaction(tx, invoice.id);
      else if (i === REJECTED)
        await rejectPurchaseInvoice(tx, invoice.id, "Los precios no coinciden con el pedido: pedido abono");
    }

    count += await loadCommercialDocuments(tx, companyId, suppliers, products, end, year);
    return { created: true, invoices: count };
  });
}

/** Estimates, orders and delivery notes of the last weeks; returns the invoices it created (one). */
async function loadCommercialDocuments(
  tx: AuthedCtx,
  companyId: string,
  suppliers: ContactRow[],
  products: Product[],
  end: string,
  year: number,
): Promise<number> {
  const day = (n: number) => addDays(end, -n);
  const make = (kind: DocumentScope["kind"], n: number, date: string, extra: { validUntil?: string } = {}) =>
    createDocument(tx, scope(kind), {
      companyId,
      contactId: suppliers[n % suppliers.length].id,
      date,
      lines: productLines(products, 300 + n, 2, 800),
      ...extra,
    });
  const convert = (
    fromKind: DocumentScope["kind"],
    toKind: DocumentScope["kind"],
    id: string,
    date: string,
  ) => convertDocuments(tx, { direction: "purchase", fromKind, toKind, sourceIds: [id], date });

  const accepted = await make("estimate", 0, day(25), { validUntil: day(-5) });
  const waiting = await make("estimate", 1, day(15), { validUntil: day(-15) });
  await setDocumentState(tx, scope("estimate"), accepted.id, "abierto");
  await setDocumentState(tx, scope("estimate"), waiting.id, "abierto");

  await convert("estimate", "order", accepted.id, day(20));
  const delivered = await make("order", 1, day(14));
  const partly = await make("order", 2, day(9));
  await convert("order", "delivery_note", delivered.id, day(7));
  const first = partly.lines[0];
  await convertDocuments(tx, {
    direction: "purchase",
    fromKind: "order",
    toKind: "delivery_note",
    sourceIds: [partly.id],
    lines: [{ lineId: first.id, quantity: String(Math.max(1, Math.floor(Number(first.quantity) / 2))) }],
    date: day(4),
  });
  const note = await make("delivery_note", 3, day(2));
  await convertDocuments(tx, {
    direction: "purchase",
    fromKind: "delivery_note",
    toKind: "invoice",
    sourceIds: [note.id],
    supplierNumber: `A-${year}-0412`,
    date: day(1),
  });
  return 1;
}
