import { addDays, today } from "../../platform/dates.js";
import { type AuthedCtx, inCtxTransaction } from "../../platform/http/context.js";
import { dec, toMoney } from "../../platform/money.js";
import { createBankAccount, listBankAccounts } from "./bank-accounts/service.js";
import { addMonthsClamped } from "./budgets/recurrence.js";
import { createBudget } from "./budgets/service.js";
import { listOpenDues, payDue } from "./payments/service.js";

export interface TreasuryDemoResult {
  created: boolean;
  bankAccounts: number;
  budgetLines: number;
  payments: number;
}

/** The receipts and supplier payments the demo settles by hand (the oldest ones); the rest stay open. */
const RECEIPTS_PAID = 12;
const SUPPLIER_PAYMENTS_PAID = 15;

/**
 * The demo company's treasury: two bank accounts (the first on the ledger demo's 5720000001, so its
 * entries make the opening balance), the treasury budget (monthly payroll and rent, quarterly VAT,
 * yearly corporate tax, from this month to the end of next year) and the oldest receipts and
 * supplier payments due settled, some with bank fees and one partly. One transaction; does nothing
 * when the company has bank accounts.
 */
export async function loadTreasuryDemo(ctx: AuthedCtx, companyId: string): Promise<TreasuryDemoResult> {
  return inCtxTransaction(ctx, async (tx) => {
    const existing = await listBankAccounts(tx, { companyId, includeInactive: true, limit: 1, offset: 0 });
    if (existing.total > 0) return { created: false, bankAccounts: 0, budgetLines: 0, payments: 0 };

    const main = await createBankAccount(tx, {
      companyId,
      name: "Banco Santander c/c",
      iban: "ES9121000418450200051332",
      bic: "BSCHESMMXXX",
      subaccountCode: "5720000001",
    });
    const second = await createBankAccount(tx, {
      companyId,
      name: "CaixaBank c/c",
      iban: "ES7921000813610123456789",
      bic: "CAIXESBBXXX",
    });

    const now = today();
    const year = Number(now.slice(0, 4));
    const month = now.slice(0, 7);
    const until = `${year + 1}-12-31`;
    const nextQuarterDay = [1, 4, 7, 10]
      .map((m) => `${year}-${String(m).padStart(2, "0")}-20`)
      .concat(`${year + 1}-01-20`)
      .find((d) => d >= `${month}-01`)!;
    const lines = [
      {
        category: "nominas",
        description: "Nóminas de la plantilla",
        date: `${month}-28`,
        amount: "-18500.00",
        recurrence: "monthly" as const,
        bankAccountId: main.id,
      },
      {
        category: "seguridad_social",
        description: "Seguros sociales (TC1)",
        date: addMonthsClamped(`${month}-30`, 1),
        amount: "-5900.00",
        recurrence: "monthly" as const,
        bankAccountId: main.id,
      },
      {
        category: "alquiler",
        description: "Alquiler de oficinas",
        date: `${month}-05`,
        amount: "-2400.00",
        recurrence: "monthly" as const,
        bankAccountId: second.id,
      },
      {
        category: "impuestos",
        description: "IVA trimestral (modelo 303)",
        date: nextQuarterDay,
        amount: "-7800.00",
        recurrence: "quarterly" as const,
        bankAccountId: main.id,
      },
      {
        category: "impuestos",
        description: "Impuesto sobre sociedades (modelo 200)",
        date: `${year + 1}-07-25`,
        amount: "-9600.00",
        recurrence: "none" as const,
        bankAccountId: main.id,
      },
      {
        category: "financiacion",
        description: "Cobro de subvención concedida",
        date: addDays(now, 45),
        amount: "15000.00",
        recurrence: "none" as const,
        bankAccountId: second.id,
      },
    ];
    for (const line of lines)
      await createBudget(tx, { companyId, ...line, until: line.recurrence === "none" ? null : until });

    let payments = 0;
    const receipts = (await listOpenDues(tx, { companyId, direction: "sale" })).filter(
      (d) => d.dueDate <= now,
    );
    for (const [i, due] of receipts.slice(0, RECEIPTS_PAID).entries()) {
      // The last one is paid in part; every third transfer costs a bank fee.
      const amount = i === RECEIPTS_PAID - 1 ? toMoney(dec(due.openAmount).div(2)) : due.openAmount;
      await payDue(tx, {
        dueId: due.id,
        date: due.dueDate,
        amount,
        bankAccountId: main.id,
        fees: i % 3 === 2 ? "1.20" : undefined,
      });
      payments += 1;
    }
    const payables = (await listOpenDues(tx, { companyId, direction: "purchase" })).filter(
      (d) => d.dueDate <= now,
    );
    for (const due of payables.slice(0, SUPPLIER_PAYMENTS_PAID)) {
      await payDue(tx, {
        dueId: due.id,
        date: due.dueDate,
        amount: due.openAmount,
        bankAccountId: second.id,
      });
      payments += 1;
    }
    return { created: true, bankAccounts: 2, budgetLines: lines.length, payments };
  });
}
