import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/helpers/app.js";
import { TEST_ADMIN } from "../../test/helpers/constants.js";
import { fixturePath } from "../../test/helpers/fixtures.js";
import { importBc3FromCli, progressBar } from "./bc3-import.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe("bc3 import (CLI)", () => {
  it("draws a bar of 30 cells with the share done and the rows", () => {
    expect(progressBar(0, 200)).toBe(`[${"-".repeat(30)}]   0%  0/200 rows`);
    expect(progressBar(100, 200)).toBe(`[${"#".repeat(15)}${"-".repeat(15)}]  50%  100/200 rows`);
    expect(progressBar(5000, 5000)).toBe(`[${"#".repeat(30)}] 100%  5,000/5,000 rows`);
  });

  it("imports a file under the code asked for, reporting progress up to every row", async () => {
    const calls: [number, number][] = [];
    const { view, report } = await importBc3FromCli(
      t.db,
      {
        file: readFileSync(fixturePath("bc3", "concreta-presto-mini.bc3")),
        budgetCode: "CLI-MINI",
        userEmail: TEST_ADMIN.email,
      },
      (done, total) => calls.push([done, total]),
    );
    expect(view.row.code).toBe("CLI-MINI");
    expect(report).toMatchObject({ budgetCode: "CLI-MINI", declaredPrice: "723.00" });
    expect(view.totals.pem).toBe("723.00");
    expect(calls.length).toBeGreaterThan(0);
    const [done, total] = calls[calls.length - 1];
    expect(done).toBe(total);
  });

  it("refuses a file that is not BC3 with every problem by line", async () => {
    const file = Buffer.from("~V|X|FIEBDC-3/2016|Test||ANSI||\r\n~C|X1|m|Partida|abc|\r\n");
    await expect(
      importBc3FromCli(t.db, { file, userEmail: TEST_ADMIN.email }, () => undefined),
    ).rejects.toMatchObject({ status: 400 });
  });
});
