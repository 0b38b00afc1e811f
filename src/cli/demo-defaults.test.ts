import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../test/helpers/db.js";
import { DEFAULT_PAYMENT_TERMS, DEFAULT_SERIES, DEFAULT_TAX_CODES } from "../modules/documents/index.js";
import { queryRows } from "../platform/db/sql.js";
import type { AuthedCtx } from "../platform/http/context.js";

/**
 * The CLI builds no app: `npm run cli -- demo` must register the documents hook on its own
 * (src/cli/demo.ts imports documents/index.ts, which registers it). The suite shares one module
 * graph per worker, where an earlier file may have registered the hook already: the demo is
 * imported into a fresh module registry, so only what src/cli/demo.ts imports counts.
 */
let database: TestDatabase;
let loadEnterpriseDemo: typeof import("./demo.js").loadEnterpriseDemo;
beforeAll(async () => {
  database = await createTestDatabase();
  vi.resetModules();
  ({ loadEnterpriseDemo } = await import("./demo.js"));
});
afterAll(async () => {
  await database?.destroy();
});

describe("the CLI demo", () => {
  it("creates its company with the documents defaults", async () => {
    const db = database.handle.db;
    const ctx: AuthedCtx = {
      db,
      tenantId: "cli",
      actor: {
        kind: "user",
        userId: "01900000-0000-7000-8000-0000000000d0",
        email: "demo@example.com",
        fullName: "Demo loader",
        permissions: new Set(),
        roles: [],
        companyId: null,
      },
    };
    const { companyId, created } = await loadEnterpriseDemo(ctx);
    expect(created).toBe(true);
    const codes = async (table: string) =>
      (
        await queryRows<{ code: string }>(
          db,
          sql`select code from ${sql.identifier(table)} where company_id = ${companyId} order by code`,
        )
      ).map((r) => r.code);
    expect(await codes("document_series")).toEqual(DEFAULT_SERIES.map((s) => s.code).sort());
    expect(await codes("tax_codes")).toEqual(DEFAULT_TAX_CODES.map((c) => c.code).sort());
    expect(await codes("payment_terms")).toEqual(DEFAULT_PAYMENT_TERMS.map((p) => p.code).sort());
    const settings = await queryRows(
      db,
      sql`select 1 from document_settings where company_id = ${companyId}`,
    );
    expect(settings).toHaveLength(1);
  });
});
