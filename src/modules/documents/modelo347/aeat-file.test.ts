import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { fixturePath } from "../../../../test/helpers/fixtures.js";
import { AppError } from "../../../platform/http/errors.js";
import { computeTotals } from "../totals.js";
import {
  aggregate347,
  type Declarant,
  modelo347File,
  normalizeAeatText,
  type PartyRecord,
} from "./aeat-file.js";

/** 1-based inclusive positions, as the AEAT layout writes them. */
const pos = (record: string, from: number, to: number) => record.slice(from - 1, to);
const sp = (n: number) => " ".repeat(n);
const ZERO = " 000000000000000";

function badRequestPath(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).status).toBe(400);
    return (e as AppError).options.errors![0].path;
  }
  throw new Error("expected a 400");
}

const declarant: Declarant = {
  year: 2025,
  taxId: "B12345674",
  name: "Construcciones Núñez & Peña, S.L.",
  phone: "941 23 45 67",
  contactName: "García Çelik, José María",
};

const parties: PartyRecord[] = [
  {
    taxId: "12345678Z",
    name: "Muñoz Ibáñez, María Ángeles",
    province: "26",
    country: "ES",
    key: "B",
    annual: "12100.00",
    q1: "3025.00",
    q2: "0.00",
    q3: "-1210.00",
    q4: "10285.00",
    cash: "7000.00",
  },
  {
    taxId: "B98765432",
    name: "Suministros Ebro SL",
    province: "50",
    country: "ES",
    key: "A",
    annual: "-4000.00",
    q1: "-4000.00",
    q2: "0",
    q3: "0",
    q4: "0",
  },
  {
    taxId: "FR12345678901",
    name: "Société Générale d'Équipements",
    province: "99",
    country: "FR",
    key: "A",
    annual: "5000.50",
    q1: "0",
    q2: "5000.50",
    q3: "0",
    q4: "0",
  },
];

// Written field by field from the Anexo II layout (positions in the comments), not by the formatter.
const expectedDeclarant = [
  "1", // 1 record type
  "347", // 2-4 model
  "2025", // 5-8 year
  "B12345674", // 9-17 declarant NIF
  "CONSTRUCCIONES NUÑEZ & PEÑA, S.L.       ", // 18-57 name (40)
  "T", // 58 telematic
  "941234567", // 59-67 phone
  "GARCIA ÇELIK, JOSE MARIA                ", // 68-107 contact (40)
  "3472025000001", // 108-120 declaration id
  "  ", // 121-122 not complementary nor substitute
  "0000000000000", // 123-135 previous declaration
  "000000003", // 136-144 number of type 2 records
  " 000000001310050", // 145-160 total 12,100.00 - 4,000.00 + 5,000.50
  "000000000", // 161-169 properties
  " 000000000000000", // 170-185 rentals
  sp(205), // 186-390
  sp(9), // 391-399 legal representative
  sp(88), // 400-487
  sp(13), // 488-500 electronic stamp
].join("");

const expectedParties = [
  [
    "2347", // 1-4
    "2025", // 5-8
    "B12345674", // 9-17
    "12345678Z", // 18-26 party NIF
    sp(9), // 27-35
    "MUÑOZ IBAÑEZ, MARIA ANGELES             ", // 36-75
    "D", // 76
    "26", // 77-78 province (La Rioja)
    "  ", // 79-80 country only for non-residents
    " ", // 81
    "B", // 82 sales
    " 000000001210000", // 83-98 annual 12,100.00
    " ", // 99 insurance
    " ", // 100 rental
    "000000000700000", // 101-115 cash 7,000.00
    ZERO, // 116-131
    "2025", // 132-135 cash year
    " 000000000302500", // 136-151 Q1 3,025.00
    ZERO, // 152-167
    ZERO, // 168-183 Q2 0
    ZERO, // 184-199
    "N000000000121000", // 200-215 Q3 -1,210.00
    ZERO, // 216-231
    " 000000001028500", // 232-247 Q4 10,285.00
    ZERO, // 248-263
    sp(17), // 264-280 community VAT number
    "   ", // 281-283
    ZERO, // 284-299
    sp(201), // 300-500
  ].join(""),
  [
    "2347",
    "2025",
    "B12345674",
    "B98765432",
    sp(9),
    "SUMINISTROS EBRO SL                     ",
    "D",
    "50",
    "  ",
    " ",
    "A",
    "N000000000400000", // annual -4,000.00
    "  ",
    "000000000000000", // no cash
    ZERO,
    "0000", // no cash year
    "N000000000400000", // Q1
    ZERO,
    ZERO,
    ZERO,
    ZERO,
    ZERO,
    ZERO,
    ZERO,
    sp(17),
    "   ",
    ZERO,
    sp(201),
  ].join(""),
  [
    "2347",
    "2025",
    "B12345674",
    sp(9), // no Spanish NIF for a non-resident
    sp(9),
    "SOCIETE GENERALE D'EQUIPEMENTS          ",
    "D",
    "99", // non-resident
    "FR",
    " ",
    "A",
    " 000000000500050", // 5,000.50
    "  ",
    "000000000000000",
    ZERO,
    "0000",
    ZERO,
    ZERO,
    " 000000000500050", // Q2
    ZERO,
    ZERO,
    ZERO,
    ZERO,
    ZERO,
    "FR12345678901    ", // 264-280: country + number left-aligned in 15
    "   ",
    ZERO,
    sp(201),
  ].join(""),
];

describe("modelo347File", () => {
  it("writes the hand-computed records byte for byte, in ISO-8859-1", () => {
    for (const r of [expectedDeclarant, ...expectedParties]) expect(r).toHaveLength(500);
    const file = modelo347File(declarant, parties);
    const expected = Buffer.from([expectedDeclarant, ...expectedParties].join(""), "latin1");
    expect(file.equals(expected)).toBe(true);
    expect(file.length).toBe(4 * 500);
    // Ñ is one byte D1 and Ç C7 (the layout's own example)
    expect(file[17 + "CONSTRUCCIONES NU".length]).toBe(0xd1);
    expect(file[67 + "GARCIA ".length]).toBe(0xc7);
  });

  it("puts each field at the layout's positions", () => {
    const text = modelo347File(declarant, parties).toString("latin1");
    const [type1, first, , third] = text.match(/[\s\S]{500}/g)!;
    expect(pos(type1, 58, 58)).toBe("T");
    expect(pos(type1, 108, 120)).toBe("3472025000001");
    expect(pos(type1, 136, 144)).toBe("000000003");
    expect(pos(type1, 145, 160)).toBe(" 000000001310050");
    expect(pos(first, 82, 82)).toBe("B");
    expect(pos(first, 83, 98)).toBe(" 000000001210000");
    expect(pos(first, 101, 115)).toBe("000000000700000");
    expect(pos(first, 132, 135)).toBe("2025");
    expect(pos(first, 200, 215)).toBe("N000000000121000");
    expect(pos(third, 77, 80)).toBe("99FR");
    expect(pos(third, 168, 183)).toBe(" 000000000500050");
    expect(pos(third, 264, 280)).toBe("FR12345678901    ");
  });

  it("ends every record with CRLF when asked (foral administrations)", () => {
    const file = modelo347File(declarant, parties, { separator: "\r\n" }).toString("latin1");
    expect(file).toBe(`${[expectedDeclarant, ...expectedParties].join("\r\n")}\r\n`);
  });

  it("signs a negative total with N and counts only type 2 records", () => {
    const file = modelo347File(declarant, [parties[1]]).toString("latin1");
    expect(pos(file, 136, 144)).toBe("000000001");
    expect(pos(file, 145, 160)).toBe("N000000000400000");
  });

  it("writes an empty declaration, a given declaration id and a substitute statement", () => {
    const file = modelo347File(
      {
        ...declarant,
        declarationId: "3470000012345",
        statementType: "sustitutiva",
        previousDeclarationId: "3470000012000",
      },
      [],
    ).toString("latin1");
    expect(file).toHaveLength(500);
    expect(pos(file, 108, 135)).toBe("3470000012345 S3470000012000");
    expect(pos(file, 136, 160)).toBe(`000000000${ZERO}`);
  });

  it("zero-fills short NIFs on the left and drops an ES prefix", () => {
    const file = modelo347File({ ...declarant, taxId: "ES-1234567L" }, [
      { ...parties[0], taxId: "X1234567L ".trim() },
    ]).toString("latin1");
    expect(pos(file, 9, 17)).toBe("01234567L");
    expect(pos(file, 518, 526)).toBe("X1234567L");
  });

  it("refuses bad input with a 400 naming the field", () => {
    expect(badRequestPath(() => modelo347File({ ...declarant, declarationId: "1234" }, []))).toBe(
      "declarant.declarationId",
    );
    expect(badRequestPath(() => modelo347File({ ...declarant, statementType: "complementaria" }, []))).toBe(
      "declarant.previousDeclarationId",
    );
    expect(badRequestPath(() => modelo347File(declarant, [{ ...parties[0], province: "53" }]))).toBe(
      "parties.0.province",
    );
    expect(
      badRequestPath(() => modelo347File(declarant, [parties[1], { ...parties[0], annual: "12,5" }])),
    ).toBe("parties.1.annual");
    expect(badRequestPath(() => modelo347File(declarant, [{ ...parties[0], taxId: "B1234567890" }]))).toBe(
      "parties.0.taxId",
    );
    expect(badRequestPath(() => modelo347File(declarant, [{ ...parties[0], cash: "-1" }]))).toBe(
      "parties.0.cash",
    );
    expect(badRequestPath(() => modelo347File(declarant, [{ ...parties[0], q1: "10000000000000.00" }]))).toBe(
      "parties.0.q1",
    );
  });

  it("matches the positions of OCA's export definitions (field sizes in sequence)", () => {
    const sizes = (xml: string) =>
      [...xml.matchAll(/<record id="[^"]+" model="aeat\.model\.export\.config\.line">([\s\S]*?)<\/record>/g)]
        .map((m) => m[1])
        .filter((body) => !body.includes("subconfig"))
        .map((body) => Number(/<field name="size">(\d+)<\/field>/.exec(body)![1]));
    const normalize = (xml: string) =>
      xml.replace(/<record\s+id="([^"]+)"\s+model="([^"]+)"\s*>/g, '<record id="$1" model="$2">');
    const main = sizes(normalize(readFileSync(fixturePath("aeat", "aeat_export_mod347_data.xml"), "utf8")));
    const partner = sizes(
      normalize(readFileSync(fixturePath("aeat", "aeat_export_mod347_partner_data.xml"), "utf8")),
    );
    expect(main.reduce((a, b) => a + b, 0)).toBe(500);
    expect(partner.reduce((a, b) => a + b, 0)).toBe(500);
    // start of each OCA field in our records: the sign of an amount is its first position
    const starts = (list: number[]) => list.map((_, i) => 1 + list.slice(0, i).reduce((a, b) => a + b, 0));
    expect(starts(main)).toContain(145);
    expect(starts(partner)).toEqual(
      expect.arrayContaining([18, 36, 77, 79, 82, 83, 101, 116, 132, 136, 168, 200, 232, 264, 284, 300]),
    );
  });
});

describe("normalizeAeatText", () => {
  it("uppercases, strips accents but keeps Ñ and Ç", () => {
    expect(normalizeAeatText("Pérez Ibáñez, Ramón Çaglar")).toBe("PEREZ IBAÑEZ, RAMON ÇAGLAR");
    expect(normalizeAeatText("Lluís Güell i Col·legi")).toBe("LLUIS GUELL I COLLEGI");
    expect(normalizeAeatText("Asociación nº 3, 1ª planta")).toBe("ASOCIACION NO 3, 1A PLANTA");
  });

  it("drops other special characters, collapses spaces and cuts to length", () => {
    expect(normalizeAeatText("  ACME™  «Ibérica»\t S.A. @ 50%  ")).toBe("ACME IBERICA S.A. 50");
    expect(normalizeAeatText("Transportes – Hnos. (Soria)/Logroño")).toBe(
      "TRANSPORTES - HNOS. (SORIA)/LOGROÑO",
    );
    expect(normalizeAeatText("Construcciones y Reformas del Norte Peninsular, S.L.", 40)).toBe(
      "CONSTRUCCIONES Y REFORMAS DEL NORTE PENI",
    );
    expect(normalizeAeatText("Una palabra larga", 4)).toBe("UNA");
  });
});

describe("aggregate347", () => {
  it("is exclusive at the threshold: 3,005.07 is declared, 3,005.06 is not", () => {
    const result = aggregate347([
      { contactId: "in", key: "B", date: "2025-03-01", amount: "3005.07" },
      { contactId: "out", key: "B", date: "2025-03-01", amount: "3005.06" },
      { contactId: "negative", key: "B", date: "2025-03-01", amount: "-3005.07" },
    ]);
    expect(result.map((r) => [r.contactId, r.annual])).toEqual([
      ["in", "3005.07"],
      ["negative", "-3005.07"],
    ]);
  });

  it("adds quarters by date, subtracts refunds, and keeps sales and purchases apart", () => {
    const result = aggregate347([
      { contactId: "c1", key: "B", date: "2025-01-15", amount: "2000.00" },
      { contactId: "c1", key: "B", date: "2025-03-31", amount: "1000.00" },
      { contactId: "c1", key: "B", date: "2025-04-01", amount: "1500.00" },
      { contactId: "c1", key: "B", date: "2025-09-30", amount: "-500.00" },
      { contactId: "c1", key: "B", date: "2025-12-31", amount: "250.50" },
      { contactId: "c1", key: "A", date: "2025-06-01", amount: "3000.00" },
    ]);
    expect(result).toEqual([
      {
        contactId: "c1",
        key: "B",
        annual: "4250.50",
        q1: "3000.00",
        q2: "1500.00",
        q3: "-500.00",
        q4: "250.50",
        cash: "0.00",
      },
    ]);
  });

  it("a refund can bring a contact under the threshold", () => {
    expect(
      aggregate347([
        { contactId: "c", key: "B", date: "2025-02-01", amount: "4000.00" },
        { contactId: "c", key: "B", date: "2025-05-01", amount: "-1000.00" },
      ]),
    ).toEqual([]);
  });

  it("reports cash only over 6,000, and declares a contact for its cash alone", () => {
    const result = aggregate347([
      { contactId: "a", key: "B", date: "2025-02-01", amount: "8000.00", cash: "6000.00" },
      { contactId: "b", key: "B", date: "2025-02-01", amount: "8000.00", cash: "3000.00" },
      { contactId: "b", key: "B", date: "2025-07-01", amount: "0.00", cash: "3000.01" },
      { contactId: "c", key: "B", date: "2025-02-01", amount: "1000.00", cash: "6500.00" },
    ]);
    expect(result.map((r) => [r.contactId, r.annual, r.cash])).toEqual([
      ["a", "8000.00", "0.00"],
      ["b", "8000.00", "6000.01"],
      ["c", "1000.00", "6500.00"],
    ]);
  });

  it("OCA's known case: 4,000 @ 10 % with IRPF is declared as 4,400; 2,000 + 200 is not", () => {
    const withIrpf = computeTotals({
      applyRe: false,
      lines: [
        { quantity: "1", unitPrice: "4000", taxCode: "IVA10", vatRate: "10", reRate: "0", irpfRate: "15" },
      ],
    });
    const small = computeTotals({
      applyRe: false,
      lines: [
        { quantity: "1", unitPrice: "2000", taxCode: "IVA10", vatRate: "10", reRate: "0", irpfRate: "0" },
      ],
    });
    expect(withIrpf.total).toBe("3800.00");
    const result = aggregate347([
      { contactId: "with-irpf", key: "B", date: "2025-05-10", amount: withIrpf.importeTotal },
      { contactId: "small", key: "B", date: "2025-05-10", amount: small.importeTotal },
    ]);
    expect(result).toEqual([
      {
        contactId: "with-irpf",
        key: "B",
        annual: "4400.00",
        q1: "0.00",
        q2: "4400.00",
        q3: "0.00",
        q4: "0.00",
        cash: "0.00",
      },
    ]);
  });

  it("refuses rows of another year, bad dates and bad amounts", () => {
    expect(
      badRequestPath(() =>
        aggregate347([
          { contactId: "c", key: "B", date: "2025-12-31", amount: "1" },
          { contactId: "c", key: "B", date: "2026-01-01", amount: "1" },
        ]),
      ),
    ).toBe("rows.1.date");
    expect(
      badRequestPath(() => aggregate347([{ contactId: "c", key: "B", date: "2025-02-29", amount: "1" }])),
    ).toBe("rows.0.date");
    expect(
      badRequestPath(() => aggregate347([{ contactId: "c", key: "B", date: "2025-02-01", amount: "x" }])),
    ).toBe("rows.0.amount");
  });
});
