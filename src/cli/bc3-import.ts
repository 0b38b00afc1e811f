import { type ImportedBudget, importBudget } from "../modules/projects/index.js";
import type { Db } from "../platform/db/client.js";
import type { AuthedCtx } from "../platform/http/context.js";
import { cliActor } from "./api-token.js";

const BAR_WIDTH = 30;

/** `[#########---------]  45%  2,250/5,000 rows`, redrawn in place on a terminal. */
export function progressBar(done: number, total: number): string {
  const share = total === 0 ? 1 : Math.min(1, done / total);
  const filled = Math.round(share * BAR_WIDTH);
  const pct = `${Math.floor(share * 100)}%`.padStart(4);
  const count = `${done.toLocaleString("en")}/${total.toLocaleString("en")} rows`;
  return `[${"#".repeat(filled)}${"-".repeat(BAR_WIDTH - filled)}] ${pct}  ${count}`;
}

/** Reports the bar once per whole 10 % (the same lines in a terminal, a log or relayed from the server). */
export function progressPrinter(print: (line: string) => void) {
  let lastTenth = -1;
  return (done: number, total: number) => {
    const tenth = total === 0 ? 10 : Math.floor((done / total) * 10);
    if (tenth > lastTenth) {
      lastTenth = tenth;
      print(progressBar(done, total));
    }
  };
}

/** `bc3 import FILE --budget-code X`: a new budget from a BC3 file, as POST /budgets/import-bc3 does. */
export async function importBc3FromCli(
  db: Db,
  input: { file: Buffer; budgetCode?: string; name?: string; userEmail: string },
  onProgress: (done: number, total: number) => void,
): Promise<ImportedBudget> {
  const actor = await cliActor(db, input.userEmail);
  const ctx: AuthedCtx = { db, tenantId: "cli", actor };
  return importBudget(ctx, input.file, { code: input.budgetCode, name: input.name }, onProgress);
}
