import type { AuthedCtx } from "../../platform/http/context.js";
import { getVerifactuSettings, setVerifactuMode } from "./service.js";

/**
 * The demo company works with VeriFactu on, so the invoices the sales demo issues afterwards carry
 * their chained records and QR codes. Idempotent: a company already on is left alone.
 */
export async function loadVerifactuDemo(ctx: AuthedCtx, companyId: string): Promise<{ turnedOn: boolean }> {
  const current = await getVerifactuSettings(ctx, companyId);
  if (current.mode === "verifactu") return { turnedOn: false };
  await setVerifactuMode(ctx, { companyId, mode: "verifactu" });
  return { turnedOn: true };
}
