import { assertCompanyVisible } from "../../platform/auth/company-scope.js";
import { type AuthedCtx, inCtxTransaction } from "../../platform/http/context.js";
import { BadRequestError } from "../../platform/http/errors.js";
import { resolveCompanyForWrite } from "../companies/index.js";
import * as repo from "./repository.js";
import { appendEvent, issuerOf } from "./service.js";
import { MAX_RECORDS_PER_FILE, suministroDocument } from "./xml.js";

/** One record as an AEAT XML file (RegFactuSistemaFacturacion holding it). */
export async function recordXml(ctx: AuthedCtx, id: string): Promise<{ xml: string; fileName: string }> {
  const record = assertCompanyVisible(ctx.actor, await repo.findRecord(ctx.db, id), "VeriFactu record");
  const issuer = await issuerOf(ctx, record.companyId);
  return {
    xml: suministroDocument({ name: issuer.name, nif: issuer.nif }, [record]),
    fileName: `verifactu-${record.issuerNif}-${record.sequence}.xml`,
  };
}

/**
 * The records generated between two dates as AEAT XML, at most 1,000 per file (`skip` pages on);
 * the export is logged as an event (08).
 */
export async function exportRecords(
  ctx: AuthedCtx,
  input: { companyId?: string; from: string; to: string; skip: number },
): Promise<{ xml: string; total: number; count: number; fileName: string }> {
  if (input.to < input.from)
    throw new BadRequestError("The export range ends before it starts", [
      { path: "to", message: "must not be before from" },
    ]);
  const companyId = await resolveCompanyForWrite(ctx, input.companyId);
  const page = await repo.recordsGenerated(
    ctx.db,
    companyId,
    { from: input.from, to: input.to },
    { limit: MAX_RECORDS_PER_FILE, offset: input.skip },
  );
  return inCtxTransaction(ctx, async (tx) => {
    const issuer = await issuerOf(tx, companyId);
    await appendEvent(tx, issuer, "export", {
      from: input.from,
      to: input.to,
      skip: input.skip,
      records: page.rows.length,
      total: page.total,
    });
    return {
      xml: suministroDocument({ name: issuer.name, nif: issuer.nif }, page.rows),
      total: page.total,
      count: page.rows.length,
      fileName: `verifactu-${issuer.nif}-${input.from}-${input.to}${input.skip ? `-${input.skip}` : ""}.xml`,
    };
  });
}
