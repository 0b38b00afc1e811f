import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { fixturePath } from "../../../../test/helpers/fixtures.js";
import { StatementFormatError } from "./format-error.js";
import { parseNorma43 } from "./norma43.js";
import { writeNorma43 } from "./norma43-write.js";

const fixture = (name: string) => readFileSync(fixturePath("n43", name));
const file = (...records: string[]) => Buffer.from(records.join("\r\n"), "latin1");
const n = (value: number | string, width: number) => String(value).padStart(width, "0");

/** The failure of a file: "line N: what". */
function failure(bytes: Buffer): string {
  try {
    parseNorma43(bytes);
  } catch (e) {
    expect(e).toBeInstanceOf(StatementFormatError);
    return (e as Error).message;
  }
  throw new Error("the file was accepted");
}

const KEY = "012311270123456789";
/** Record 11 of account KEY, 2004-08-01..31, opening 100.00 credit, EUR. */
const HEADER = `11${KEY}0408010408312${n(10000, 14)}9783${"CUADRA TEST SL".padEnd(26)}   `;
// The public vector of documents.md.
const VECTOR = "2256781127040805040805020092000000000012340000000000000000000000           REF 2";

function end33(o: {
  debits?: number;
  debitCents?: number;
  credits?: number;
  creditCents?: number;
  final: number;
  key?: string;
}) {
  return (
    `33${o.key ?? KEY}${n(o.debits ?? 0, 5)}${n(o.debitCents ?? 0, 14)}${n(o.credits ?? 0, 5)}` +
    `${n(o.creditCents ?? 0, 14)}${o.final < 0 ? "1" : "2"}${n(Math.abs(o.final), 14)}978`
  );
}
const END = end33({ credits: 1, creditCents: 1234, final: 11234 });
const EOF = `88${"9".repeat(18)}000003`;

describe("Norma 43 reader", () => {
  it("reads the public vector movement field by field", () => {
    const parsed = parseNorma43(file(HEADER, VECTOR, END, EOF));
    expect(parsed.statements).toHaveLength(1);
    const s = parsed.statements[0]!;
    expect(s).toMatchObject({
      account: KEY,
      accountName: "CUADRA TEST SL",
      currency: "EUR",
      dateFrom: "2004-08-01",
      dateTo: "2004-08-31",
      openingBalance: "100.00",
      closingBalance: "112.34",
    });
    expect(s.movements).toEqual([
      {
        position: "line 2",
        operationDate: "2004-08-05",
        valueDate: "2004-08-05",
        commonConcept: "02",
        ownConcept: "009",
        amount: "12.34",
        document: "0000000000",
        reference1: "000000000000",
        reference2: "REF 2",
        concepts: [],
        foreignCurrency: null,
        foreignAmount: null,
      },
    ]);
  });

  it("reads a hand-built file with every record type (11, 22, 23 x5, 24, 33, 88) and a debit opening", () => {
    const key = "008112340001234567";
    const bytes = file(
      `11${key}2603012603311${n(5000, 14)}9783${"EMPRESA DEMO, S.L.".padEnd(26)}`,
      `22    1234260305260306040012${n(121000, 14)}0000000000${"12FV20260000"}01`,
      `2301${"TRANSFERENCIA DE CLIENTE UNO SL".padEnd(38)}B12345674`,
      "2302FACTURA FV2026-000001",
      `2303${"C3".padEnd(38)}C4`,
      `2304${"C5".padEnd(38)}C6`,
      `2305${"C7".padEnd(38)}C8`,
      `22    1234260310260310170031${n(2500, 14)}`,
      "2301COMISION MANTENIMIENTO",
      `2401840${n(3000, 14)}`,
      end33({ key, debits: 1, debitCents: 2500, credits: 1, creditCents: 121000, final: 113500 }),
      `88${"9".repeat(18)}000011`,
    );
    const s = parseNorma43(bytes).statements[0]!;
    expect(s).toMatchObject({
      account: key,
      openingBalance: "-50.00",
      closingBalance: "1135.00",
      debitCount: 1,
      debitTotal: "25.00",
      creditCount: 1,
      creditTotal: "1210.00",
    });
    const [credit, fee] = s.movements;
    expect(credit).toMatchObject({
      position: "line 2",
      amount: "1210.00",
      operationDate: "2026-03-05",
      valueDate: "2026-03-06",
      commonConcept: "04",
      ownConcept: "001",
      reference1: "12FV20260000",
      reference2: "01",
      concepts: [
        "TRANSFERENCIA DE CLIENTE UNO SL",
        "B12345674",
        "FACTURA FV2026-000001",
        "C3",
        "C4",
        "C5",
        "C6",
        "C7",
        "C8",
      ],
      foreignCurrency: null,
    });
    expect(fee).toMatchObject({
      position: "line 8",
      amount: "-25.00",
      commonConcept: "17",
      ownConcept: "003",
      concepts: ["COMISION MANTENIMIENTO"],
      foreignCurrency: "USD",
      foreignAmount: "30.00",
    });
  });

  it("reads the real files: short lines, CRLF, latin-1, 88 counting itself or not, sign 0, two accounts", () => {
    const tryton = parseNorma43(fixture("tryton-n43.txt")).statements;
    expect(tryton).toHaveLength(1);
    expect(tryton[0]).toMatchObject({
      account: "008153980001414452",
      accountName: "DUNDER MIFFLIN",
      openingBalance: "3005.00",
      closingBalance: "2994.02",
      dateFrom: "2018-03-18",
      dateTo: "2018-03-20",
    });
    expect(tryton[0]!.movements[0]).toMatchObject({
      amount: "-10.98",
      operationDate: "2018-03-19",
      commonConcept: "12",
      // Positions 5-42 and 43-80 are two concepts, even when the bank wrote one text across both.
      concepts: ["COMPRA TARG 5540XXXXXXXX3014 DNH*MICHA", "EL SCOTT"],
    });

    const latin1 = parseNorma43(fixture("oca-test-235483f.n43")).statements[0]!;
    expect(latin1.movements.map((m) => m.concepts[0])).toEqual([
      "COMISIÓN",
      "TRANSFERENC. A",
      "TRANSFERENC. TEST PARTNER 2",
    ]);
    expect(latin1.movements[1]!.concepts).toEqual(["TRANSFERENC. A", "TEST PARTNER"]);
    expect(latin1.movements.map((m) => m.amount)).toEqual(["-0.03", "-178.30", "280.29"]);
    expect(latin1.movements[2]!.foreignCurrency).toBe("EUR");
    expect(latin1.closingBalance).toBe("101.96");

    const utf8 = parseNorma43(fixture("oca-test-variant.n43")).statements[0]!;
    expect(utf8.movements).toHaveLength(4);
    expect(utf8.movements[0]!.concepts[0]).toBe("COMISI\uFFFDN");
    expect(utf8.movements[3]!.amount).toBe("0.00");

    const multi = parseNorma43(fixture("oca-testmulti.n43")).statements;
    expect(multi.map((s) => s.account)).toEqual(["000000000000000000", "100000001000000000"]);

    const nantic = parseNorma43(fixture("nantic-c43.txt")).statements[0]!;
    expect(nantic.movements).toHaveLength(22);
    expect(nantic.openingBalance).toBe("52530.44");
    expect(nantic.closingBalance).toBe("53818.11");
    expect(nantic.movements.filter((m) => m.amount.startsWith("-"))).toHaveLength(18);

    const sergief = parseNorma43(fixture("sergief-movements.n43")).statements[0]!;
    expect(sergief.movements).toHaveLength(16);
    expect(sergief.movements[0]!.reference2).toBe("1234567890123456");
    expect(sergief.closingBalance).toBe("2301.59");
  });

  it("refuses the real files whose record 33 disagrees with their movements or that lack 33 and 88", () => {
    expect(failure(fixture("sequra-example1.n43"))).toBe(
      "line 10: record 33 counts 4 debits, the account has 0",
    );
    expect(failure(fixture("sequra-example2.n43"))).toBe(
      "line 13: the account opened at line 1 has no end record 33",
    );
  });

  it("refuses record 33 totals that disagree, naming its line", () => {
    const withEnd = (s: string) => failure(file(HEADER, VECTOR, s, EOF));
    expect(withEnd(end33({ credits: 2, creditCents: 1234, final: 11234 }))).toBe(
      "line 3: record 33 counts 2 credits, the account has 1",
    );
    expect(withEnd(end33({ credits: 1, creditCents: 1235, final: 11235 }))).toBe(
      "line 3: record 33 totals credits 12.35, the movements add up to 12.34",
    );
    expect(withEnd(end33({ credits: 1, creditCents: 1234, final: 11235 }))).toBe(
      "line 3: final balance 112.35 is not opening 100.00 + credits 12.34 - debits 0.00 = 112.34",
    );
    expect(withEnd(end33({ debits: 1, debitCents: 1234, final: 11234 }))).toBe(
      "line 3: record 33 counts 1 debits, the account has 0",
    );
    expect(withEnd(end33({ key: "012399990123456789", credits: 1, creditCents: 1234, final: 11234 }))).toBe(
      `line 3: record 33 closes account 012399990123456789 but line 1 opened ${KEY}`,
    );
  });

  it("accepts record 88 counting itself or not, and refuses a count off by more than one", () => {
    for (const count of ["000002", "000003", "000004"])
      expect(parseNorma43(file(HEADER, VECTOR, END, `88${"9".repeat(18)}${count}`)).statements).toHaveLength(
        1,
      );
    expect(failure(file(HEADER, VECTOR, END, `88${"9".repeat(18)}000005`))).toBe(
      "line 4: record 88 counts 5 records, the file has 3 before it",
    );
  });

  it("refuses broken structure and fields, naming the line and what is wrong", () => {
    expect(failure(file(HEADER, VECTOR, END))).toBe("line 3: the file has no end record 88");
    expect(failure(file(HEADER, VECTOR, EOF))).toBe(
      "line 3: file end record 88 while the account of line 1 has no record 33",
    );
    expect(failure(file(HEADER, "2301ORPHAN", VECTOR, END, EOF))).toBe(
      "line 2: extra concepts record 23 without a movement record 22 before it",
    );
    expect(failure(file(VECTOR, END, EOF))).toBe(
      "line 1: movement record 22 outside an account (no record 11 before it)",
    );
    expect(failure(file(HEADER, `${VECTOR.slice(0, 10)}041305${VECTOR.slice(16)}`, END, EOF))).toBe(
      'line 2: operation date (positions 11-16) is not a date: "041305"',
    );
    expect(failure(file(HEADER, `${VECTOR.slice(0, 27)}3${VECTOR.slice(28)}`, END, EOF))).toBe(
      'line 2: debit/credit mark (position 28) must be 1 (debit) or 2 (credit), found "3"',
    );
    expect(failure(file(HEADER, `${VECTOR.slice(0, 31)}X${VECTOR.slice(32)}`, END, EOF))).toBe(
      'line 2: amount (positions 29-42) must be digits, found "000X0000001234"',
    );
    expect(failure(file(HEADER, VECTOR, "99 what", END, EOF))).toBe(
      'line 3: unknown record code "99" (expected 11, 22, 23, 24, 33 or 88)',
    );
    expect(failure(file(HEADER, `${VECTOR}X`, END, EOF))).toBe(
      "line 2: a record has 80 characters, this one has 81",
    );
    expect(failure(file(HEADER, VECTOR, ...Array(6).fill("2301MORE"), END, EOF))).toBe(
      "line 8: a movement has at most 5 extra concept records 23",
    );
    expect(failure(file(HEADER, VECTOR, END, EOF, HEADER))).toBe(
      "line 5: nothing may follow the file end record 88",
    );
    expect(failure(file(HEADER, "", VECTOR, END, EOF))).toBe("line 2: empty line inside the file");
    expect(failure(Buffer.from("\r\n\r\n"))).toBe("line 1: the file is empty");
  });

  it("reads back what the writer writes, totals included", () => {
    const bytes = writeNorma43([
      {
        bank: "2100",
        office: "0001",
        account: "0200012345",
        dateFrom: "2026-03-01",
        dateTo: "2026-03-31",
        openingBalance: "1000.00",
        name: "DEMO",
        movements: [
          {
            operationDate: "2026-03-02",
            amount: "121.00",
            commonConcept: "04",
            concepts: ["FV2026-000001", "B12345674"],
          },
          { operationDate: "2026-03-03", amount: "-3.50", commonConcept: "17", concepts: ["COMISIÓN"] },
        ],
      },
    ]);
    const s = parseNorma43(bytes).statements[0]!;
    expect(s.account).toBe("210000010200012345");
    expect(s.closingBalance).toBe("1117.50");
    expect(s.movements.map((m) => [m.amount, m.concepts])).toEqual([
      ["121.00", ["FV2026-000001", "B12345674"]],
      ["-3.50", ["COMISIÓN"]],
    ]);
  });
});
