import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import type { Db } from "../../../platform/db/client.js";
import { inTransaction, queryOne, queryRows, sqlState } from "../../../platform/db/sql.js";
import {
  createFiscalYear,
  createSubaccount,
  credit,
  debit,
  ledgerFixture,
  postEntry,
} from "../test-support.js";

/**
 * The database itself refuses what the service refuses, so no code path (raw SQL included) can
 * commit an unbalanced entry: these tests bypass the service on purpose.
 */
let t: TestApp;
let fx: Awaited<ReturnType<typeof ledgerFixture>>;
let journalId: string;
let subaccountIds: Record<string, string>;
let rawNumber = 100_000;

beforeAll(async () => {
  t = await createTestApp();
  fx = await ledgerFixture(t);
  const first = await postEntry(t, {
    date: "2026-01-10",
    lines: [debit(fx.codes.bank, "10.00"), credit(fx.codes.sales, "10.00")],
  });
  journalId = first.json().journal_id;
  const rows = await queryRows<{ code: string; id: string }>(
    t.db,
    sql`select code, id from subaccounts where fiscal_year_id = ${fx.year.id}`,
  );
  subaccountIds = Object.fromEntries(rows.map((r) => [r.code, r.id]));
});
afterAll(async () => {
  await t?.close();
});

function insertEntry(tx: Db, id: string, total: string, date = "2026-02-01") {
  rawNumber += 1;
  return tx.execute(sql`insert into entries (id, company_id, fiscal_year_id, journal_id, number, date, concept, total)
    values (${id}, ${fx.companyId}, ${fx.year.id}, ${journalId}, ${rawNumber}, ${date}, 'raw', ${total})`);
}

function insertLines(
  tx: Db,
  entryId: string,
  lines: [code: string, debit: string, credit: string][],
  from = 1,
) {
  const values = lines.map(
    ([code, d, c], i) =>
      sql`(gen_random_uuid(), ${fx.companyId}, ${fx.year.id}, ${entryId}, ${from + i}, ${subaccountIds[code]}, ${d}, ${c})`,
  );
  return tx.execute(sql`insert into entry_lines (id, company_id, fiscal_year_id, entry_id, line_no, subaccount_id, debit, credit)
    values ${sql.join(values, sql`, `)}`);
}

function messages(err: unknown): string {
  const parts: string[] = [];
  for (let e = err, i = 0; i < 5 && e && typeof e === "object"; i++) {
    parts.push(String((e as { message?: unknown }).message));
    e = (e as { cause?: unknown }).cause;
  }
  return parts.join(" | ");
}

async function expectRefused(work: (tx: Db) => Promise<unknown>, state: string, pattern: RegExp) {
  const error = await inTransaction(t.db, work).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error, "the transaction committed").toBeDefined();
  expect(sqlState(error)).toBe(state);
  expect(messages(error)).toMatch(pattern);
}

const entryExists = async (id: string) =>
  Boolean(await queryOne(t.db, sql`select 1 from entries where id = ${id}`));

const newId = async () => (await queryOne<{ id: string }>(t.db, sql`select gen_random_uuid() as id`))!.id;

describe("deferred balance trigger", () => {
  it("lets a balanced entry inserted through raw SQL commit, and updates the balance tables", async () => {
    const id = await newId();
    const balance = sql`select coalesce(sum(debit), 0) as debit from ledger_monthly_balances
      where subaccount_id = ${subaccountIds[fx.codes.purchases]} and month = '2026-02-01'`;
    const before = await queryOne<{ debit: string }>(t.db, balance);
    await inTransaction(t.db, async (tx) => {
      await insertEntry(tx, id, "50.00");
      await insertLines(tx, id, [
        [fx.codes.purchases, "50.00", "0"],
        [fx.codes.bank, "0", "50.00"],
      ]);
    });
    expect(await entryExists(id)).toBe(true);
    const after = await queryOne<{ debit: string }>(t.db, balance);
    expect(Number(after!.debit) - Number(before!.debit)).toBe(50);
  });

  it("fails the COMMIT of an unbalanced entry", async () => {
    const id = await newId();
    await expectRefused(
      async (tx) => {
        await insertEntry(tx, id, "100.00");
        await insertLines(tx, id, [
          [fx.codes.customer, "100.00", "0"],
          [fx.codes.sales, "0", "90.00"],
        ]);
      },
      "23514",
      /debits 100\.00 != credits 90\.00 \(difference 10\.00\)/,
    );
    expect(await entryExists(id)).toBe(false);
  });

  it("fails the COMMIT of an entry with a single line, or none", async () => {
    const single = await newId();
    await expectRefused(
      async (tx) => {
        await insertEntry(tx, single, "100.00");
        await insertLines(tx, single, [[fx.codes.customer, "100.00", "0"]]);
      },
      "23514",
      /1 line\(s\); an entry needs at least two/,
    );
    const empty = await newId();
    await expectRefused((tx) => insertEntry(tx, empty, "100.00"), "23514", /0 line\(s\)/);
    expect(await entryExists(single)).toBe(false);
    expect(await entryExists(empty)).toBe(false);
  });

  it("fails when the lines do not add up to the entry's total", async () => {
    const id = await newId();
    await expectRefused(
      async (tx) => {
        await insertEntry(tx, id, "70.00");
        await insertLines(tx, id, [
          [fx.codes.customer, "50.00", "0"],
          [fx.codes.sales, "0", "50.00"],
        ]);
      },
      "23514",
      /lines total 50\.00 but the entry says 70\.00/,
    );
  });

  it("refuses lines added later to a posted entry, even balanced ones", async () => {
    const posted = (
      await postEntry(t, {
        date: "2026-03-01",
        lines: [debit(fx.codes.bank, "20.00"), credit(fx.codes.sales, "20.00")],
      })
    ).json();
    await expectRefused(
      (tx) =>
        insertLines(
          tx,
          posted.id,
          [
            [fx.codes.bank, "5.00", "0"],
            [fx.codes.sales, "0", "5.00"],
          ],
          10,
        ),
      "23514",
      /lines total 25\.00 but the entry says 20\.00/,
    );
  });

  it("cannot be bypassed with SET CONSTRAINTS ALL IMMEDIATE", async () => {
    const id = await newId();
    await expectRefused(
      async (tx) => {
        await tx.execute(sql`set constraints all immediate`);
        await insertEntry(tx, id, "10.00");
      },
      "23514",
      /0 line\(s\)/,
    );
  });
});

describe("statement-level checks over many entries (ADR 026)", () => {
  const pair = (amount: string, other = amount): [string, string, string][] => [
    [fx.codes.purchases, amount, "0"],
    [fx.codes.bank, "0", other],
  ];
  const queued = async () =>
    queryOne<{ n: string }>(
      t.db,
      sql`select (select count(*) from ledger_balance_checks) + (select count(*) from ledger_balance_check_runs) as n`,
    );

  it("refuses a batch of entries and lines in multi-row statements when one entry does not balance", async () => {
    const ids = [await newId(), await newId(), await newId()];
    await expectRefused(
      async (tx) => {
        for (const id of ids) await insertEntry(tx, id, "30.00");
        await insertLines(tx, ids[0]!, pair("30.00"));
        await insertLines(tx, ids[1]!, pair("30.00", "29.99"));
        await insertLines(tx, ids[2]!, pair("30.00"));
      },
      "23514",
      /debits 30\.00 != credits 29\.99 \(difference 0\.01\)/,
    );
    for (const id of ids) expect(await entryExists(id)).toBe(false);
    expect(Number((await queued())!.n)).toBe(0);
  });

  it("checks entries whose lines came in several statements once, at COMMIT, and leaves no queue", async () => {
    const ids = [await newId(), await newId()];
    await inTransaction(t.db, async (tx) => {
      await tx.execute(sql`insert into entries (id, company_id, fiscal_year_id, journal_id, number, date, concept, total)
        select u.id, ${fx.companyId}, ${fx.year.id}, ${journalId}, ${rawNumber + 1} + u.n, '2026-02-02', 'raw batch', '12.00'
          from unnest(${`{${ids.join(",")}}`}::uuid[]) with ordinality as u(id, n)`);
      rawNumber += 2;
      // Each entry's two lines in different statements: unbalanced between them, balanced at COMMIT.
      await insertLines(tx, ids[0]!, [[fx.codes.purchases, "12.00", "0"]]);
      await insertLines(tx, ids[1]!, [[fx.codes.purchases, "12.00", "0"]]);
      await insertLines(tx, ids[0]!, [[fx.codes.bank, "0", "12.00"]], 2);
      await insertLines(tx, ids[1]!, [[fx.codes.bank, "0", "12.00"]], 2);
    });
    for (const id of ids) expect(await entryExists(id)).toBe(true);
    expect(Number((await queued())!.n)).toBe(0);
  });

  it("still checks at COMMIT after a savepoint that queued entries was rolled back", async () => {
    const dropped = await newId();
    const kept = await newId();
    await expectRefused(
      async (tx) => {
        await inTransaction(tx, async (sp) => {
          await insertEntry(sp, dropped, "5.00");
          await insertLines(sp, dropped, pair("5.00"));
          throw new Error("roll the savepoint back");
        }).catch(() => undefined);
        await insertEntry(tx, kept, "5.00");
        await insertLines(tx, kept, [[fx.codes.purchases, "5.00", "0"]]);
      },
      "23514",
      /1 line\(s\); an entry needs at least two/,
    );
    expect(await entryExists(dropped)).toBe(false);
    expect(await entryExists(kept)).toBe(false);
  });

  it("refuses a multi-row entries insert when one row is outside its year", async () => {
    const ids = [await newId(), await newId()];
    await expectRefused(
      (tx) =>
        tx.execute(sql`insert into entries (id, company_id, fiscal_year_id, journal_id, number, date, concept, total)
          select u.id, ${fx.companyId}, ${fx.year.id}, ${journalId}, ${rawNumber + 1} + u.n,
                 case when u.n = 2 then date '2027-03-01' else date '2026-03-01' end, 'raw batch', '1.00'
            from unnest(${`{${ids.join(",")}}`}::uuid[]) with ordinality as u(id, n)`),
      "23514",
      /the date 2027-03-01 is outside fiscal year 2026/,
    );
    rawNumber += 2;
    for (const id of ids) expect(await entryExists(id)).toBe(false);
  });
});

describe("other database guards", () => {
  it("refuses an entry into a closed year or outside the year's dates", async () => {
    const close = (estado: string) =>
      t.as(t.adminToken, {
        method: "PUT",
        url: `/api/accounting/fiscal-years/${fx.year.id}/estado`,
        payload: { estado },
      });
    expect((await close("cerrado")).statusCode).toBe(200);
    try {
      await expectRefused((tx) => insertEntry(tx, crypto.randomUUID(), "1.00"), "23514", /is closed/);
    } finally {
      expect((await close("abierto")).statusCode).toBe(200);
    }
    await expectRefused(
      (tx) => insertEntry(tx, crypto.randomUUID(), "1.00", "2027-01-01"),
      "23514",
      /outside fiscal year 2026/,
    );
  });

  it("refuses a line whose subaccount belongs to another fiscal year", async () => {
    await createFiscalYear(t, fx.companyId, "2027");
    const other = await createSubaccount(t, fx.companyId, "5720000099", "2027");
    subaccountIds.other = other.id;
    const id = await newId();
    await expectRefused(
      async (tx) => {
        await insertEntry(tx, id, "10.00");
        await insertLines(tx, id, [
          ["other", "10.00", "0"],
          [fx.codes.sales, "0", "10.00"],
        ]);
      },
      "23503",
      /entry_lines_subaccount_fk/,
    );
  });

  it("refuses overlapping fiscal years written through raw SQL", async () => {
    const overlap = (tx: Db): Promise<unknown> =>
      tx.execute(sql`insert into fiscal_years (id, company_id, code, start_date, end_date)
        values (gen_random_uuid(), ${fx.companyId}, 'X', '2026-06-01', '2027-05-31')`);
    await expectRefused(overlap, "23P01", /overlaps fiscal year/);
  });
});
