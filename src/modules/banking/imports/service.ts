import { createHash } from "node:crypto";
import type { AuthedCtx } from "../../../platform/http/context.js";
import { inCtxTransaction } from "../../../platform/http/context.js";
import { BadRequestError } from "../../../platform/http/errors.js";
import { uuidv7 } from "../../../platform/ids.js";
import { type BankAccountRow, getBankAccount } from "../../treasury/index.js";
import { looksLikeCamt053, parseCamt053 } from "../formats/camt053.js";
import { StatementFormatError } from "../formats/format-error.js";
import { parseNorma43 } from "../formats/norma43.js";
import type { ParsedFile, ParsedMovement, ParsedStatement } from "../formats/types.js";
import { insertSuggestions } from "../movements/repository.js";
import { type MovementRow, suggestionsForNew } from "../movements/service.js";
import type { ImportRow, MovementInsert } from "./repository.js";
import * as repo from "./repository.js";

export type { ImportRow } from "./repository.js";

export interface ImportResult {
  /** The import saved now, or the earlier import of the same file. */
  import: ImportRow | null;
  alreadyImported: boolean;
  imported: number;
  skipped: number;
  suggested: number;
}

const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest("hex");

function parse(bytes: Buffer): ParsedFile {
  const camt = looksLikeCamt053(bytes);
  try {
    return camt ? parseCamt053(bytes) : parseNorma43(bytes);
  } catch (err) {
    if (!(err instanceof StatementFormatError)) throw err;
    throw new BadRequestError(
      `The file is not a valid ${camt ? "CAMT.053" : "Norma 43"} statement, nothing was imported: ${err.message}`,
      [{ path: err.where, message: err.problem }],
    );
  }
}

/** Norma 43 names an account by bank + office + account number: the IBAN without check digits. */
function norma43Key(iban: string): string | null {
  return iban.startsWith("ES") && iban.length === 24 ? iban.slice(4, 12) + iban.slice(14, 24) : null;
}

/** The statements of the file that belong to the bank account; refuses a file of other accounts. */
function statementsOf(file: ParsedFile, bank: BankAccountRow): ParsedStatement[] {
  const wanted = file.format === "norma43" ? norma43Key(bank.iban) : bank.iban;
  const mine = file.statements.filter((s) => s.account === wanted);
  if (!mine.length) {
    const found = [...new Set(file.statements.map((s) => s.account))].join(", ");
    throw new BadRequestError(
      `The file is for account ${found}, not for bank account ${bank.name} (${bank.iban}); nothing was imported`,
      [{ path: "bank_account_id", message: `the file holds account ${found}` }],
    );
  }
  const foreign = mine.find((s) => s.currency !== "EUR");
  if (foreign)
    throw new BadRequestError(
      `${foreign.position}: the statement is in ${foreign.currency}; only EUR accounts are kept`,
      [{ path: foreign.position, message: `currency ${foreign.currency} is not EUR` }],
    );
  return mine;
}

/**
 * A movement's identity on its bank account: dates, amount, concepts and references, and which
 * occurrence of that same content it is in the file (banks do charge the same fee twice a day).
 */
function dedupeKeys(movements: ParsedMovement[]): string[] {
  const seen = new Map<string, number>();
  return movements.map((m) => {
    const content = [
      m.operationDate,
      m.valueDate,
      m.amount,
      m.commonConcept,
      m.ownConcept,
      m.document,
      m.reference1,
      m.reference2,
      ...m.concepts,
    ].join("\u001f");
    const occurrence = (seen.get(content) ?? 0) + 1;
    seen.set(content, occurrence);
    return sha256(`${content}\u001e${occurrence}`);
  });
}

/**
 * Imports a Norma 43 or CAMT.053 file for a bank account: parsed and checked whole first (a bad
 * file is a 400 naming the line, nothing saved), the statements of that account kept, the
 * movements already imported skipped, the new ones saved with the matcher's suggestions — all in
 * one transaction. The same file again (same SHA-256) or one whose movements are all known saves
 * nothing and says so.
 */
export async function importStatement(
  ctx: AuthedCtx,
  input: { bankAccountId: string; fileName: string; content: Buffer },
): Promise<ImportResult> {
  const bank = await getBankAccount(ctx, input.bankAccountId);
  const file = parse(input.content);
  const statements = statementsOf(file, bank);
  const movements = statements.flatMap((s) => s.movements);
  const hash = sha256(input.content);

  const earlier = await repo.findImportBySha(ctx.db, bank.id, hash);
  if (earlier)
    return { import: earlier, alreadyImported: true, imported: 0, skipped: movements.length, suggested: 0 };

  const keys = dedupeKeys(movements);
  const known = await repo.existingDedupeKeys(ctx.db, bank.id, keys);
  const fresh = movements.map((m, i) => ({ m, key: keys[i]! })).filter(({ key }) => !known.has(key));
  if (!fresh.length)
    return { import: null, alreadyImported: true, imported: 0, skipped: movements.length, suggested: 0 };

  return inCtxTransaction(ctx, async (tx) => {
    const dates = statements.flatMap((s) => [s.dateFrom, s.dateTo]).sort();
    const saved = await repo.insertImport(tx.db, {
      companyId: bank.companyId,
      bankAccountId: bank.id,
      format: file.format,
      fileName: input.fileName.slice(0, 255),
      sha256: hash,
      statementCount: statements.length,
      dateFrom: dates[0]!,
      dateTo: dates[dates.length - 1]!,
      openingBalance: statements[0]!.openingBalance,
      closingBalance: statements[statements.length - 1]!.closingBalance,
      movementCount: movements.length,
      importedCount: fresh.length,
      skippedCount: movements.length - fresh.length,
      importedBy: ctx.actor.userId,
    });
    const now = new Date();
    const rows: MovementInsert[] = fresh.map(({ m, key }) => ({
      id: uuidv7(),
      companyId: bank.companyId,
      bankAccountId: bank.id,
      importId: saved.id,
      position: m.position,
      operationDate: m.operationDate,
      valueDate: m.valueDate,
      amount: m.amount,
      commonConcept: m.commonConcept,
      ownConcept: m.ownConcept,
      document: m.document,
      reference1: m.reference1,
      reference2: m.reference2,
      concepts: m.concepts,
      foreignCurrency: m.foreignCurrency,
      foreignAmount: m.foreignAmount,
      dedupeKey: key,
      estado: "pendiente",
      createdAt: now,
      updatedAt: now,
    }));
    const suggestions = await suggestionsForNew(tx, bank.companyId, rows as MovementRow[]);
    const suggested = new Set(suggestions.map((s) => s.movementId));
    for (const row of rows) if (suggested.has(row.id!)) row.estado = "sugerido";
    await repo.insertMovements(tx.db, rows);
    await insertSuggestions(tx.db, suggestions);
    return {
      import: saved,
      alreadyImported: false,
      imported: rows.length,
      skipped: movements.length - rows.length,
      suggested: suggested.size,
    };
  });
}
