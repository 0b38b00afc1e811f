import { type AuthedCtx, inCtxTransaction } from "../../platform/http/context.js";
import { resolveCompanyForWrite } from "../companies/index.js";
import { huella } from "./hash.js";
import * as repo from "./repository.js";
import { appendEvent, eventInput, issuerOf, recordHashInput } from "./service.js";

/** The first place a chain does not hold. */
export interface ChainBreak {
  chain: "records" | "events";
  sequence: number;
  id: string | null;
  problem: "hash_mismatch" | "broken_link" | "sequence_gap" | "head_mismatch";
  detail: string;
}

export interface ChainReport {
  checked: number;
  lastHash: string;
  firstBreak: ChainBreak | null;
}

const PAGE = 2000;

interface Link {
  id: string;
  sequence: number;
  previousHash: string;
  hash: string;
  previousId?: string | null;
}

/**
 * Walks a chain in order, recomputing every hash and checking every link (sequence, previous id,
 * previous hash), then compares the end with the chain's head (a deleted tail shows there).
 */
async function walk<T extends Link>(
  chain: ChainBreak["chain"],
  page: (after: number) => Promise<T[]>,
  input: (row: T) => string,
  head: repo.HeadRow | undefined,
): Promise<ChainReport> {
  let previous: T | undefined;
  let checked = 0;
  const broken = (
    row: T | null,
    sequence: number,
    problem: ChainBreak["problem"],
    detail: string,
  ): ChainReport => ({
    checked,
    lastHash: previous?.hash ?? "",
    firstBreak: { chain, sequence, id: row?.id ?? null, problem, detail },
  });
  for (;;) {
    const rows = await page(previous?.sequence ?? 0);
    for (const row of rows) {
      const expectedSequence = (previous?.sequence ?? 0) + 1;
      if (row.sequence !== expectedSequence)
        return broken(
          row,
          expectedSequence,
          "sequence_gap",
          `expected sequence ${expectedSequence}, found ${row.sequence}`,
        );
      const expectedPrevious = previous?.hash ?? "";
      if (
        row.previousHash !== expectedPrevious ||
        (row.previousId !== undefined && row.previousId !== (previous?.id ?? null))
      )
        return broken(
          row,
          row.sequence,
          "broken_link",
          `previous hash is ${row.previousHash || "(empty)"} but the previous record's hash is ${expectedPrevious || "(none)"}`,
        );
      const recomputed = huella(input(row));
      if (recomputed !== row.hash)
        return broken(
          row,
          row.sequence,
          "hash_mismatch",
          `stored hash ${row.hash}, recomputed ${recomputed}`,
        );
      previous = row;
      checked += 1;
    }
    if (rows.length < PAGE) break;
  }
  const last = previous;
  if ((head?.lastSequence ?? 0) !== (last?.sequence ?? 0) || (head?.lastHash ?? "") !== (last?.hash ?? ""))
    return broken(
      null,
      (last?.sequence ?? 0) + 1,
      "head_mismatch",
      `the chain's head says ${head?.lastSequence ?? 0} links ending in ${head?.lastHash || "(none)"}, the table holds ${last?.sequence ?? 0}`,
    );
  return { checked, lastHash: last?.hash ?? "", firstBreak: null };
}

export async function verifyRecordChain(ctx: AuthedCtx, companyId: string) {
  return walk(
    "records",
    (after) => repo.recordsAfter(ctx.db, companyId, after, PAGE),
    recordHashInput,
    await repo.findHead(ctx.db, companyId, "records"),
  );
}

export async function verifyEventChain(ctx: AuthedCtx, companyId: string) {
  return walk(
    "events",
    (after) => repo.eventsAfter(ctx.db, companyId, after, PAGE),
    eventInput,
    await repo.findHead(ctx.db, companyId, "events"),
  );
}

/**
 * Recomputes every hash and link of a company's records and events and reports the first break.
 * The verification is itself logged (event 03), and a break as an anomaly (event 04).
 */
export async function verifyChains(ctx: AuthedCtx, requestedCompanyId?: string) {
  const companyId = await resolveCompanyForWrite(ctx, requestedCompanyId);
  const records = await verifyRecordChain(ctx, companyId);
  const events = await verifyEventChain(ctx, companyId);
  const ok = !records.firstBreak && !events.firstBreak;
  await inCtxTransaction(ctx, async (tx) => {
    const issuer = await issuerOf(tx, companyId);
    await appendEvent(tx, issuer, "verification", {
      records_checked: records.checked,
      events_checked: events.checked,
      ok,
    });
    if (!ok)
      await appendEvent(tx, issuer, "anomaly", {
        record_break: records.firstBreak,
        event_break: events.firstBreak,
      });
  });
  return { companyId, ok, records, events };
}
