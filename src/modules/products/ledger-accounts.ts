import { BadRequestError, type FieldError } from "../../platform/http/errors.js";

const GROUP = { salesAccount: "7", purchasesAccount: "6" } as const;
const API_NAME = { salesAccount: "sales_account", purchasesAccount: "purchases_account" } as const;

/**
 * A product's or family's ledger accounts: PGC 2007 codes of 3 or 4 digits, of group 7 for sales
 * and group 6 for purchases (null: fall back to the family's, then the company's). 400 otherwise.
 */
export function assertLedgerAccounts(values: {
  salesAccount?: string | null;
  purchasesAccount?: string | null;
}) {
  const errors: FieldError[] = [];
  for (const key of ["salesAccount", "purchasesAccount"] as const) {
    const code = values[key];
    if (code != null && !new RegExp(`^${GROUP[key]}\\d{2,3}$`).test(code))
      errors.push({
        path: API_NAME[key],
        message: `must be a PGC account code of 3 or 4 digits of group ${GROUP[key]}`,
      });
  }
  if (errors.length) throw new BadRequestError("Invalid ledger account", errors);
}
