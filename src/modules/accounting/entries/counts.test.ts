import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { inTransaction, queryOne, queryRows, sqlState } from "../../../platform/db/sql.js";
import {
  createCompany,
  createFiscalYear,
  createSubaccount,
  credit,
  debit,
  ledgerFixture,
  postEntry,
} from "../test-support.js";

/**
 * ledger_entry_counts (ADR 030): the entries per fiscal year and journal the entries trigger keeps
 * must always equal a recount of the entries, whatever wrote them, and the entries list's total
 * read from it must equal the matching entries.
 */
let t: TestApp;
let fx: Awaited<ReturnType<typeof ledgerFixture>>;

beforeAll(async () => {
  t = await createTestApp();
  fx = await ledgerFixture(t);
});
afterAll(async () => {
  await t?.close();
});

type CountRow = { fiscal_year_id: string; journal_id: string; entries: number };

/** What the trigger kept and what a recount gives, for every company of the test database. */
async function keptAndRecounted() {
  const kept = await queryRows<CountRow>(
    t.db,
    sql`select fiscal_year_id::text, journal_id::text, entries::int from ledger_entry_counts
         order by 1, 2`,
  );
  const recounted = await queryRows<CountRow>(
    t.db,
    sql`select fiscal_year_id::text, journal_id::text, count(*)::int as entries from entries
         group by 1, 2 order by 1, 2`,
  );
  return { kept, recounted };
}

async function expectCountsExact() {
  const { kept, recounted } = await keptAndRecounted();
  expect(kept).toEqual(recounted);
  return kept;
}

const sale = (amount = "100.00") => [debit(fx.codes.bank, amount), credit(fx.codes.sales, amount)];

async function listTotal(query: string) {
  const res = await t.as(t.adminToken, { method: "GET", url: `/api/accounting/entries?${query}` });
  expect(res.statusCode).toBe(200);
  const body = res.json() as { total: number; total_is_estimate: boolean };
  expect(body.total_is_estimate).toBe(false);
  return body.total;
}

const recount = async (where: ReturnType<typeof sql>) =>
  Number(
    (await queryOne<{ n: number }>(t.db, sql`select count(*)::int as n from entries where ${where}`))?.n,
  );

describe("ledger_entry_counts kept by the entries trigger", () => {
  it("counts entries posted one by one, reversals and a second journal", async () => {
    const posted = [];
    for (const day of ["2026-01-05", "2026-02-06", "2026-03-07"]) {
      const res = await postEntry(t, { company_id: fx.companyId, date: day, lines: sale() });
      expect(res.statusCode).toBe(201);
      posted.push(res.json() as { id: string });
    }
    const reversed = await t.as(t.adminToken, {
      method: "POST",
      url: `/api/accounting/entries/${posted[0]!.id}/reverse`,
      payload: { date: "2026-03-10" },
    });
    expect(reversed.statusCode).toBe(201);
    const journal = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/accounting/journals",
      payload: { company_id: fx.companyId, code: "VEN", name: "Ventas", type: "sales" },
    });
    expect(journal.statusCode).toBe(201);
    const res = await postEntry(t, {
      company_id: fx.companyId,
      journal: "VEN",
      date: "2026-04-01",
      lines: sale(),
    });
    expect(res.statusCode).toBe(201);

    const kept = await expectCountsExact();
    const ofCompany = await queryRows<{ journal: string; entries: number }>(
      t.db,
      sql`select j.code as journal, c.entries::int from ledger_entry_counts c join journals j on j.id = c.journal_id
           where c.company_id = ${fx.companyId} order by j.code`,
    );
    expect(ofCompany).toEqual([
      { journal: "GEN", entries: 4 },
      { journal: "VEN", entries: 1 },
    ]);
    expect(kept.length).toBeGreaterThanOrEqual(2);
  });

  it("counts a multi-row INSERT of entries once per entry, in the inserting transaction", async () => {
    const ids = await queryRows<{ code: string; id: string }>(
      t.db,
      sql`select code, id from subaccounts where fiscal_year_id = ${fx.year.id}`,
    );
    const sub = Object.fromEntries(ids.map((r) => [r.code, r.id]));
    const before = await recount(sql`company_id = ${fx.companyId}`);
    await inTransaction(t.db, async (tx) => {
      const year = await queryOne<{ last: number }>(
        tx,
        sql`update fiscal_years set last_entry_number = last_entry_number + 3 where id = ${fx.year.id}
            returning last_entry_number as last`,
      );
      const first = Number(year!.last) - 2;
      const entries = await queryRows<{ id: string }>(
        tx,
        sql`insert into entries (id, company_id, fiscal_year_id, journal_id, number, date, concept, total)
            select gen_random_uuid(), ${fx.companyId}, ${fx.year.id}, j.id, ${first}::int + g, '2026-05-01', 'batch', 5
              from generate_series(0, 2) g, journals j where j.company_id = ${fx.companyId} and j.code = 'GEN'
            returning id`,
      );
      // Inside the transaction the count already includes them.
      const inside = await queryOne<{ n: number }>(
        tx,
        sql`select sum(entries)::int as n from ledger_entry_counts where company_id = ${fx.companyId}`,
      );
      expect(Number(inside?.n)).toBe(before + 3);
      await tx.execute(sql`insert into entry_lines (id, company_id, fiscal_year_id, entry_id, line_no, subaccount_id, debit, credit)
        select gen_random_uuid(), ${fx.companyId}, ${fx.year.id}, e.id, l.n,
               case l.n when 1 then ${sub[fx.codes.bank]}::uuid else ${sub[fx.codes.sales]}::uuid end,
               case l.n when 1 then 5 else 0 end, case l.n when 1 then 0 else 5 end
          from unnest(${`{${entries.map((e) => e.id).join(",")}}`}::uuid[]) e(id), generate_series(1, 2) l(n)`);
    });
    expect(await recount(sql`company_id = ${fx.companyId}`)).toBe(before + 3);
    await expectCountsExact();
  });

  it("leaves the counts unchanged when an entry is refused or its transaction rolled back", async () => {
    const before = await keptAndRecounted();
    const unbalanced = await postEntry(t, {
      company_id: fx.companyId,
      date: "2026-06-01",
      lines: [debit(fx.codes.bank, "10.00"), credit(fx.codes.sales, "9.00")],
    });
    expect(unbalanced.statusCode).toBe(400);
    const closedYearless = await postEntry(t, {
      company_id: fx.companyId,
      date: "2031-01-01",
      lines: sale(),
    });
    expect(closedYearless.statusCode).toBeGreaterThanOrEqual(400);
    expect(closedYearless.statusCode).toBeLessThan(500);
    const noLines = await inTransaction(t.db, async (tx) => {
      await tx.execute(sql`insert into entries (id, company_id, fiscal_year_id, journal_id, number, date, concept, total)
          select gen_random_uuid(), ${fx.companyId}, ${fx.year.id}, j.id, 900000, '2026-06-02', 'no lines', 1
            from journals j where j.company_id = ${fx.companyId} and j.code = 'GEN'`);
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(sqlState(noLines)).toBe("23514");
    expect(await keptAndRecounted()).toEqual(before);
    await expectCountsExact();
  });

  it("refuses updating or deleting a posted entry, so the counts need no other trigger", async () => {
    const before = await keptAndRecounted();
    const one = await queryOne<{ id: string }>(
      t.db,
      sql`select id from entries where company_id = ${fx.companyId} limit 1`,
    );
    for (const statement of [
      sql`delete from entries where id = ${one!.id}`,
      sql`update entries set journal_id = journal_id, fiscal_year_id = fiscal_year_id where id = ${one!.id}`,
    ]) {
      const error = await t.db.execute(statement).then(
        () => null,
        (e: unknown) => e,
      );
      expect(sqlState(error)).toBe("23001");
    }
    expect(await keptAndRecounted()).toEqual(before);
  });
});

describe("GET /api/accounting/entries total from the counts", () => {
  it("equals the matching entries by company, fiscal year and journal, never an estimate", async () => {
    const other = await createCompany(t, { name: "Counts other company" });
    await createFiscalYear(t, other, "2026");
    await createSubaccount(t, other, fx.codes.bank);
    await createSubaccount(t, other, fx.codes.sales);
    expect(
      (await postEntry(t, { company_id: other, date: "2026-02-02", lines: sale("7.00") })).statusCode,
    ).toBe(201);

    const mine = sql`company_id = ${fx.companyId}`;
    expect(await listTotal(`company_id=${fx.companyId}&fiscal_year_code=2026`)).toBe(await recount(mine));
    expect(await listTotal(`company_id=${fx.companyId}`)).toBe(await recount(mine));
    expect(await listTotal(`company_id=${other}&fiscal_year_code=2026`)).toBe(1);
    expect(await listTotal(`company_id=${fx.companyId}&journal=VEN`)).toBe(1);
    expect(await listTotal(`company_id=${fx.companyId}&journal=NONE`)).toBe(0);
    expect(await listTotal(`company_id=${fx.companyId}&fiscal_year_code=2026&limit=1&skip=2`)).toBe(
      await recount(mine),
    );
    // Every company the administrator sees: the whole tenant.
    expect(await listTotal("limit=1")).toBe(await recount(sql`true`));
    // Filters the counts do not hold still count the entries (bounded count).
    expect(await listTotal(`company_id=${fx.companyId}&date_from=2026-03-01&date_to=2026-03-31`)).toBe(
      await recount(sql`${mine} and date between '2026-03-01' and '2026-03-31'`),
    );
    expect(await listTotal(`company_id=${fx.companyId}&subaccount_code=${fx.codes.bank}`)).toBe(
      await recount(mine),
    );
  });
});
