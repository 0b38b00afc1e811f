import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { createBudget, multipartFile } from "../budgets/test-support.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ MAX_UPLOAD_MB: "1" });
});
afterAll(async () => {
  await t?.close();
});

/** A syntactically valid BC3 file padded past 1.5 MB with a long text. */
function bigFile(): Buffer {
  const head = "~V|SOFT|FIEBDC-3/2016|Prog||ANSI||\r\n~C|BIG##||Grande|0|\r\n~T|BIG##|";
  return Buffer.from(`${head}${"x".repeat(1.5 * 1024 * 1024)}|\r\n`, "latin1");
}

describe("BC3 upload size limit", () => {
  it("answers 413 for a file over MAX_UPLOAD_MB and saves nothing", async () => {
    const before = (await t.as(t.adminToken, { method: "GET", url: "/api/v1/budgets" })).json().total;
    const res = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/v1/budgets/import-bc3",
      ...multipartFile(bigFile()),
    });
    expect(res.statusCode).toBe(413);
    expect(res.headers["content-type"]).toContain("application/problem+json");
    expect(res.json().status).toBe(413);
    const b = await createBudget(t, t.adminToken);
    const replace = await t.as(t.adminToken, {
      method: "POST",
      url: `/api/v1/budgets/${b.id}/import-bc3`,
      ...multipartFile(bigFile()),
    });
    expect(replace.statusCode).toBe(413);
    expect((await t.as(t.adminToken, { method: "GET", url: "/api/v1/budgets" })).json().total).toBe(
      before + 1,
    );
  });
});
