import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { assertBalanced, getEntry, listEntriesWithLines } from "../index.js";
import { credit, debit, ledgerFixture, postEntry, serviceCtx } from "../test-support.js";

let t: TestApp;
let fx: Awaited<ReturnType<typeof ledgerFixture>>;

beforeAll(async () => {
  t = await createTestApp();
  fx = await ledgerFixture(t);
});
afterAll(async () => {
  await t?.close();
});

const sale = (amount = "121.00") => [
  debit(fx.codes.customer, amount),
  credit(fx.codes.sales, "100.00"),
  credit(fx.codes.vatOutput, "21.00"),
];

describe("POST /api/accounting/entries", () => {
  it("posts a balanced entry with its lines, the next number and the default GEN journal", async () => {
    const res = await postEntry(t, { date: "2026-03-15", concept: "Invoice 1", lines: sale() });
    expect(res.statusCode).toBe(201);
    const entry = res.json();
    expect(entry).toMatchObject({
      company_id: fx.companyId,
      fiscal_year_code: "2026",
      journal_code: "GEN",
      date: "2026-03-15",
      concept: "Invoice 1",
      total: "121.00",
      reversal_of: null,
      reversed_by: null,
    });
    expect(entry.number).toBeGreaterThan(0);
    expect(entry.lines).toHaveLength(3);
    expect(entry.lines[0]).toMatchObject({
      line_no: 1,
      subaccount_code: fx.codes.customer,
      debit: "121.00",
      credit: "0.00",
    });
    expect(entry.lines[2]).toMatchObject({
      subaccount_code: fx.codes.vatOutput,
      debit: "0.00",
      credit: "21.00",
    });

    const again = await postEntry(t, { date: "2026-03-16", lines: sale() });
    expect(again.json().number).toBe(entry.number + 1);

    const fetched = await t.as(t.adminToken, { method: "GET", url: `/api/accounting/entries/${entry.id}` });
    expect(fetched.statusCode).toBe(200);
    expect(fetched.json()).toEqual(entry);
  });

  it("refuses an unbalanced entry with a 400 naming the difference", async () => {
    const res = await postEntry(t, {
      date: "2026-03-15",
      lines: [debit(fx.codes.customer, "100.00"), credit(fx.codes.sales, "90.00")],
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers["content-type"]).toContain("application/problem+json");
    expect(res.json().detail).toContain("debits 100.00 != credits 90.00 (difference 10.00)");
  });

  it("refuses fewer than two lines, a line with both or neither side, negative and 3-decimal amounts", async () => {
    const bad = [
      [debit(fx.codes.customer, "10.00")],
      [
        { subaccount_code: fx.codes.customer, debit: "10.00", credit: "10.00" },
        credit(fx.codes.sales, "0.00"),
      ],
      [{ subaccount_code: fx.codes.customer }, credit(fx.codes.sales, "10.00")],
      [debit(fx.codes.customer, "0.00"), credit(fx.codes.sales, "0.00")],
      [debit(fx.codes.customer, "-10.00"), credit(fx.codes.sales, "-10.00")],
      [debit(fx.codes.customer, "10.005"), credit(fx.codes.sales, "10.005")],
      [{ subaccount_code: fx.codes.customer, debit: 10 }, credit(fx.codes.sales, "10.00")],
    ];
    for (const lines of bad) {
      const res = await postEntry(t, { date: "2026-03-15", lines: lines as never });
      expect(res.statusCode, JSON.stringify(lines)).toBe(400);
    }
  });

  it("refuses an unknown subaccount, an unknown journal and a date outside the year with 400", async () => {
    const unknown = await postEntry(t, {
      date: "2026-03-15",
      lines: [debit("4300000999", "10.00"), credit(fx.codes.sales, "10.00")],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().detail).toContain("4300000999");
    expect(unknown.json().errors[0].path).toBe("lines.0.subaccount_code");

    const journal = await postEntry(t, { date: "2026-03-15", journal: "NOPE", lines: sale() });
    expect(journal.statusCode).toBe(400);

    const outside = await postEntry(t, { fiscal_year_code: "2026", date: "2027-01-02", lines: sale() });
    expect(outside.statusCode).toBe(400);
    const noYear = await postEntry(t, { date: "2031-01-02", lines: sale() });
    expect(noYear.statusCode).toBe(400);
    const unknownYear = await postEntry(t, { fiscal_year_code: "1999", date: "2026-01-02", lines: sale() });
    expect(unknownYear.statusCode).toBe(400);
  });

  it("posts to a named journal of the company", async () => {
    const created = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/accounting/journals",
      payload: { company_id: fx.companyId, code: "VEN", name: "Ventas", type: "sales" },
    });
    expect(created.statusCode).toBe(201);
    const res = await postEntry(t, { date: "2026-04-01", journal: "ven", lines: sale() });
    expect(res.statusCode).toBe(201);
    expect(res.json().journal_code).toBe("VEN");
  });
});

describe("POST /api/accounting/entries/{id}/reverse", () => {
  it("posts the counter-entry with debits and credits swapped, its own number and the link", async () => {
    const original = (
      await postEntry(t, { date: "2026-05-10", concept: "To reverse", lines: sale() })
    ).json();
    const res = await t.as(t.adminToken, {
      method: "POST",
      url: `/api/accounting/entries/${original.id}/reverse`,
      payload: { date: "2026-05-20" },
    });
    expect(res.statusCode).toBe(201);
    const reversal = res.json();
    expect(reversal.number).toBeGreaterThan(original.number);
    expect(reversal.reversal_of).toBe(original.id);
    expect(reversal.date).toBe("2026-05-20");
    expect(reversal.concept).toContain("To reverse");
    expect(reversal.total).toBe(original.total);
    expect(reversal.lines.map((l: { debit: string; credit: string }) => [l.debit, l.credit])).toEqual(
      original.lines.map((l: { debit: string; credit: string }) => [l.credit, l.debit]),
    );

    const fetched = await t.as(t.adminToken, {
      method: "GET",
      url: `/api/accounting/entries/${original.id}`,
    });
    expect(fetched.json().reversed_by).toBe(reversal.id);

    const twice = await t.as(t.adminToken, {
      method: "POST",
      url: `/api/accounting/entries/${original.id}/reverse`,
      payload: {},
    });
    expect(twice.statusCode).toBe(409);
  });

  it("answers 404 for an unknown entry and 400 for a non-UUID id", async () => {
    const unknown = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/accounting/entries/0190f2a4-0000-7000-8000-000000000000/reverse",
    });
    expect(unknown.statusCode, unknown.body).toBe(404);
    const notUuid = await t.as(t.adminToken, { method: "GET", url: "/api/accounting/entries/42" });
    expect(notUuid.statusCode).toBe(400);
  });
});

describe("posted entries are immutable", () => {
  it("offers no route to change or delete an entry", async () => {
    const entry = (await postEntry(t, { date: "2026-06-01", lines: sale() })).json();
    for (const method of ["PUT", "PATCH", "DELETE"] as const) {
      const res = await t.as(t.adminToken, {
        method,
        url: `/api/accounting/entries/${entry.id}`,
        payload: method === "DELETE" ? undefined : { concept: "changed" },
      });
      expect(res.statusCode, method).toBe(404);
    }
  });

  it("refuses UPDATE and DELETE of posted entries and lines in the database", async () => {
    const entry = (await postEntry(t, { date: "2026-06-02", lines: sale() })).json();
    const attempts = [
      sql`update entries set concept = 'changed' where id = ${entry.id}`,
      sql`delete from entries where id = ${entry.id}`,
      sql`update entry_lines set debit = debit + 1 where entry_id = ${entry.id}`,
      sql`delete from entry_lines where entry_id = ${entry.id}`,
    ];
    for (const attempt of attempts) await expect(t.db.execute(attempt)).rejects.toThrow();
    const fetched = await t.as(t.adminToken, { method: "GET", url: `/api/accounting/entries/${entry.id}` });
    expect(fetched.json()).toEqual(entry);
  });
});

describe("GET /api/accounting/entries", () => {
  it("filters by journal, dates, subaccount and search, newest first or by number", async () => {
    const q = (query: string) =>
      t.as(t.adminToken, { method: "GET", url: `/api/accounting/entries?fiscal_year_code=2026&${query}` });
    await postEntry(t, {
      date: "2026-11-30",
      concept: "Bank fee unique-zeta",
      lines: [debit(fx.codes.purchases, "5.00"), credit(fx.codes.bank, "5.00")],
    });
    const all = (await q("limit=10000")).json();
    expect(all.total).toBe(all.data.length);
    const dates = all.data.map((e: { date: string }) => e.date);
    expect(dates).toEqual([...dates].sort().reverse());

    const byNumber = (await q("sort=number&limit=10000")).json();
    const numbers = byNumber.data.map((e: { number: number }) => e.number);
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));

    expect((await q("search=unique-zeta")).json().total).toBe(1);
    expect((await q(`subaccount_code=${fx.codes.bank}`)).json().total).toBe(1);
    expect((await q("date_from=2026-11-01&date_to=2026-11-30")).json().total).toBe(1);
    expect(
      (await q("journal=VEN")).json().data.every((e: { journal_code: string }) => e.journal_code === "VEN"),
    ).toBe(true);
    expect((await q("date_from=2026-12-01")).json()).toEqual({
      data: [],
      total: 0,
      total_is_estimate: false,
      skip: 0,
      limit: 50,
    });
  });

  it("after= walks the same pages as skip in both orders; a cursor outside the list is a 400", async () => {
    for (let i = 1; i <= 4; i++)
      await postEntry(t, { date: `2026-05-0${i}`, concept: `Keyset ${i}`, lines: sale() });
    await postEntry(t, { date: "2026-05-02", concept: "Keyset same day", lines: sale() });
    const q = (query: string) =>
      t.as(t.adminToken, { method: "GET", url: `/api/accounting/entries?fiscal_year_code=2026&${query}` });
    for (const sort of ["newest", "number"]) {
      const all = (await q(`sort=${sort}&limit=10000`)).json();
      expect(all.total).toBeGreaterThanOrEqual(5);
      const walked: string[] = [];
      let after = "";
      for (;;) {
        const res = await q(`sort=${sort}&limit=2${after ? `&after=${after}` : ""}`);
        expect(res.statusCode).toBe(200);
        const page = res.json();
        expect(page.total).toBe(all.total);
        expect(page.total_is_estimate).toBe(false);
        walked.push(...page.data.map((e: { id: string }) => e.id));
        if (page.data.length < 2) break;
        after = page.data[1].id;
      }
      expect(walked).toEqual(all.data.map((e: { id: string }) => e.id));
    }
    const unknown = await q("after=00000000-0000-7000-8000-000000000000");
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors).toEqual([expect.objectContaining({ path: "after" })]);
    const may = (await q("date_from=2026-05-01&date_to=2026-05-31&limit=1")).json().data[0].id;
    expect((await q(`date_from=2026-06-01&after=${may}`)).statusCode).toBe(400);
    expect((await q("after=not-a-uuid")).statusCode).toBe(400);
  });
});

describe("assertBalanced", () => {
  it("refuses malformed amounts from callers that skip the HTTP schema with a 400", () => {
    for (const lines of [
      [
        { subaccountCode: "4300000001", debit: "ten" },
        { subaccountCode: "7000000001", credit: "10.00" },
      ],
      [
        { subaccountCode: "4300000001", debit: "Infinity" },
        { subaccountCode: "7000000001", credit: "Infinity" },
      ],
    ]) {
      expect(() => assertBalanced(lines)).toThrow(expect.objectContaining({ status: 400 }));
    }
    expect(
      assertBalanced([
        { subaccountCode: "4300000001", debit: "10.50" },
        { subaccountCode: "7000000001", credit: "10.5" },
      ]).toFixed(2),
    ).toBe("10.50");
  });
});

describe("listEntriesWithLines", () => {
  it("returns the page of listEntries with each entry's lines", async () => {
    const ctx = serviceCtx(t.ctx);
    const { rows, total } = await listEntriesWithLines(ctx, { fiscalYearCode: "2026", limit: 5, offset: 0 });
    expect(total).toBeGreaterThan(5);
    expect(rows).toHaveLength(5);
    for (const row of rows) expect(row).toEqual(await getEntry(ctx, row.id));
  });
});
