import { addDays, today } from "../../platform/dates.js";
import type { AuthedCtx } from "../../platform/http/context.js";
import { bankAccountsOfCompany, createBankAccount, listOpenDues } from "../treasury/index.js";
import type { Norma43MovementInput } from "./formats/norma43-write.js";
import { writeNorma43 } from "./formats/norma43-write.js";
import { companyHasImports } from "./imports/repository.js";
import { importStatement } from "./imports/service.js";
import { autoMatch } from "./movements/service.js";

/** The demo's bank account when the company has none (a valid Spanish IBAN). */
const DEMO_IBAN = "ES7921000813610123456789";

export interface BankingDemoResult {
  created: boolean;
  movements: number;
  reconciled: number;
  suggested: number;
}

/**
 * The demo's bank statement: a Norma 43 file generated from the company's open customer receipts
 * already due — most paid by transfer with the invoice code, the customer's name and tax id in the
 * concept (auto-matched), one in eight with only the amount (left as a suggestion), one in ten not
 * paid yet — plus bank fees on some transfers and a monthly maintenance fee; then imported and
 * auto-matched like a user would. Idempotent: nothing happens when the company has imports.
 */
export async function loadBankingDemo(ctx: AuthedCtx, companyId: string): Promise<BankingDemoResult> {
  if (await companyHasImports(ctx.db, companyId))
    return { created: false, movements: 0, reconciled: 0, suggested: 0 };
  const bank =
    (await bankAccountsOfCompany(ctx, companyId)).find((b) => b.isActive && b.iban.startsWith("ES")) ??
    (await createBankAccount(ctx, { companyId, name: "Cuenta corriente demo", iban: DEMO_IBAN }));
  const now = today();
  const receipts = (await listOpenDues(ctx, { companyId, direction: "sale" })).filter(
    (r) => r.dueDate <= now && !r.openAmount.startsWith("-"),
  );
  const movements: Norma43MovementInput[] = [];
  receipts.forEach((r, i) => {
    if (i % 10 === 9) return; // not paid yet: it stays overdue
    const day = addDays(r.dueDate, i % 4) > now ? r.dueDate : addDays(r.dueDate, i % 4);
    const byAmountOnly = i % 8 === 7;
    movements.push({
      operationDate: day,
      valueDate: day,
      amount: r.openAmount,
      commonConcept: "04",
      ownConcept: "001",
      reference2: byAmountOnly ? "" : r.documentCode.replace(/[^A-Z0-9]/gi, "").slice(0, 16),
      concepts: byAmountOnly
        ? ["TRANSFERENCIA RECIBIDA"]
        : [
            `TRANSF. ${r.documentCode}`,
            r.contactName.toUpperCase().slice(0, 38),
            r.contactTaxId ?? "",
          ].filter(Boolean),
    });
    if (i % 5 === 0)
      movements.push({
        operationDate: day,
        amount: "-2.50",
        commonConcept: "17",
        ownConcept: "002",
        concepts: ["COMISION TRANSFERENCIA"],
      });
  });
  const dates = movements.map((m) => m.operationDate).sort();
  const from = dates[0] ?? now;
  const to = dates[dates.length - 1] ?? now;
  for (let month = from.slice(0, 7); month <= to.slice(0, 7); month = addDays(`${month}-28`, 5).slice(0, 7))
    movements.push({
      operationDate: `${month}-28`,
      amount: "-15.00",
      commonConcept: "17",
      ownConcept: "001",
      concepts: ["COMISION MANTENIMIENTO"],
    });
  movements.sort((a, b) => a.operationDate.localeCompare(b.operationDate));
  const file = writeNorma43([
    {
      bank: bank.iban.slice(4, 8),
      office: bank.iban.slice(8, 12),
      account: bank.iban.slice(14, 24),
      dateFrom: `${from.slice(0, 7)}-01`,
      dateTo: to,
      openingBalance: "25000.00",
      name: bank.name.toUpperCase(),
      movements,
    },
  ]);
  const imported = await importStatement(ctx, {
    bankAccountId: bank.id,
    fileName: "demo-extracto.n43",
    content: file,
  });
  const matched = await autoMatch(ctx, { companyId, bankAccountId: bank.id });
  return {
    created: true,
    movements: imported.imported,
    reconciled: matched.applied.length,
    suggested: matched.suggested - matched.applied.length,
  };
}
