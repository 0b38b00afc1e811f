import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers/app.js";
import { createSalesInvoice, expectStatus, issueSalesInvoice, line } from "../documents/test-support.js";
import { recordsOf, verifactuFixture, verify } from "./test-support.js";

/** Concurrency needs real connections: PostgreSQL only (PGlite has one connection). */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

let t: TestApp;

beforeAll(async () => {
  if (onPostgres) t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe.runIf(onPostgres)("concurrent issuing (PostgreSQL)", () => {
  it("keeps one unbroken chain when 100 invoices of a company are issued concurrently", async () => {
    const fx = await verifactuFixture(t, { name: "Concurrente, S.L." });
    const drafts = await inWorkers(
      Array.from({ length: 100 }, (_, i) => i),
      async (i) =>
        expectStatus<{ id: string }>(
          await createSalesInvoice(t, fx.companyId, fx.customer.id, [line("1", String(10 + i))]),
          201,
        ).id,
    );
    const issued = await inWorkers(drafts, (id) => issueSalesInvoice(t, id));
    const failures = issued.filter((r) => r.statusCode !== 200).map((r) => r.body);
    expect(failures).toEqual([]);

    const { data, total } = await recordsOf(t, fx.companyId);
    expect(total).toBe(100);
    expect(data.map((r) => r.sequence)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    data.forEach((r, i) => {
      expect(r.previous_hash).toBe(i === 0 ? "" : data[i - 1].hash);
    });
    // The chain follows the invoice numbers: numbering and chaining happen in one transaction.
    const numbers = data.map((r) => r.invoice_number);
    expect([...numbers].sort()).toEqual(numbers);
    expect(new Set(data.map((r) => r.document_id)).size).toBe(100);
    expect(await verify(t, fx.companyId)).toMatchObject({ ok: true, records: { checked: 100 } });
  }, 180_000);
});

/**
 * Runs `work` over the items with ten callers at a time: the pool's size, so every transaction holds
 * a connection and they all contend for the same counter and chain head (more callers would only
 * wait for a connection, and time out on a loaded machine).
 */
async function inWorkers<T, R>(items: T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      for (let i = next++; i < items.length; i = next++) results[i] = await work(items[i]);
    }),
  );
  return results;
}
