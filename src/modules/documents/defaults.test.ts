import { readFileSync } from "node:fs";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers/app.js";
import { expectProblem } from "../../../test/helpers/problem.js";
import { MIGRATIONS_FOLDER } from "../../platform/db/migrate.js";
import { queryRows } from "../../platform/db/sql.js";
import { ConflictError } from "../../platform/http/errors.js";
import { uuidv7 } from "../../platform/ids.js";
import { onCompanyCreated } from "../companies/index.js";
import { listAll, uniqueCif } from "./config-test-support.js";
import {
  DEFAULT_DOCUMENT_SETTINGS,
  DEFAULT_PAYMENT_TERMS,
  DEFAULT_SERIES,
  DEFAULT_TAX_CODES,
  ensureDocumentDefaults,
} from "./index.js";
import { documentSeries, documentSettings, paymentTerms, taxCodes } from "./tables.js";

let t: TestApp;

const REFUSED_NAME = "Refused by a company hook";

beforeAll(async () => {
  t = await createTestApp();
  // A second hook that refuses one company by name: the company and the defaults already written
  // by the documents hook must both be rolled back.
  onCompanyCreated(async (tx, companyId) => {
    const [row] = await queryRows<{ name: string }>(
      tx,
      sql`select name from companies where id = ${companyId}`,
    );
    if (row?.name === REFUSED_NAME) throw new ConflictError("refused by the test hook");
  });
});
afterAll(async () => {
  await t?.close();
});

const percent = (v: string) => Number(v).toFixed(2);

/** The defaults as the API shows them, in list order. */
const expectedSeries = DEFAULT_SERIES.map((s) => ({
  code: s.code,
  name: s.name,
  kind: s.kind,
  is_active: true,
}));
const expectedTerms = DEFAULT_PAYMENT_TERMS.map((p) => ({
  code: p.code,
  name: p.name,
  lines: p.lines.map((l) => ({ kind: l.kind, value: l.value ?? null, days: l.days, end_of_month: false })),
  is_active: true,
}));
const expectedTaxes = DEFAULT_TAX_CODES.map((c) => ({
  code: c.code,
  name: c.name,
  kind: c.kind,
  rate: percent(c.rate),
  re_rate: percent(c.reRate),
  operation: c.operation,
  exemption_reason: c.exemptionReason,
  irpf_kind: c.irpfKind,
  capital_goods: c.capitalGoods,
  is_active: true,
}));

const pick = <T extends Record<string, unknown>>(rows: T[], keys: string[]) =>
  rows.map((r) => Object.fromEntries(keys.map((k) => [k, r[k]])));

async function defaultsOf(companyId: string) {
  const series = await listAll(t, "/api/series", companyId);
  const taxes = await listAll(t, "/api/taxes", companyId);
  const terms = await listAll(t, "/api/payment-terms", companyId);
  const settings = await t.as(t.adminToken, { method: "GET", url: `/api/document-settings/${companyId}` });
  expect(settings.statusCode, settings.body).toBe(200);
  return {
    series: pick(series, Object.keys(expectedSeries[0])),
    taxes: pick(taxes, Object.keys(expectedTaxes[0])),
    terms: pick(terms, Object.keys(expectedTerms[0])),
    settings: settings.json(),
  };
}

const expectedSettings = (companyId: string) => ({
  company_id: companyId,
  tax_regime: DEFAULT_DOCUMENT_SETTINGS.taxRegime,
  auto_posting: DEFAULT_DOCUMENT_SETTINGS.autoPosting,
  sales_account: DEFAULT_DOCUMENT_SETTINGS.salesAccount,
  purchases_account: DEFAULT_DOCUMENT_SETTINGS.purchasesAccount,
  sales_returns_account: DEFAULT_DOCUMENT_SETTINGS.salesReturnsAccount,
  supplied_account: DEFAULT_DOCUMENT_SETTINGS.suppliedAccount,
  updated_at: expect.any(String),
});

describe("the defaults of a new company", () => {
  it("are exactly series A/R/S, the Spanish tax codes, cash and 30 days, and default settings", async () => {
    const companyId = await t.createCompany("Defaults", uniqueCif());
    const got = await defaultsOf(companyId);
    expect(got.series).toEqual(expectedSeries);
    expect(got.taxes).toEqual(expectedTaxes);
    expect(got.terms).toEqual(expectedTerms);
    expect(got.settings).toEqual(expectedSettings(companyId));
  });

  it("hold the rates and regimes documents.md lists", () => {
    const byCode = new Map(DEFAULT_TAX_CODES.map((c) => [c.code, c]));
    const vat = (code: string) => [byCode.get(code)?.rate, byCode.get(code)?.reRate];
    expect([vat("IVA21"), vat("IVA10"), vat("IVA4"), vat("IVA0")]).toEqual([
      ["21", "5.2"],
      ["10", "1.4"],
      ["4", "0.5"],
      ["0", "0"],
    ]);
    const irpf = DEFAULT_TAX_CODES.filter((c) => c.kind === "irpf" && c.irpfKind === "activities");
    expect(irpf.map((c) => c.rate)).toEqual(["1", "2", "7", "15", "19", "21"]);
    expect(byCode.get("IRPF19A")).toMatchObject({ rate: "19", irpfKind: "rent" });
    expect(byCode.get("IVA21BI")).toMatchObject({ rate: "21", reRate: "5.2", capitalGoods: true });
    expect(
      DEFAULT_TAX_CODES.filter((c) => c.exemptionReason).map((c) => [c.code, c.exemptionReason]),
    ).toEqual([
      ["EXENTO", "E1"],
      ["EXP", "E2"],
      ["EIC", "E5"],
    ]);
    expect(new Set(DEFAULT_TAX_CODES.map((c) => c.code)).size).toBe(DEFAULT_TAX_CODES.length);
  });

  it("are written in the company's own transaction: a refused company leaves no defaults behind", async () => {
    const before = await t.db.select({ n: sql<number>`count(*)::int` }).from(documentSeries);
    const res = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/companies",
      payload: { name: REFUSED_NAME, tax_id: uniqueCif() },
    });
    expectProblem(res, 409);
    expect(await queryRows(t.db, sql`select id from companies where name = ${REFUSED_NAME}`)).toEqual([]);
    const after = await t.db.select({ n: sql<number>`count(*)::int` }).from(documentSeries);
    expect(after).toEqual(before);
  });

  it("ensureDocumentDefaults completes what is missing and leaves edited rows alone", async () => {
    const companyId = await t.createCompany("Idempotent", uniqueCif());
    await t.db
      .update(documentSeries)
      .set({ name: "Facturas", isActive: false })
      .where(sql`${documentSeries.companyId} = ${companyId} and ${documentSeries.code} = 'A'`);
    await t.db
      .update(documentSettings)
      .set({ salesAccount: "705" })
      .where(eq(documentSettings.companyId, companyId));
    await t.db.delete(taxCodes).where(sql`${taxCodes.companyId} = ${companyId} and ${taxCodes.code} = 'NS'`);

    await ensureDocumentDefaults(t.db, companyId);
    await ensureDocumentDefaults(t.db, companyId);

    const got = await defaultsOf(companyId);
    expect(got.series[0]).toEqual({ code: "A", name: "Facturas", kind: "general", is_active: false });
    expect(got.series).toHaveLength(DEFAULT_SERIES.length);
    expect(got.settings.sales_account).toBe("705");
    expect(got.taxes.map((c) => c.code).sort()).toEqual(DEFAULT_TAX_CODES.map((c) => c.code).sort());
    expect(got.terms).toEqual(expectedTerms);
  });
});

describe("migration 0003 (companies that existed before the documents engine)", () => {
  // 0003, then the tax codes the tax returns added later (0005): together, today's defaults.
  const statements = ["0003_documents_defaults.sql", "0008_tax_codes_for_returns.sql"]
    .map((file) => readFileSync(join(MIGRATIONS_FOLDER, file), "utf8"))
    .join("\n--> statement-breakpoint\n")
    .split("--> statement-breakpoint")
    .map((s) => s.trim())
    .filter(Boolean);

  /** A company inserted behind the service's back, as rows written before the engine existed. */
  async function insertOlderCompany(name: string) {
    const id = uuidv7();
    await t.db.execute(sql`insert into companies (id, name, tax_id) values (${id}, ${name}, ${uniqueCif()})`);
    return { id };
  }

  async function runMigrationStep() {
    for (const statement of statements) await t.db.execute(sql.raw(statement));
  }

  it("gives an older company the very defaults a new company gets, once", async () => {
    const old = await insertOlderCompany("Older company");
    expect(await t.db.select().from(documentSeries).where(eq(documentSeries.companyId, old.id))).toEqual([]);

    await runMigrationStep();
    const reference = await t.createCompany("Reference", uniqueCif());
    const migrated = await defaultsOf(old.id);
    const created = await defaultsOf(reference);
    expect(migrated.series).toEqual(created.series);
    expect(migrated.taxes).toEqual(created.taxes);
    expect(migrated.terms).toEqual(created.terms);
    expect(migrated.settings).toEqual({
      ...created.settings,
      company_id: old.id,
      updated_at: expect.any(String),
    });

    const counts = async () =>
      Promise.all(
        [documentSeries, taxCodes, paymentTerms].map(async (table) =>
          t.db.$count(table, eq(table.companyId, old.id)),
        ),
      );
    const once = await counts();
    await runMigrationStep();
    expect(await counts()).toEqual(once);
    expect(once).toEqual([DEFAULT_SERIES.length, DEFAULT_TAX_CODES.length, DEFAULT_PAYMENT_TERMS.length]);
  });

  it("mints UUID v7 ids that keep each company's rows in the listed order", async () => {
    const old = await insertOlderCompany("Older company 2");
    await runMigrationStep();
    const rows = await queryRows<{ id: string; code: string }>(
      t.db,
      sql`select id::text as id, code from tax_codes where company_id = ${old.id} order by created_at, id`,
    );
    expect(rows.map((r) => r.code)).toEqual(DEFAULT_TAX_CODES.map((c) => c.code));
    for (const { id } of rows)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const ms = Number.parseInt(rows[0].id.replace(/-/g, "").slice(0, 12), 16);
    expect(Math.abs(ms - Date.now())).toBeLessThan(60_000);
  });
});
