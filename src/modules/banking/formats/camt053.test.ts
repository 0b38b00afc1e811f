import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { fixturePath } from "../../../../test/helpers/fixtures.js";
import { looksLikeCamt053, parseCamt053 } from "./camt053.js";
import { StatementFormatError } from "./format-error.js";

const fixture = (name: string) => readFileSync(fixturePath("camt", name));

function failure(bytes: Buffer): string {
  try {
    parseCamt053(bytes);
  } catch (e) {
    expect(e).toBeInstanceOf(StatementFormatError);
    return (e as Error).message;
  }
  throw new Error("the file was accepted");
}

function statement(opts: { opening: string; closing: string; entries: string[]; summary?: string }): Buffer {
  const bal = (code: string, amount: string) =>
    `<Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">${amount.replace("-", "")}</Amt>` +
    `<CdtDbtInd>${amount.startsWith("-") ? "DBIT" : "CRDT"}</CdtDbtInd><Dt><Dt>2026-03-31</Dt></Dt></Bal>`;
  return Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><GrpHdr><MsgId>1</MsgId></GrpHdr>
<Stmt><Id>S1</Id><Acct><Id><IBAN>ES91 2100 0418 4502 0005 1332</IBAN></Id></Acct>
${bal("OPBD", opts.opening)}${bal("CLBD", opts.closing)}${opts.summary ?? ""}${opts.entries.join("")}</Stmt>
</BkToCstmrStmt></Document>`,
    "utf8",
  );
}

const entry = (amount: string, ind: "CRDT" | "DBIT", extra = "") =>
  `<Ntry><Amt Ccy="EUR">${amount}</Amt><CdtDbtInd>${ind}</CdtDbtInd><Sts>BOOK</Sts>` +
  `<BookgDt><Dt>2026-03-05</Dt></BookgDt><ValDt><Dt>2026-03-06</Dt></ValDt>${extra}</Ntry>`;

describe("CAMT.053 reader", () => {
  it("reads a statement, its balances and each entry's texts for matching", () => {
    const bytes = statement({
      opening: "100.00",
      closing: "1306.50",
      summary:
        "<TxsSummry><TtlCdtNtries><NbOfNtries>1</NbOfNtries><Sum>1210.00</Sum></TtlCdtNtries>" +
        "<TtlDbtNtries><NbOfNtries>1</NbOfNtries><Sum>3.50</Sum></TtlDbtNtries></TxsSummry>",
      entries: [
        entry(
          "1210.00",
          "CRDT",
          "<AcctSvcrRef>BANKREF1</AcctSvcrRef><BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>" +
            "<NtryDtls><TxDtls><Refs><EndToEndId>E2E-1</EndToEndId></Refs><RltdPties><Dbtr><Nm>Cliente Uno SL</Nm>" +
            "<Id><OrgId><Othr><Id>B12345674</Id></Othr></OrgId></Id></Dbtr></RltdPties>" +
            "<RmtInf><Ustrd>FACTURA FV2026-000001</Ustrd><Ustrd>GRACIAS</Ustrd></RmtInf></TxDtls></NtryDtls>",
        ),
        entry("3.50", "DBIT", "<AddtlNtryInf>COMISION</AddtlNtryInf>"),
      ],
    });
    expect(looksLikeCamt053(bytes)).toBe(true);
    const parsed = parseCamt053(bytes);
    expect(parsed.format).toBe("camt053");
    const s = parsed.statements[0]!;
    expect(s).toMatchObject({
      account: "ES9121000418450200051332",
      openingBalance: "100.00",
      closingBalance: "1306.50",
      creditCount: 1,
      creditTotal: "1210.00",
      debitCount: 1,
      debitTotal: "3.50",
      currency: "EUR",
    });
    expect(s.movements[0]).toMatchObject({
      position: "Stmt 1, Ntry 1",
      operationDate: "2026-03-05",
      valueDate: "2026-03-06",
      amount: "1210.00",
      commonConcept: "PMNT-RCDT-ESCT",
      document: "BANKREF1",
      reference1: "E2E-1",
      concepts: ["FACTURA FV2026-000001", "GRACIAS", "Cliente Uno SL", "B12345674"],
    });
    expect(s.movements[1]).toMatchObject({ amount: "-3.50", concepts: ["COMISION"] });
  });

  it("reads the real files: several statements in one file, transaction details, Dt and DtTm", () => {
    const multi = parseCamt053(fixture("genkgo-camt053.v2.multi.statement.xml")).statements;
    expect(multi.map((s) => [s.account, s.openingBalance, s.closingBalance, s.movements.length])).toEqual([
      ["NL26VAYB8060476890", "18.15", "27.00", 1],
      ["NL26VAYB8060476890", "27.00", "20.00", 1],
    ]);
    expect(multi[1]!.movements[0]!.amount).toBe("-7.00");

    const tx = parseCamt053(fixture("oca-test-camt053-txdtls.xml")).statements[0]!;
    expect(tx).toMatchObject({
      account: "CH1111000000123456789",
      currency: "CHF",
      closingBalance: "79443.15",
    });
    expect(tx.movements[0]).toMatchObject({
      amount: "3483.00",
      operationDate: "2017-03-22",
      valueDate: "2017-03-23",
    });
    expect(tx.movements[0]!.concepts).toContain("Banque Cantonale Vaudoise");
  });

  it("refuses the real files whose balances do not add up, naming the statement", () => {
    expect(failure(fixture("genkgo-camt053.v8.xml"))).toBe(
      "Stmt 1: closing balance CLBD -27.00 is not opening 18.15 + credits 8.85 - debits 0.00 = 27.00",
    );
    expect(failure(fixture("oca-test-camt053.xml"))).toBe(
      "Stmt 1: closing balance CLBD 15121.12 is not opening 15568.27 + credits 1405.31 - debits 1418.30 = 15555.28",
    );
  });

  it("refuses broken files naming the element", () => {
    expect(
      failure(
        statement({
          opening: "0.00",
          closing: "5.00",
          entries: [entry("5.00", "CRDT")],
          summary: "<TxsSummry><TtlCdtNtries><NbOfNtries>2</NbOfNtries></TtlCdtNtries></TxsSummry>",
        }),
      ),
    ).toBe("Stmt 1, TxsSummry/TtlCdtNtries: counts 2 entries, the statement has 1");
    expect(failure(statement({ opening: "0.00", closing: "5.00", entries: [entry("5.001", "CRDT")] }))).toBe(
      'Stmt 1, Ntry 1: Amt must be a positive amount with 2 decimals at most, found "5.001"',
    );
    expect(
      failure(statement({ opening: "0.00", closing: "5.00", entries: [entry("5.00", "XXXX" as "CRDT")] })),
    ).toBe('Stmt 1, Ntry 1: CdtDbtInd must be CRDT or DBIT, found "XXXX"');
    expect(failure(Buffer.from('<?xml version="1.0"?><Document><BkToCstmrStmt><Stmt>'))).toMatch(
      /^line \d+: not well-formed XML/,
    );
    expect(failure(Buffer.from("<Document><Other/></Document>"))).toBe(
      "Document: not a CAMT.053 statement (no Document/BkToCstmrStmt)",
    );
    const noOpening = statement({ opening: "0.00", closing: "0.00", entries: [] })
      .toString()
      .replace("OPBD", "ITBD");
    expect(failure(Buffer.from(noOpening))).toBe("Stmt 1: the statement has no OPBD or PRCD balance");
  });
});
