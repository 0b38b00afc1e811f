import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
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
 * A subaccount's ledger (entries list with subaccount_code) read through the lines' copy of their
 * entry's date and number (ADR 030): the copy always equals the entry, and every page equals what
 * the entries themselves say.
 */
let t: TestApp;
let fx: Awaited<ReturnType<typeof ledgerFixture>>;

beforeAll(async () => {
  t = await createTestApp();
  fx = await ledgerFixture(t);
  await createFiscalYear(t, fx.companyId, "2027");
  for (const code of [fx.codes.customer, fx.codes.sales, fx.codes.bank])
    await createSubaccount(t, fx.companyId, code, "2027");
  const days = ["2026-03-01", "2026-01-15", "2026-03-01", "2026-02-10", "2026-03-01", "2026-06-30"];
  for (const [i, date] of days.entries()) {
    const amount = `${10 + i}.00`;
    const lines =
      i === 2 // two lines on the customer in one entry: listed once
        ? [
            debit(fx.codes.customer, "5.00"),
            debit(fx.codes.customer, "5.00"),
            credit(fx.codes.sales, "10.00"),
          ]
        : [debit(fx.codes.customer, amount), credit(fx.codes.sales, amount)];
    expect((await postEntry(t, { company_id: fx.companyId, date, lines })).statusCode).toBe(201);
  }
  // Entries without the customer, and one in the next year.
  for (const date of ["2026-03-01", "2026-04-04"])
    await postEntry(t, {
      company_id: fx.companyId,
      date,
      lines: [debit(fx.codes.bank, "3.00"), credit(fx.codes.sales, "3.00")],
    });
  await postEntry(t, {
    company_id: fx.companyId,
    fiscal_year_code: "2027",
    date: "2027-01-02",
    lines: [debit(fx.codes.customer, "8.00"), credit(fx.codes.sales, "8.00")],
  });
});
afterAll(async () => {
  await t?.close();
});

/** The ledger as the entries say it: entries with a line on the code, newest first. */
async function expected(code: string, where = sql`true`) {
  const rows = await queryRows<{ id: string }>(
    t.db,
    sql`select e.id from entries e join fiscal_years f on f.id = e.fiscal_year_id
         where e.company_id = ${fx.companyId} and ${where}
           and exists (select 1 from entry_lines l join subaccounts s on s.id = l.subaccount_id
                        where l.entry_id = e.id and s.code = ${code})
         order by e.date desc, e.number desc, e.id desc`,
  );
  return rows.map((r) => r.id);
}

async function list(query: string) {
  const res = await t.as(t.adminToken, {
    method: "GET",
    url: `/api/accounting/entries?company_id=${fx.companyId}&${query}`,
  });
  return res;
}

async function pages(query: string, limit: number) {
  const ids: string[] = [];
  let after = "";
  for (;;) {
    const res = await list(`${query}&limit=${limit}${after ? `&after=${after}` : ""}`);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { data: { id: string }[] };
    ids.push(...body.data.map((e) => e.id));
    if (body.data.length < limit) return ids;
    after = body.data.at(-1)!.id;
  }
}

describe("GET /api/accounting/entries?subaccount_code= (the lines' index)", () => {
  it("lists each entry with a line on the subaccount once, newest first, with an exact total", async () => {
    const want = await expected(fx.codes.customer, sql`f.code = '2026'`);
    expect(want).toHaveLength(6);
    const res = await list(`fiscal_year_code=2026&subaccount_code=${fx.codes.customer}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data.map((e: { id: string }) => e.id)).toEqual(want);
    expect(body.total).toBe(6);
    expect(body.total_is_estimate).toBe(false);
  });

  it("pages by after= and by skip to the same list, across fiscal years without a year filter", async () => {
    const all = await expected(fx.codes.customer);
    expect(all).toHaveLength(7);
    expect(await pages(`subaccount_code=${fx.codes.customer}`, 2)).toEqual(all);
    const skipped = await list(`subaccount_code=${fx.codes.customer}&limit=3&skip=2`);
    expect(skipped.json().data.map((e: { id: string }) => e.id)).toEqual(all.slice(2, 5));
    expect(skipped.json().total).toBe(7);
  });

  it("applies the date range, and equals the general path when a journal is also given", async () => {
    const range = "date_from=2026-02-01&date_to=2026-03-31";
    const want = await expected(fx.codes.customer, sql`e.date between '2026-02-01' and '2026-03-31'`);
    expect(await pages(`subaccount_code=${fx.codes.customer}&${range}`, 2)).toEqual(want);
    // With journal=GEN the list takes the entries' own filter: the same entries.
    expect(await pages(`subaccount_code=${fx.codes.customer}&${range}&journal=GEN`, 50)).toEqual(want);
  });

  it("answers 400 for an after= that is not an entry of this ledger, and an empty page for an unknown code", async () => {
    const bankOnly = await expected(fx.codes.bank);
    expect(bankOnly).toHaveLength(2);
    const notCustomer = bankOnly[0];
    const res = await list(`subaccount_code=${fx.codes.customer}&after=${notCustomer}`);
    expect(res.statusCode).toBe(400);
    const unknown = await list("subaccount_code=4309999999");
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toMatchObject({ data: [], total: 0, total_is_estimate: false });
  });
});

describe("entry_lines.entry_date and entry_number", () => {
  it("equal their entry's on every line the API wrote", async () => {
    const off = await queryOne<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from entry_lines l join entries e on e.id = l.entry_id
           where l.entry_date <> e.date or l.entry_number <> e.number`,
    );
    expect(off?.n).toBe(0);
  });

  it("are filled from the entry when an INSERT leaves them out, and refused at COMMIT when they differ", async () => {
    const ids = Object.fromEntries(
      (
        await queryRows<{ code: string; id: string }>(
          t.db,
          sql`select code, id from subaccounts where fiscal_year_id = ${fx.year.id}`,
        )
      ).map((r) => [r.code, r.id]),
    );
    const post = (linesSql: (entryId: string) => ReturnType<typeof sql>) =>
      inTransaction(t.db, async (tx) => {
        const year = await queryOne<{ last: number }>(
          tx,
          sql`update fiscal_years set last_entry_number = last_entry_number + 1 where id = ${fx.year.id}
              returning last_entry_number as last`,
        );
        const entry = await queryOne<{ id: string; number: number }>(
          tx,
          sql`insert into entries (id, company_id, fiscal_year_id, journal_id, number, date, concept, total)
              select gen_random_uuid(), ${fx.companyId}, ${fx.year.id}, j.id, ${year!.last}, '2026-07-07', 'raw', 4
                from journals j where j.company_id = ${fx.companyId} and j.code = 'GEN'
              returning id, number`,
        );
        await tx.execute(linesSql(entry!.id));
        return entry!;
      });
    const filled = await post(
      (
        id,
      ) => sql`insert into entry_lines (id, company_id, fiscal_year_id, entry_id, line_no, subaccount_id, debit, credit)
        values (gen_random_uuid(), ${fx.companyId}, ${fx.year.id}, ${id}, 1, ${ids[fx.codes.customer]}, 4, 0),
               (gen_random_uuid(), ${fx.companyId}, ${fx.year.id}, ${id}, 2, ${ids[fx.codes.sales]}, 0, 4)`,
    );
    const lines = await queryRows<{ entry_date: string; entry_number: number }>(
      t.db,
      sql`select entry_date::text, entry_number from entry_lines where entry_id = ${filled.id}`,
    );
    expect(lines).toEqual([
      { entry_date: "2026-07-07", entry_number: filled.number },
      { entry_date: "2026-07-07", entry_number: filled.number },
    ]);
    expect(
      (await list(`fiscal_year_code=2026&subaccount_code=${fx.codes.customer}&limit=1`)).json().data[0].id,
    ).toBe(filled.id);

    const wrong = await post(
      (
        id,
      ) => sql`insert into entry_lines (id, company_id, fiscal_year_id, entry_id, entry_date, entry_number, line_no, subaccount_id, debit, credit)
        values (gen_random_uuid(), ${fx.companyId}, ${fx.year.id}, ${id}, '2026-12-31', 1, 1, ${ids[fx.codes.customer]}, 4, 0),
               (gen_random_uuid(), ${fx.companyId}, ${fx.year.id}, ${id}, null, null, 2, ${ids[fx.codes.sales]}, 0, 4)`,
    ).then(
      () => null,
      (e: unknown) => e,
    );
    expect(sqlState(wrong)).toBe("23514");
    expect(JSON.stringify(wrong, Object.getOwnPropertyNames(wrong)) + String(wrong)).toMatch(/entry_date/);
  });
});
