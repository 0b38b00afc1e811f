import { today } from "../../platform/dates.js";
import { type AuthedCtx, inCtxTransaction } from "../../platform/http/context.js";
import { dec } from "../../platform/money.js";
import { periodOf } from "./returns/periods.js";
import {
  confirmReturn,
  createReturn,
  findReturnOfPeriod,
  listReturns,
  presentReturn,
  settleReturn,
} from "./returns/service.js";
import { updateTaxSettings } from "./settings/service.js";
import type { TaxModel } from "./tables.js";

export interface TaxDemoResult {
  created: boolean;
  returns: number;
  /** 303s confirmed and settled: one per quarter already over. */
  settled: number;
}

const QUARTERS = ["1T", "2T", "3T", "4T"] as const;
const WITHHOLDING_AND_349: TaxModel[] = ["111", "115", "349"];

/** Whether a 111, 115 or 349 of the period has anything to declare. */
function hasContent(model: TaxModel, boxes: Record<string, string>): boolean {
  if (model === "349") return Number(boxes.operators ?? 0) + Number(boxes.rectifications ?? 0) > 0;
  return !dec(boxes[model === "111" ? "28" : "03"] ?? "0").isZero();
}

/**
 * The demo company's tax returns of the current year, from the books the other demos wrote: a 303
 * per quarter begun (the first to compensate, after the mini excavator, and its compensation
 * carried into the next), the 111, 115 and 349 of each quarter that has something to declare, and
 * the 390 of the year with the company's activity for its file. A quarter already over is confirmed (its period locks), settled (the 477/472
 * balances to 4750 or 4700) and presented; the current quarter stays a draft, so the demo company can
 * keep invoicing. Loaded last (the lock would refuse the payments other demos date in those
 * quarters); one transaction; does nothing when the company has returns.
 */
export async function loadTaxDemo(ctx: AuthedCtx, companyId: string): Promise<TaxDemoResult> {
  return inCtxTransaction(ctx, async (tx) => {
    const existing = await listReturns(tx, { companyId, limit: 1, offset: 0 });
    if (existing.total > 0) return { created: false, returns: 0, settled: 0 };

    const now = today();
    const year = Number(now.slice(0, 4));
    let returns = 0;
    let settled = 0;
    for (const period of QUARTERS) {
      const p = periodOf("303", year, period);
      if (p.dateFrom > now) break;
      const over = p.dateTo < now;
      const models: TaxModel[] = ["303"];
      for (const model of WITHHOLDING_AND_349) {
        const draft = await findReturnOfPeriod(tx, { companyId, model, year, period });
        if (hasContent(model, draft.row.boxes)) models.push(model);
      }
      for (const model of models) {
        const row = await createReturn(tx, { companyId, model, year, period });
        returns += 1;
        if (!over) continue;
        await confirmReturn(tx, row.id);
        if (model === "303") {
          await settleReturn(tx, row.id);
          settled += 1;
        }
        await presentReturn(tx, row.id);
      }
    }
    // The 390 reads the presented 303s and computes the quarter still open from the books; its
    // file's page 01 names the company's activity (a builder: IAE 501.1).
    await updateTaxSettings(tx, companyId, {
      activityDescription: "Construcción de edificios",
      activityKey: "A03",
      iaeEpigraph: "5011",
    });
    await createReturn(tx, { companyId, model: "390", year, period: "0A" });
    returns += 1;
    return { created: true, returns, settled };
  });
}
