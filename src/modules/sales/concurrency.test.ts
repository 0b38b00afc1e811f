import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers/app.js";
import { onPostgres } from "../../../test/helpers/db.js";
import {
  createSalesInvoice,
  type DocOut,
  documentsFixture,
  expectStatus,
  issueSalesInvoice,
  line,
} from "../documents/test-support.js";
import { createPurchaseInvoice, invoiceAction } from "../purchases/test-support.js";

/**
 * Correlative numbering under real concurrency. PostgreSQL only: PGlite has one connection, so the
 * requests would simply queue one after another and the race this checks could not happen.
 */
const ISSUES = 300;
const APPROVALS = 100;

let t: TestApp;
let fx: Awaited<ReturnType<typeof documentsFixture>>;

beforeAll(async () => {
  if (!onPostgres()) return;
  t = await createTestApp();
  fx = await documentsFixture(t);
});
afterAll(async () => {
  await t?.close();
});

/** `n` calls of `make`, `width` at a time (creating the drafts is not what is measured). */
async function inBatches<T>(n: number, width: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let start = 0; start < n; start += width)
    out.push(
      ...(await Promise.all(Array.from({ length: Math.min(width, n - start) }, (_, k) => make(start + k)))),
    );
  return out;
}

const numberOf = (code: string) => Number(code.slice(-6));

/**
 * Runs `attempt` for every item at once; those answered 503 (the pool had no connection free within
 * its timeout: nothing was done, Retry-After is set) go again, all at once, until none is left.
 * Returns every answer that was not a 503, per item.
 */
async function raceUntilAnswered<T>(
  items: T[],
  attempt: (item: T, round: number) => Promise<LightMyRequestResponse>,
): Promise<LightMyRequestResponse[]> {
  const answers = new Map<number, LightMyRequestResponse>();
  let waiting = items.map((_, i) => i);
  for (let round = 0; waiting.length && round < 20; round++) {
    const responses = await Promise.all(waiting.map((i) => attempt(items[i], round)));
    const next: number[] = [];
    responses.forEach((res, k) => {
      if (res.statusCode === 503) {
        expect(res.headers["retry-after"]).toBeDefined();
        next.push(waiting[k]);
      } else answers.set(waiting[k], res);
    });
    waiting = next;
  }
  expect(waiting).toEqual([]);
  return items.map((_, i) => answers.get(i) as LightMyRequestResponse);
}

describe.skipIf(!onPostgres())(
  "numbering under concurrency (PostgreSQL only: PGlite serializes every request)",
  () => {
    it(`${ISSUES} concurrent issues in one series take 1..${ISSUES}, no gap, dates never going backwards`, async () => {
      const drafts = await inBatches(ISSUES, 10, async (i) =>
        expectStatus<{ id: string }>(
          await createSalesInvoice(t, fx.companyId, fx.customer.id, [line("1", String(10 + i))], {
            date: "2026-03-01",
          }),
          201,
        ),
      );
      // Dates spread over five days, all racing: an issue dated before one already numbered is refused
      // (409) and takes no number.
      const dateOf = (i: number) => `2026-03-0${(i % 5) + 1}`;
      const first = await raceUntilAnswered(drafts, (d) =>
        issueSalesInvoice(t, d.id, dateOf(drafts.indexOf(d))),
      );
      for (const res of first) expect([200, 409], res.body).toContain(res.statusCode);
      for (const res of first.filter((r) => r.statusCode === 409))
        expect(res.json().detail).toContain("earlier");
      const issuedFirst = first.filter((r) => r.statusCode === 200).map((r) => r.json() as DocOut);
      expect(issuedFirst.map((d) => numberOf(d.code as string)).sort((a, b) => a - b)).toEqual(
        Array.from({ length: issuedFirst.length }, (_, i) => i + 1),
      );
      // The refused ones took no number: again, all at once, on the last day.
      const refused = drafts.filter((_, i) => first[i].statusCode === 409);
      const second = await raceUntilAnswered(refused, (d) => issueSalesInvoice(t, d.id, "2026-03-31"));
      for (const res of second) expect(res.statusCode, res.body).toBe(200);

      const all = [...issuedFirst, ...second.map((r) => r.json() as DocOut)].sort(
        (a, b) => numberOf(a.code as string) - numberOf(b.code as string),
      );
      expect(all.map((d) => numberOf(d.code as string))).toEqual(
        Array.from({ length: ISSUES }, (_, i) => i + 1),
      );
      expect(new Set(all.map((d) => d.id)).size).toBe(ISSUES);
      for (let i = 1; i < all.length; i++)
        expect(
          (all[i].date as string) >= (all[i - 1].date as string),
          `${all[i].code} ${all[i].date} after ${all[i - 1].date}`,
        ).toBe(true);
      // Every issued invoice has its entry.
      expect(all.every((d) => d.entry_id)).toBe(true);
    }, 300_000);

    it(`${APPROVALS} concurrent approvals take gapless registration numbers`, async () => {
      const pending = await inBatches(APPROVALS, 10, async (i) =>
        expectStatus<{ id: string }>(
          await createPurchaseInvoice(t, fx.companyId, fx.supplier.id, [line("1", String(5 + i))], {
            supplier_number: `CONC-${i}`,
          }),
          201,
        ),
      );
      const responses = await raceUntilAnswered(pending, (p) => invoiceAction(t, p.id, "approve"));
      for (const res of responses) expect(res.statusCode, res.body).toBe(200);
      const numbers = responses.map((r) => numberOf(r.json().code)).sort((a, b) => a - b);
      expect(numbers).toEqual(Array.from({ length: APPROVALS }, (_, i) => i + 1));
      // Approving them all again: every one a 409, no number taken.
      const again = await raceUntilAnswered(pending.slice(0, 10), (p) => invoiceAction(t, p.id, "approve"));
      for (const res of again) expect(res.statusCode).toBe(409);
    }, 300_000);
  },
);
