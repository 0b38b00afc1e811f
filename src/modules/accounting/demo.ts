import { addDays } from "../../platform/dates.js";
import { type AuthedCtx, inCtxTransaction } from "../../platform/http/context.js";
import { Dec, toMoney } from "../../platform/money.js";
import { ensureContactSubaccounts, type LedgerContact } from "./chart/contact-subaccounts.js";
import { createSubaccount, listSubaccounts } from "./chart/service.js";
import { createEntry, listEntries } from "./entries/service.js";
import { createFiscalYear, listFiscalYears } from "./fiscal-years/service.js";

const DEMO_YEAR = { code: "2026", startDate: "2026-01-01", endDate: "2026-12-31" };
const DEMO_ENTRIES = 500;
/** General subaccounts the demo entries post to (code of 10 digits under a PGC account). */
const GENERAL = {
  sales: { code: "7000000000", name: "Ventas de mercaderías" },
  purchases: { code: "6000000000", name: "Compras de mercaderías" },
  outputVat: { code: "4770000021", name: "IVA repercutido 21%" },
  inputVat: { code: "4720000021", name: "IVA soportado 21%" },
  bank: { code: "5720000001", name: "Banco demo c/c" },
};

/**
 * The demo company's books: fiscal year 2026 with its chart, the contacts' 430/400 subaccounts, the
 * general subaccounts the entries post to, and 500 entries (invoices issued and received with 21% VAT,
 * their collections and payments). Idempotent: what exists is kept, missing entries are added. One
 * transaction, as the other modules' demos: the company, its year and journal are read once in it
 * (ADR 047) instead of once per entry.
 */
export function loadLedgerDemo(
  ctx: AuthedCtx,
  companyId: string,
  contacts: readonly Omit<LedgerContact, "companyId">[],
): Promise<number> {
  return inCtxTransaction(ctx, (tx) => loadLedger(tx, companyId, contacts));
}

async function loadLedger(
  ctx: AuthedCtx,
  companyId: string,
  contacts: readonly Omit<LedgerContact, "companyId">[],
): Promise<number> {
  const years = await listFiscalYears(ctx, { companyId, limit: 100, offset: 0 });
  if (!years.rows.some((y) => y.code === DEMO_YEAR.code)) {
    await createFiscalYear(ctx, { companyId, ...DEMO_YEAR });
  }
  for (const c of contacts) {
    await ensureContactSubaccounts(ctx, { id: c.id, companyId, contactType: c.contactType, name: c.name });
  }
  const have = await listSubaccounts(ctx, {
    companyId,
    fiscalYearCode: DEMO_YEAR.code,
    limit: 10_000,
    offset: 0,
  });
  const codes = new Set(have.rows.map((s) => s.code));
  for (const s of Object.values(GENERAL)) {
    if (!codes.has(s.code)) await createSubaccount(ctx, { companyId, fiscalYearCode: DEMO_YEAR.code, ...s });
  }
  const customers = have.rows.filter((s) => s.code.startsWith("430")).map((s) => s.code);
  const suppliers = have.rows.filter((s) => s.code.startsWith("400")).map((s) => s.code);
  if (!customers.length || !suppliers.length) return 0;

  const existing = await listEntries(ctx, { companyId, fiscalYearCode: DEMO_YEAR.code, offset: 0, limit: 1 });
  let created = 0;
  for (let i = existing.total; i < DEMO_ENTRIES; i++) {
    await createEntry(ctx, {
      companyId,
      fiscalYearCode: DEMO_YEAR.code,
      ...demoEntry(i, customers, suppliers),
    });
    created += 1;
  }
  return created;
}

/** Entry i of the demo year: invoices issued and received (21% VAT) and their collections/payments. */
function demoEntry(i: number, customers: string[], suppliers: string[]) {
  const date = addDays(DEMO_YEAR.startDate, Math.floor((i * 364) / DEMO_ENTRIES));
  const base = new Dec(150 + ((i * 7919) % 4850)).plus(new Dec((i * 37) % 100).div(100));
  const vat = new Dec(toMoney(base.times("0.21")));
  const total = toMoney(base.plus(vat));
  const customer = customers[i % customers.length];
  const supplier = suppliers[i % suppliers.length];
  const n = String(i + 1).padStart(4, "0");
  switch (i % 4) {
    case 0:
      return {
        date,
        concept: `Factura emitida F2026-${n}`,
        lines: [
          { subaccountCode: customer, debit: total },
          { subaccountCode: GENERAL.sales.code, credit: toMoney(base) },
          { subaccountCode: GENERAL.outputVat.code, credit: toMoney(vat) },
        ],
      };
    case 1:
      return {
        date,
        concept: `Factura recibida R2026-${n}`,
        lines: [
          { subaccountCode: GENERAL.purchases.code, debit: toMoney(base) },
          { subaccountCode: GENERAL.inputVat.code, debit: toMoney(vat) },
          { subaccountCode: supplier, credit: total },
        ],
      };
    case 2:
      return {
        date,
        concept: `Cobro factura F2026-${n}`,
        lines: [
          { subaccountCode: GENERAL.bank.code, debit: total },
          { subaccountCode: customer, credit: total },
        ],
      };
    default:
      return {
        date,
        concept: `Pago factura R2026-${n}`,
        lines: [
          { subaccountCode: supplier, debit: total },
          { subaccountCode: GENERAL.bank.code, credit: total },
        ],
      };
  }
}
