import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { fixturePath } from "../../../../test/helpers/fixtures.js";
import { line } from "../../documents/test-support.js";
import { issuedSalesInvoice } from "../../treasury/test-support.js";
import {
  bankingFixture,
  createBankAccount,
  expectStatus,
  importFile,
  listMovements,
  multipartForm,
  norma43For,
  spanishIban,
} from "../test-support.js";

let t: TestApp;
let fx: Awaited<ReturnType<typeof bankingFixture>>;
beforeAll(async () => {
  t = await createTestApp();
  fx = await bankingFixture(t);
});
afterAll(async () => {
  await t?.close();
});

const count = async (bankAccountId: string) =>
  (await listMovements(t, `&bank_account_id=${bankAccountId}`)).total;

describe("POST /api/bank-reconciliation/import", () => {
  it("imports a Norma 43 file, then recognises it and anything already imported", async () => {
    const bank = await createBankAccount(t, fx.companyId, {
      name: "Reimport",
      iban: spanishIban("2100", "0001", "0200000001"),
    });
    const fee = { operationDate: "2026-03-04", amount: "-2.50", commonConcept: "17", concepts: ["COMISION"] };
    const first = norma43For(bank.iban, [
      { operationDate: "2026-03-02", amount: "150.00", commonConcept: "04", concepts: ["TRANSFERENCIA X"] },
      fee,
      fee, // the same fee twice the same day: two real movements
    ]);
    const res = await importFile(t, bank.id, first);
    const body = expectStatus<Record<string, unknown> & { import: Record<string, unknown> }>(
      res,
      201,
      "import",
    );
    expect(body).toMatchObject({ already_imported: false, imported: 3, skipped: 0 });
    expect(body.import).toMatchObject({
      format: "norma43",
      file_name: "extracto.n43",
      statement_count: 1,
      opening_balance: "1000.00",
      closing_balance: "1145.00",
      movement_count: 3,
      imported_count: 3,
      skipped_count: 0,
      date_from: "2026-03-01",
      date_to: "2026-03-31",
    });
    expect(body.import.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(await count(bank.id)).toBe(3);

    const again = expectStatus<Record<string, unknown>>(
      await importFile(t, bank.id, first),
      200,
      "re-import",
    );
    expect(again).toMatchObject({ already_imported: true, imported: 0, skipped: 3 });
    expect(again.message).toMatch(/already imported/);
    expect(await count(bank.id)).toBe(3);

    // A later statement overlapping the first: only what is new is added; a third identical fee is new.
    const overlap = norma43For(
      bank.iban,
      [
        { operationDate: "2026-03-02", amount: "150.00", commonConcept: "04", concepts: ["TRANSFERENCIA X"] },
        fee,
        fee,
        fee,
        { operationDate: "2026-03-20", amount: "-40.00", commonConcept: "03", concepts: ["RECIBO LUZ"] },
      ],
      { dateTo: "2026-03-25" },
    );
    const third = expectStatus<Record<string, unknown>>(
      await importFile(t, bank.id, overlap),
      201,
      "overlap",
    );
    expect(third).toMatchObject({ already_imported: false, imported: 2, skipped: 3 });
    expect(await count(bank.id)).toBe(5);

    // Only known movements, in another file: nothing saved, said so.
    const known = norma43For(bank.iban, [fee], { dateTo: "2026-03-05" });
    expect(expectStatus(await importFile(t, bank.id, known), 200, "known")).toMatchObject({
      already_imported: true,
      imported: 0,
      skipped: 1,
      import: null,
    });
    expect(await count(bank.id)).toBe(5);
  });

  it("refuses a file whose record 33 disagrees, naming the line, and saves nothing", async () => {
    const bank = await createBankAccount(t, fx.companyId, {
      name: "Bad33",
      iban: spanishIban("2100", "0001", "0200000002"),
    });
    const good = norma43For(bank.iban, [
      { operationDate: "2026-03-02", amount: "150.00", concepts: ["A"] },
      { operationDate: "2026-03-03", amount: "-20.00", concepts: ["B"] },
    ]);
    const lines = good.toString("latin1").split("\r\n");
    const i = lines.findIndex((l) => l.startsWith("33"));
    // credits total 150.00 -> 150.01 (the final balance still says 1130.00)
    lines[i] = `${lines[i]!.slice(0, 44)}00000000015001${lines[i]!.slice(58)}`;
    const res = await importFile(t, bank.id, Buffer.from(lines.join("\r\n"), "latin1"));
    expect(res.statusCode).toBe(400);
    expect(res.headers["content-type"]).toContain("application/problem+json");
    const problem = res.json();
    expect(problem.detail).toContain(
      `line ${i + 1}: record 33 totals credits 150.01, the movements add up to 150.00`,
    );
    expect(problem.errors).toEqual([
      { path: `line ${i + 1}`, message: "record 33 totals credits 150.01, the movements add up to 150.00" },
    ]);
    expect(await count(bank.id)).toBe(0);
  });

  it("refuses the whole file for one bad movement among many, naming its line, and saves nothing", async () => {
    const bank = await createBankAccount(t, fx.companyId, {
      name: "BadMovement",
      iban: spanishIban("2100", "0001", "0200000043"),
    });
    const movements = Array.from({ length: 30 }, (_, n) => ({
      operationDate: `2026-03-${String((n % 28) + 1).padStart(2, "0")}`,
      amount: `${n + 1}.00`,
      concepts: [`MOVIMIENTO ${n + 1}`],
    }));
    const lines = norma43For(bank.iban, movements).toString("latin1").split("\r\n");
    const records22 = lines.flatMap((l, i) => (l.startsWith("22") ? [i] : []));
    const bad = records22[17]!;
    // The 18th movement's operation date (positions 11-16) becomes 13 March... of month 13.
    lines[bad] = `${lines[bad]!.slice(0, 10)}261301${lines[bad]!.slice(16)}`;
    const res = await importFile(t, bank.id, Buffer.from(lines.join("\r\n"), "latin1"));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      { path: `line ${bad + 1}`, message: 'operation date (positions 11-16) is not a date: "261301"' },
    ]);
    expect(await count(bank.id)).toBe(0);
  });

  it("reads the real files in place and refuses one of another account naming it", async () => {
    const tryton = readFileSync(fixturePath("n43", "tryton-n43.txt"));
    const other = await createBankAccount(t, fx.companyId, {
      name: "Other",
      iban: spanishIban("2100", "0001", "0200000003"),
    });
    const wrong = await importFile(t, other.id, tryton);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().detail).toContain("008153980001414452");

    const bank = await createBankAccount(t, fx.companyId, {
      name: "Dunder",
      iban: spanishIban("0081", "5398", "0001414452"),
    });
    const body = expectStatus<Record<string, unknown>>(
      await importFile(t, bank.id, tryton, t.adminToken, "n43.txt"),
      201,
      "tryton",
    );
    expect(body).toMatchObject({ imported: 1, skipped: 0 });
    const { data } = await listMovements(t, `&bank_account_id=${bank.id}`);
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({
      amount: "-10.98",
      operation_date: "2026-03-19".replace("2026", "2018"),
      common_concept: "12",
      status: "pendiente",
      concepts: ["COMPRA TARG 5540XXXXXXXX3014 DNH*MICHA", "EL SCOTT"],
    });

    // Two accounts in one file: the block of the chosen account is imported.
    const multi = readFileSync(fixturePath("n43", "oca-testmulti.n43"));
    const second = await createBankAccount(t, fx.companyId, {
      name: "Multi",
      iban: spanishIban("1000", "0000", "1000000000"),
    });
    expect(expectStatus(await importFile(t, second.id, multi), 201, "multi")).toMatchObject({ imported: 3 });
    const sequra = readFileSync(fixturePath("n43", "sequra-example1.n43"));
    const refused = await importFile(t, second.id, sequra);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual([
      { path: "line 10", message: "record 33 counts 4 debits, the account has 0" },
    ]);
  });

  it("imports a CAMT.053 statement of the account's IBAN and keeps its texts", async () => {
    const bank = await createBankAccount(t, fx.companyId, {
      name: "Camt",
      iban: spanishIban("2100", "0001", "0200000004"),
    });
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><GrpHdr><MsgId>1</MsgId></GrpHdr>
<Stmt><Id>S1</Id><Acct><Id><IBAN>${bank.iban}</IBAN></Id></Acct>
<Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">10.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-03-01</Dt></Dt></Bal>
<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">131.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-03-31</Dt></Dt></Bal>
<Ntry><Amt Ccy="EUR">121.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-03-05</Dt></BookgDt><ValDt><Dt>2026-03-05</Dt></ValDt>
<NtryDtls><TxDtls><RmtInf><Ustrd>PAGO FACTURA 77</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>
</Stmt></BkToCstmrStmt></Document>`;
    const body = expectStatus<{ import: { format: string } }>(
      await importFile(t, bank.id, Buffer.from(xml), t.adminToken, "camt.xml"),
      201,
      "camt",
    );
    expect(body.import.format).toBe("camt053");
    const { data } = await listMovements(t, `&bank_account_id=${bank.id}`);
    expect(data.map((m) => [m.amount, m.concepts])).toEqual([["121.00", ["PAGO FACTURA 77"]]]);
    const bad = await importFile(
      t,
      bank.id,
      Buffer.from(xml.replace("131.00", "131.01")),
      t.adminToken,
      "camt.xml",
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].path).toBe("Stmt 1");
  });

  it("suggests the open receipt a new movement pays, with the reasons", async () => {
    const bank = await createBankAccount(t, fx.companyId, {
      name: "Suggest",
      iban: spanishIban("2100", "0001", "0200000005"),
    });
    const invoice = await issuedSalesInvoice(
      t,
      fx.companyId,
      fx.customer.id,
      [line("1", "100")],
      "2026-03-10",
    );
    const file = norma43For(bank.iban, [
      {
        operationDate: "2026-03-12",
        amount: "121.00",
        commonConcept: "04",
        concepts: [`TRANSF ${invoice.code}`],
      },
    ]);
    expect(expectStatus(await importFile(t, bank.id, file), 201, "import")).toMatchObject({ suggested: 1 });
    const { data } = await listMovements(t, `&bank_account_id=${bank.id}&status=sugerido`);
    expect(data).toHaveLength(1);
    const [s] = data[0]!.suggestions;
    expect(s).toMatchObject({ target: "receipt", document_code: invoice.code });
    expect(s!.reasons.map((r) => r.code)).toEqual(expect.arrayContaining(["amount_exact", "reference"]));
    expect(s!.score).toBeGreaterThanOrEqual(70);
  });

  it("answers 400 naming the missing part, and 404 for an unknown bank account", async () => {
    const file = norma43For(fx.bank.iban, [{ operationDate: "2026-03-02", amount: "1.00" }]);
    const noAccount = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/bank-reconciliation/import",
      ...multipartForm({}, { content: file }),
    });
    expect(noAccount.statusCode).toBe(400);
    expect(noAccount.json().errors).toEqual([{ path: "body.bank_account_id", message: "is required" }]);
    const noFile = await t.as(t.adminToken, {
      method: "POST",
      url: "/api/bank-reconciliation/import",
      ...multipartForm({ bank_account_id: fx.bank.id }),
    });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().errors).toEqual([{ path: "body.file", message: "the request carries no file" }]);
    const unknown = await importFile(t, "0190f2a4-0000-7000-8000-000000000000", file);
    expect(unknown.statusCode).toBe(404);
  });
});
