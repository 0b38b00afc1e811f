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
/** Early in the year: the mini excavator (capital goods), which leaves the first quarter's VAT to compensate. */
const MACHINE_AT = 2;
/** The office's landlord (by position among the suppliers that are companies): a monthly invoice with the rent withholding. */
const LANDLORD = 1;
/** The supplier from another EU member state: intra-EU acquisitions (self-assessed VAT, modelo 349). */
const isEuSupplier = (c: ContactRow) => c.country !== "ES";

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

const daysSince = (start: string, end: string) =>
  Math.max(0, Math.round((Date.parse(end) - Date.parse(start)) / 86_400_000));

function spread(year: number, end: string, i: number, n: number): string {
  const start = `${year}-01-01`;
  const span = Math.max(0, Math.round((Date.parse(end) - Date.parse(start)) / 86_400_000));
  return addDays(start, Math.floor((i * span) / n));
}

/** A supplier who is a person (a DNI, not a company's CIF): the professional. */
const isPerson = (c: ContactRow) => /^\d/.test(c.taxId ?? "");

/**
 * The mini excavator, priced so that its VAT exceeds the first quarter's net VAT by about a fifth:
 * the demo's invoices are spread from 1 January to today, so the fewer the days, the more of them
 * fall in the first quarter (9,300,000 / 327 days gives 28,400 EUR).
 */
function machine(daysOfYear: number): LineInput {
  const price = Math.round(9_300_000 / Math.max(daysOfYear, 90) / 100) * 100;
  return {
    description: "Miniexcavadora de cadenas 3,5 t con martillo hidráulico (bien de inversión)",
    quantity: "1",
    unitPrice: `${price}.00`,
    taxCode: "IVA21BI",
    accountCode: "213",
  };
}

const officeRent = (month: number, year: number): LineInput => ({
  description: `Alquiler de oficinas, Calle Mayor 14, 2.º: ${new Date(Date.UTC(year, month, 1)).toLocaleString("es-ES", { month: "long", timeZone: "UTC" })} de ${year}`,
  quantity: "1",
  unitPrice: "2400.00",
  taxCode: "IVA21",
  irpfCode: "IRPF19A",
  accountCode: "621",
});

/**
 * The demo company's purchases through the documents engine: 2 estimates (one became an order), 3
 * orders, 3 delivery notes (one partly serving an order, one turned into a supplier invoice) and 120
 * supplier invoices over the current year — most approved (registration number, entry, payments
 * due), the last ones pending, one rejected, one from a professional with 15 % IRPF (left out of
 * modelo 347), some from a retailer under recargo de equivalencia, the office rent every month with
 * the 19 % rent withholding (modelo 115), a mini excavator bought in January (capital goods: the
 * first quarter's VAT is to compensate) and intra-EU acquisitions from a German supplier (349). Loaded after the sales demo
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
    const landlord = suppliers.filter((c) => !isEuSupplier(c))[LANDLORD];
    const products: Product[] = (await listProducts(tx, { companyId, limit: 10_000, offset: 0 })).rows;
    if (!professional || !landlord || !products.length) return { created: false, invoices: 0 };

    let count = 0;
    let month = -1;
    for (let i = 0; i < INVOICES; i++) {
      const date = spread(year, end, i, INVOICES);
      const m = Number(date.slice(5, 7)) - 1;
      const rent = m !== month && i !== PROFESSIONAL_AT && i !== MACHINE_AT;
      if (rent) month = m;
      let supplier = rent ? landlord : suppliers[(i * 7) % suppliers.length];
      if (i === PROFESSIONAL_AT) supplier = professional;
      let lines: LineInput[];
      if (rent) lines = [officeRent(m, year)];
      else if (i === MACHINE_AT) lines = [machine(daysSince(`${year}-01-01`, end))];
      else if (i === PROFESSIONAL_AT)
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
      // Goods from the EU supplier are intra-EU acquisitions: VAT self-assessed on both sides.
      if (isEuSupplier(supplier)) lines = lines.map((l) => ({ ...l, taxCode: "IC21" }));
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

    count += await loadCommercialDocuments(
      tx,
      companyId,
      suppliers.filter((c) => !isEuSupplier(c)),
      products,
      end,
      year,
    );
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
