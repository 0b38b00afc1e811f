import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { onPostgres } from "../../../../test/helpers/db.js";
import { addDays } from "../../../platform/dates.js";
import { queryRows } from "../../../platform/db/sql.js";
import { Dec, toMoney } from "../../../platform/money.js";
import { credit, debit, type LineBody, ledgerFixture, postEntry } from "../test-support.js";

let t: TestApp;
let fx: Awaited<ReturnType<typeof ledgerFixture>>;
let codes: string[];

beforeAll(async () => {
  t = await createTestApp();
  fx = await ledgerFixture(t);
  codes = Object.values(fx.codes);
});
afterAll(async () => {
  await t?.close();
});

const get = async (url: string) => {
  const res = await t.as(t.adminToken, { method: "GET", url });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

const dayOf2026 = fc.integer({ min: 0, max: 364 }).map((n) => addDays("2026-01-01", n));
const cents = fc.integer({ min: 1, max: 5_000_000_00 }).map((n) => new Dec(n).dividedBy(100).toFixed(2));

/** Balanced by construction: every movement is a debit and a credit of the same amount. */
const entryArbitrary = fc.record({
  date: dayOf2026,
  movements: fc.array(fc.record({ from: fc.nat(6), to: fc.nat(6), amount: cents }), {
    minLength: 1,
    maxLength: 3,
  }),
});

interface Movement {
  code: string;
  date: string;
  debit: string;
  credit: string;
}

/** Every movement recomputed from the journal lines (what the balance tables must agree with). */
const journalMovements = () =>
  queryRows<Movement>(
    t.db,
    sql`select s.code, e.date::text as date, l.debit::text as debit, l.credit::text as credit
          from entry_lines l
          join entries e on e.id = l.entry_id
          join subaccounts s on s.id = l.subaccount_id
         where e.fiscal_year_id = ${fx.year.id}`,
  );

function totalsByCode(movements: Movement[], include: (m: Movement) => boolean, codeOf = (c: string) => c) {
  const out = new Map<string, { debit: Dec; credit: Dec }>();
  for (const m of movements.filter(include)) {
    const key = codeOf(m.code);
    const t0 = out.get(key) ?? { debit: new Dec(0), credit: new Dec(0) };
    out.set(key, { debit: t0.debit.plus(m.debit), credit: t0.credit.plus(m.credit) });
  }
  return out;
}

const asAmounts = (m: Map<string, { debit: Dec; credit: Dec }>) =>
  Object.fromEntries(
    [...m.entries()].map(([code, a]) => [
      code,
      { debit: toMoney(a.debit), credit: toMoney(a.credit), balance: toMoney(a.debit.minus(a.credit)) },
    ]),
  );

const byCode = (rows: { code: string; debit: string; credit: string; balance: string }[]) =>
  Object.fromEntries(rows.map((r) => [r.code, { debit: r.debit, credit: r.credit, balance: r.balance }]));

describe("balance tables", () => {
  it("always equal the sums recomputed from the journal lines, per day, month, subaccount and level", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(entryArbitrary, { minLength: 1, maxLength: 6 }),
        dayOf2026,
        async (batch, dateTo) => {
          for (const e of batch) {
            const lines: LineBody[] = e.movements.flatMap((m) => [
              debit(codes[m.from], m.amount),
              credit(codes[m.to], m.amount),
            ]);
            const res = await postEntry(t, { date: e.date, lines });
            expect(res.statusCode, res.body).toBe(201);
          }

          const daily = await queryRows<{ code: string; key: string; debit: string; credit: string }>(
            t.db,
            sql`select s.code, b.date::text as key, b.debit::text as debit, b.credit::text as credit
                from ledger_daily_balances b join subaccounts s on s.id = b.subaccount_id
               where b.fiscal_year_id = ${fx.year.id}`,
          );
          const monthly = await queryRows<{ code: string; key: string; debit: string; credit: string }>(
            t.db,
            sql`select s.code, b.month::text as key, b.debit::text as debit, b.credit::text as credit
                from ledger_monthly_balances b join subaccounts s on s.id = b.subaccount_id
               where b.fiscal_year_id = ${fx.year.id}`,
          );
          const movements = await journalMovements();
          const recomputed = (keyOf: (m: Movement) => string) =>
            asAmounts(
              totalsByCode(
                movements.map((m) => ({ ...m, code: `${m.code}@${keyOf(m)}` })),
                () => true,
              ),
            );
          const stored = (rows: typeof daily) =>
            asAmounts(
              new Map(
                rows.map((r) => [
                  `${r.code}@${r.key}`,
                  { debit: new Dec(r.debit), credit: new Dec(r.credit) },
                ]),
              ),
            );
          expect(stored(daily)).toEqual(recomputed((m) => m.date));
          expect(stored(monthly)).toEqual(recomputed((m) => `${m.date.slice(0, 7)}-01`));

          const upTo = (m: Movement) => m.date <= dateTo;
          const balances = await get(`/api/accounting/balances?fiscal_year_code=2026&date_to=${dateTo}`);
          expect(byCode(balances.subaccounts)).toEqual(asAmounts(totalsByCode(movements, upTo)));
          expect(byCode(balances.accounts)).toEqual(
            asAmounts(totalsByCode(movements, upTo, (c) => c.slice(0, 3))),
          );
          expect(byCode(balances.subgroups)).toEqual(
            asAmounts(totalsByCode(movements, upTo, (c) => c.slice(0, 2))),
          );
          expect(byCode(balances.groups)).toEqual(
            asAmounts(totalsByCode(movements, upTo, (c) => c.slice(0, 1))),
          );
          expect(balances.totals.debit).toBe(balances.totals.credit);
        },
      ),
      { numRuns: onPostgres() ? 25 : 8 },
    );
  });

  it("gives a trial balance whose opening, period and closing figures match the lines", async () => {
    await fc.assert(
      fc.asyncProperty(dayOf2026, dayOf2026, async (a, b) => {
        const [from, to] = a <= b ? [a, b] : [b, a];
        const movements = await journalMovements();
        expect(movements.length).toBeGreaterThan(0);
        const report = await get(
          `/api/accounting/trial-balance?fiscal_year_code=2026&date_from=${from}&date_to=${to}`,
        );
        const opening = totalsByCode(movements, (m) => m.date < from);
        const period = totalsByCode(movements, (m) => m.date >= from && m.date <= to);
        const expected = [...new Set([...opening.keys(), ...period.keys()])].sort().map((code) => {
          const o = opening.get(code) ?? { debit: new Dec(0), credit: new Dec(0) };
          const p = period.get(code) ?? { debit: new Dec(0), credit: new Dec(0) };
          const openingBalance = o.debit.minus(o.credit);
          return {
            code,
            opening_balance: toMoney(openingBalance),
            period_debit: toMoney(p.debit),
            period_credit: toMoney(p.credit),
            closing_balance: toMoney(openingBalance.plus(p.debit).minus(p.credit)),
          };
        });
        expect(report).toMatchObject({ date_from: from, date_to: to, fiscal_year_code: "2026" });
        expect(report.rows.map(({ name: _n, account_code: _a, ...r }: Record<string, string>) => r)).toEqual(
          expected,
        );
        expect(report.totals.period_debit).toBe(report.totals.period_credit);
      }),
      { numRuns: onPostgres() ? 30 : 10 },
    );
  });
});

describe("GET /api/accounting/balances", () => {
  it("names the rollups from the chart and filters by account code", async () => {
    await postEntry(t, {
      date: "2026-12-31",
      lines: [
        debit(fx.codes.customer, "121.00"),
        credit(fx.codes.sales, "100.00"),
        credit(fx.codes.vatOutput, "21.00"),
      ],
    });
    const all = await get("/api/accounting/balances?fiscal_year_code=2026");
    expect(all.date_to).toBe("2026-12-31");
    expect(all.groups.find((g: { code: string }) => g.code === "4").name).toBe(
      "Acreedores y deudores por operaciones comerciales",
    );
    expect(all.accounts.find((g: { code: string }) => g.code === "430").name).toBe("Clientes");
    expect(all.subaccounts.find((s: { code: string }) => s.code === fx.codes.customer).account_code).toBe(
      "4300",
    );

    const customers = await get("/api/accounting/balances?fiscal_year_code=2026&account_code=43");
    expect(customers.subaccounts.map((s: { code: string }) => s.code)).toEqual([fx.codes.customer]);
    const [customer] = customers.subaccounts;
    expect(customers.totals).toEqual({
      debit: customer.debit,
      credit: customer.credit,
      balance: customer.balance,
    });

    const one = await get("/api/accounting/balances/430?fiscal_year_code=2026");
    expect(one).toMatchObject({ account_code: "430", name: "Clientes", ...customers.totals });
    const missing = await t.as(t.adminToken, {
      method: "GET",
      url: "/api/accounting/balances/439?fiscal_year_code=2026",
    });
    expect(missing.statusCode).toBe(404);
  });

  it("answers 404 for an unknown fiscal year and 400 for a malformed account code or date", async () => {
    for (const [query, status] of [
      ["fiscal_year_code=1990", 404],
      ["account_code=43x", 400],
      ["date_to=2026-02-30", 400],
    ] as const) {
      const res = await t.as(t.adminToken, { method: "GET", url: `/api/accounting/balances?${query}` });
      expect(res.statusCode, query).toBe(status);
    }
    const reversed = await t.as(t.adminToken, {
      method: "GET",
      url: "/api/accounting/trial-balance?date_from=2026-05-01&date_to=2026-04-01",
    });
    expect(reversed.statusCode).toBe(400);
  });
});
