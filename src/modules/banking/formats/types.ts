/** A bank statement as read from a Norma 43 or CAMT.053 file, before it meets the database. */

export interface ParsedMovement {
  /** Where it is in the file: "line 12" (Norma 43) or "Stmt 1, Ntry 3" (CAMT.053). */
  position: string;
  operationDate: string;
  valueDate: string;
  /** Signed amount, 2 decimals: credits (money in) positive, debits negative. */
  amount: string;
  /** Norma 43 common concept (01 cheques ... 99 other); CAMT: the bank transaction code. */
  commonConcept: string;
  ownConcept: string;
  document: string;
  reference1: string;
  reference2: string;
  /** Free texts: Norma 43 records 23, CAMT remittance information, counterparty names and ids. */
  concepts: string[];
  /** Norma 43 record 24 / CAMT instructed amount in another currency. */
  foreignCurrency: string | null;
  foreignAmount: string | null;
}

export interface ParsedStatement {
  position: string;
  /** Norma 43: bank + office + account (18 digits); CAMT: the IBAN. */
  account: string;
  accountName: string;
  currency: string;
  dateFrom: string;
  dateTo: string;
  openingBalance: string;
  closingBalance: string;
  debitCount: number;
  debitTotal: string;
  creditCount: number;
  creditTotal: string;
  movements: ParsedMovement[];
}

export type StatementFormat = "norma43" | "camt053";

export interface ParsedFile {
  format: StatementFormat;
  statements: ParsedStatement[];
}
