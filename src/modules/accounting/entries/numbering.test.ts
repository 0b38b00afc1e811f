import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { onPostgres } from "../../../../test/helpers/db.js";
import {
  createFiscalYear,
  createSubaccount,
  credit,
  debit,
  ledgerFixture,
  postEntry,
} from "../test-support.js";

/** PGlite has one connection, so concurrency there is queued; PostgreSQL races for real. */
const CONCURRENT = onPostgres() ? 200 : 30;

let t: TestApp;
let fx: Awaited<ReturnType<typeof ledgerFixture>>;

beforeAll(async () => {
  t = await createTestApp();
  fx = await ledgerFixture(t);
});
afterAll(async () => {
  await t?.close();
});

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe("entry numbering", () => {
  it(`numbers ${CONCURRENT} concurrent entries 1..${CONCURRENT}, no gap, no duplicate`, async () => {
    const responses = await Promise.all(
      range(CONCURRENT).map((i) =>
        postEntry(t, {
          date: `2026-${String((i % 12) + 1).padStart(2, "0")}-15`,
          concept: `Concurrent ${i}`,
          lines: [debit(fx.codes.bank, `${i}.00`), credit(fx.codes.sales, `${i}.00`)],
        }),
      ),
    );
    for (const res of responses) expect(res.statusCode, res.body).toBe(201);
    const numbers = responses.map((r) => r.json().number as number).sort((a, b) => a - b);
    expect(numbers).toEqual(range(CONCURRENT));

    const year = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/accounting/fiscal-years/${fx.year.id}`,
    });
    expect(year.json().last_entry_number).toBe(CONCURRENT);
  });

  it("consumes no number for refused entries posted concurrently with valid ones", async () => {
    const before = (
      await t.as(t.adminToken, { method: "GET", url: `/api/accounting/fiscal-years/${fx.year.id}` })
    ).json().last_entry_number as number;
    const responses = await Promise.all(
      range(20).map((i) =>
        postEntry(t, {
          date: "2026-07-01",
          lines:
            i % 2
              ? [debit(fx.codes.bank, "1.00"), credit(fx.codes.sales, "1.00")]
              : [debit("4300009999", "1.00"), credit(fx.codes.sales, "1.00")],
        }),
      ),
    );
    const created = responses.filter((r) => r.statusCode === 201).map((r) => r.json().number as number);
    expect(responses.filter((r) => r.statusCode === 400)).toHaveLength(10);
    expect(created.sort((a, b) => a - b)).toEqual(range(10).map((n) => before + n));
  });

  it("numbers each fiscal year on its own, starting at 1", async () => {
    await createFiscalYear(t, fx.companyId, "2027");
    await createSubaccount(t, fx.companyId, fx.codes.bank, "2027");
    await createSubaccount(t, fx.companyId, fx.codes.sales, "2027");
    const res = await postEntry(t, {
      date: "2027-01-05",
      lines: [debit(fx.codes.bank, "3.00"), credit(fx.codes.sales, "3.00")],
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ fiscal_year_code: "2027", number: 1 });
  });

  it("reverses an entry once when two reversals race", async () => {
    const entry = (
      await postEntry(t, {
        date: "2026-08-01",
        lines: [debit(fx.codes.bank, "9.00"), credit(fx.codes.sales, "9.00")],
      })
    ).json();
    const responses = await Promise.all(
      range(2).map(() =>
        t.as(t.adminToken, {
          method: "POST",
          url: `/api/accounting/entries/${entry.id}/reverse`,
          payload: {},
        }),
      ),
    );
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });
});
