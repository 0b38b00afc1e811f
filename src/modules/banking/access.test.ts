import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers/app.js";
import { createSubaccount, postEntry } from "../accounting/test-support.js";
import { line } from "../documents/test-support.js";
import { issuedSalesInvoice } from "../treasury/test-support.js";
import {
  bankingFixture,
  createBankAccount,
  expectStatus,
  importFile,
  listMovements,
  norma43For,
  spanishIban,
} from "./test-support.js";

/** Company restriction on every route, permissions, and the upload limit at its default (10 MB). */
let t: TestApp;
let a: Awaited<ReturnType<typeof bankingFixture>>;
let b: Awaited<ReturnType<typeof bankingFixture>>;
let tokenB: string;
let movementA: string;
let movementB: string;
let dueA: string;
let entryA: string;
beforeAll(async () => {
  t = await createTestApp();
  a = await bankingFixture(t);
  b = await bankingFixture(t);
  const bankB = await createBankAccount(t, b.companyId, {
    name: "B",
    iban: spanishIban("2100", "0002", "0300000001"),
  });
  const invoice = await issuedSalesInvoice(t, a.companyId, a.customer.id, [line("1", "100")], "2026-03-10");
  dueA = (invoice.dues as Array<{ id: string }>)[0]!.id;
  expectStatus(
    await importFile(
      t,
      a.bank.id,
      norma43For(a.bank.iban, [{ operationDate: "2026-03-11", amount: "121.00", concepts: [invoice.code] }]),
    ),
    201,
    "import A",
  );
  expectStatus(
    await importFile(
      t,
      bankB.id,
      norma43For(bankB.iban, [{ operationDate: "2026-03-11", amount: "121.00", concepts: [invoice.code] }]),
    ),
    201,
    "import B",
  );
  movementA = (await listMovements(t, `&company_id=${a.companyId}`)).data[0]!.id;
  movementB = (await listMovements(t, `&company_id=${b.companyId}`)).data[0]!.id;
  await createSubaccount(t, a.companyId, "7690000001");
  entryA = expectStatus<{ id: string }>(
    await postEntry(t, {
      company_id: a.companyId,
      date: "2026-03-11",
      lines: [
        { subaccount_code: a.bank.subaccount_code, debit: "121.00" },
        { subaccount_code: "7690000001", credit: "121.00" },
      ],
    }),
    201,
    "entry A",
  ).id;
  tokenB = (await t.userWith(["banking:leer", "banking:crear", "banking:editar"], { companyId: b.companyId }))
    .token;
});
afterAll(async () => {
  await t?.close();
});

const as = (token: string, method: "GET" | "POST", url: string, payload?: unknown) =>
  t.as(token, { method, url: `/api/bank-reconciliation${url}`, ...(payload ? { payload } : {}) });

describe("company restriction", () => {
  it("lists only the caller's company and answers 404 for another company's records", async () => {
    const mine = await listMovements(t, "", tokenB);
    expect(mine.data.map((m) => m.id)).toEqual([movementB]);
    expect((await listMovements(t, `&company_id=${a.companyId}`, tokenB)).total).toBe(0);
    // Its own movement does not see the other company's receipt as a suggestion.
    expect(mine.data[0]!.suggestions).toEqual([]);

    expect((await as(tokenB, "GET", `/movements/${movementA}`)).statusCode).toBe(404);
    expect((await as(tokenB, "POST", `/movements/${movementA}/ignore`)).statusCode).toBe(404);
    expect((await as(tokenB, "POST", `/movements/${movementA}/unreconcile`)).statusCode).toBe(404);
    expect(
      (await as(tokenB, "POST", `/movements/${movementA}/reconcile`, { target: "receipt", id: dueA }))
        .statusCode,
    ).toBe(404);
    // Its own movement with the other company's receipt or entry: 404 too.
    expect(
      (await as(tokenB, "POST", `/movements/${movementB}/reconcile`, { target: "receipt", id: dueA }))
        .statusCode,
    ).toBe(404);
    expect(
      (await as(tokenB, "POST", `/movements/${movementB}/reconcile`, { target: "entry", id: entryA }))
        .statusCode,
    ).toBe(404);
    // Even the administrator cannot tie company B's movement to company A's receipt.
    expect(
      (await as(t.adminToken, "POST", `/movements/${movementB}/reconcile`, { target: "receipt", id: dueA }))
        .statusCode,
    ).toBe(404);

    const file = norma43For(a.bank.iban, [{ operationDate: "2026-03-12", amount: "5.00" }]);
    expect((await importFile(t, a.bank.id, file, tokenB)).statusCode).toBe(404);
    expect((await as(tokenB, "POST", "/auto-match", { company_id: a.companyId })).statusCode).toBe(404);
    expect((await as(tokenB, "POST", "/auto-match", { bank_account_id: a.bank.id })).statusCode).toBe(404);
    expect(expectStatus(await as(tokenB, "POST", "/auto-match", {}), 200, "own auto-match")).toMatchObject({
      company_id: b.companyId,
      examined: 1,
      applied: [],
    });
    // Nothing of company A moved.
    const after = await listMovements(t, `&company_id=${a.companyId}`);
    expect(after.data.map((m) => m.status)).toEqual(["sugerido"]);
  });

  it("needs banking:editar to reconcile and banking:crear to import", async () => {
    const reader = await t.userWith(["banking:leer"]);
    expect((await as(reader.token, "GET", "/movements")).statusCode).toBe(200);
    expect((await as(reader.token, "POST", `/movements/${movementA}/ignore`)).statusCode).toBe(403);
    expect((await as(reader.token, "POST", "/auto-match", {})).statusCode).toBe(403);
    const file = norma43For(a.bank.iban, [{ operationDate: "2026-03-12", amount: "5.00" }]);
    expect((await importFile(t, a.bank.id, file, reader.token)).statusCode).toBe(403);
  });
});

describe("upload limit", () => {
  it("answers 413 for a file over MAX_UPLOAD_MB (10 MB by default) and saves nothing", async () => {
    const before = (await listMovements(t, `&company_id=${a.companyId}`)).total;
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, " ");
    const res = await importFile(t, a.bank.id, big);
    expect(res.statusCode).toBe(413);
    expect(res.headers["content-type"]).toContain("application/problem+json");
    expect((await listMovements(t, `&company_id=${a.companyId}`)).total).toBe(before);
  });
});
