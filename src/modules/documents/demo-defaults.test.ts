import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../test/helpers/db.js";
import { loadEnterpriseDemo } from "../../cli/enterprise-demo.js";
import type { AuthedCtx } from "../../platform/http/context.js";
import { DEFAULT_PAYMENT_TERMS, DEFAULT_SERIES, DEFAULT_TAX_CODES } from "./defaults.js";
import { documentSeries, documentSettings, paymentTerms, taxCodes } from "./tables.js";

/**
 * The CLI builds no app: `npm run cli -- demo` must register the documents hook on its own. This
 * file imports neither the app nor documents/index.ts, only the demo loader.
 */
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
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
    const codes = async (table: typeof documentSeries | typeof taxCodes | typeof paymentTerms) =>
      (await db.select({ code: table.code }).from(table).where(eq(table.companyId, companyId))).map(
        (r) => r.code,
      );
    expect((await codes(documentSeries)).sort()).toEqual(DEFAULT_SERIES.map((s) => s.code).sort());
    expect((await codes(taxCodes)).sort()).toEqual(DEFAULT_TAX_CODES.map((c) => c.code).sort());
    expect((await codes(paymentTerms)).sort()).toEqual(DEFAULT_PAYMENT_TERMS.map((p) => p.code).sort());
    expect(
      await db.select().from(documentSettings).where(eq(documentSettings.companyId, companyId)),
    ).toHaveLength(1);
  });
});
