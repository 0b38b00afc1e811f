import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  cifControlDigit,
  dniControlLetter,
  EU_VAT_PREFIXES,
  taxIdSchema,
  validateEuVat,
  validateSpanishTaxId,
  validateTaxId,
} from "./tax-id.js";

const LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE";
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ".split("");

describe("validateSpanishTaxId: NIF (DNI)", () => {
  it("accepts a DNI with the right letter", () => {
    // 12345678 = 23 * 536768 + 14 -> letter 14 = Z
    expect(validateSpanishTaxId("12345678Z")).toEqual({ valid: true, kind: "NIF", normalized: "12345678Z" });
    // 23 % 23 = 0 -> T
    expect(validateSpanishTaxId("00000023T")).toEqual({ valid: true, kind: "NIF", normalized: "00000023T" });
  });

  it("rejects a wrong letter and says which one is expected", () => {
    expect(validateSpanishTaxId("12345678A")).toEqual({
      valid: false,
      reason: "wrong control letter, expected Z",
    });
  });

  it("normalizes case, spaces, dots, dashes and the ES prefix", () => {
    for (const raw of ["12345678z", " 12 345 678 Z ", "12.345.678-Z", "ES12345678Z", "es-12345678-z"]) {
      expect(validateSpanishTaxId(raw)).toEqual({ valid: true, kind: "NIF", normalized: "12345678Z" });
    }
  });

  it("accepts the special K/L/M NIFs (mod 23 on the 7 digits)", () => {
    // 1234567 = 23 * 53676 + 19 -> letter 19 = L
    expect(validateSpanishTaxId("K1234567L")).toEqual({ valid: true, kind: "NIF", normalized: "K1234567L" });
    // 1 % 23 = 1 -> R
    expect(validateSpanishTaxId("L0000001R")).toEqual({ valid: true, kind: "NIF", normalized: "L0000001R" });
    expect(validateSpanishTaxId("m1234567l")).toEqual({ valid: true, kind: "NIF", normalized: "M1234567L" });
    expect(validateSpanishTaxId("K1234567A")).toEqual({
      valid: false,
      reason: "wrong control letter, expected L",
    });
  });

  it("explains short DNIs, missing letters and garbage", () => {
    expect(validateSpanishTaxId("1234567L")).toMatchObject({
      valid: false,
      reason: expect.stringContaining("8 digits"),
    });
    expect(validateSpanishTaxId("12345678")).toEqual({ valid: false, reason: "missing control letter" });
    expect(validateSpanishTaxId("")).toEqual({ valid: false, reason: "empty tax identifier" });
    expect(validateSpanishTaxId("  ")).toEqual({ valid: false, reason: "empty tax identifier" });
    expect(validateSpanishTaxId("12345678/Z")).toMatchObject({ valid: false });
    expect(validateSpanishTaxId("HELLO")).toEqual({ valid: false, reason: "not a NIF, NIE or CIF" });
    expect(validateSpanishTaxId("123456789Z")).toEqual({ valid: false, reason: "not a NIF, NIE or CIF" });
  });
});

describe("validateSpanishTaxId: NIE", () => {
  it("accepts X, Y and Z NIEs", () => {
    // X -> 0: 1234567 % 23 = 19 -> L
    expect(validateSpanishTaxId("X1234567L")).toEqual({ valid: true, kind: "NIE", normalized: "X1234567L" });
    // Y -> 1: 11234567 = 23 * 488459 + 10 -> X
    expect(validateSpanishTaxId("Y1234567X")).toEqual({ valid: true, kind: "NIE", normalized: "Y1234567X" });
    // Z -> 2: 21234567 = 23 * 923242 + 1 -> R
    expect(validateSpanishTaxId("z-1234567-r")).toEqual({
      valid: true,
      kind: "NIE",
      normalized: "Z1234567R",
    });
    expect(validateSpanishTaxId("ESX1234567L")).toEqual({
      valid: true,
      kind: "NIE",
      normalized: "X1234567L",
    });
  });

  it("rejects a wrong NIE letter", () => {
    expect(validateSpanishTaxId("X1234567A")).toEqual({
      valid: false,
      reason: "wrong control letter, expected L",
    });
    expect(validateSpanishTaxId("Y1234567L")).toEqual({
      valid: false,
      reason: "wrong control letter, expected X",
    });
  });
});

describe("validateSpanishTaxId: CIF", () => {
  it("accepts CIFs with a digit control", () => {
    // B 1234567: odd 1,3,5,7 -> 2+6+(1+0)+(1+4) = 14; even 2+4+6 = 12; 26 -> (10 - 6) % 10 = 4
    expect(validateSpanishTaxId("B12345674")).toEqual({ valid: true, kind: "CIF", normalized: "B12345674" });
    // A 5881850: odd 5,8,8,0 -> (1+0)+(1+6)+(1+6)+0 = 15; even 8+1+5 = 14; 29 -> 1
    expect(validateSpanishTaxId("A58818501")).toEqual({ valid: true, kind: "CIF", normalized: "A58818501" });
    // A 2801586: odd 2,0,5,6 -> 4+0+(1+0)+(1+2) = 8; even 8+1+8 = 17; 25 -> 5
    expect(validateSpanishTaxId("a-28015865")).toEqual({ valid: true, kind: "CIF", normalized: "A28015865" });
    expect(validateSpanishTaxId("ES B-12345674")).toEqual({
      valid: true,
      kind: "CIF",
      normalized: "B12345674",
    });
  });

  it("accepts CIFs with a letter control", () => {
    // Q 2826000: odd 2,2,0,0 -> 4+4 = 8; even 8+6+0 = 14; 22 -> 8 -> "JABCDEFGHI"[8] = H
    expect(validateSpanishTaxId("Q2826000H")).toEqual({ valid: true, kind: "CIF", normalized: "Q2826000H" });
    // P 2807900: odd 2,0,9,0 -> 4+0+(1+8)+0 = 13; even 8+7+0 = 15; 28 -> 2 -> B
    expect(validateSpanishTaxId("P2807900B")).toEqual({ valid: true, kind: "CIF", normalized: "P2807900B" });
  });

  it("rejects wrong controls and controls of the wrong type", () => {
    expect(validateSpanishTaxId("B12345675")).toEqual({
      valid: false,
      reason: "wrong control character, expected 4",
    });
    expect(validateSpanishTaxId("A58818502")).toEqual({
      valid: false,
      reason: "wrong control character, expected 1",
    });
    // Right value, wrong type: B needs a digit, Q needs a letter.
    expect(validateSpanishTaxId("B1234567D")).toEqual({
      valid: false,
      reason: "wrong control character, expected 4",
    });
    expect(validateSpanishTaxId("Q28260008")).toEqual({
      valid: false,
      reason: "wrong control character, expected H",
    });
    expect(validateSpanishTaxId("Q2826000Z")).toEqual({
      valid: false,
      reason: "wrong control character, expected H",
    });
    expect(validateSpanishTaxId("Q2826000J")).toEqual({
      valid: false,
      reason: "wrong control character, expected H",
    });
  });

  it("rejects letters that are not organisation types", () => {
    expect(validateSpanishTaxId("I12345674")).toEqual({ valid: false, reason: "not a NIF, NIE or CIF" });
    expect(validateSpanishTaxId("O12345674")).toEqual({ valid: false, reason: "not a NIF, NIE or CIF" });
    expect(validateSpanishTaxId("B1234567")).toEqual({ valid: false, reason: "not a NIF, NIE or CIF" });
  });

  it("computes the control digit", () => {
    expect(cifControlDigit("1234567")).toBe(4);
    expect(cifControlDigit("5881850")).toBe(1);
    expect(cifControlDigit("2826000")).toBe(8);
    expect(cifControlDigit("0000000")).toBe(0);
  });
});

describe("validateEuVat", () => {
  it("accepts well-shaped VAT numbers", () => {
    const cases: Array<[string, string, string]> = [
      ["DE123456789", "DE", "DE123456789"],
      ["FR40303265045", "FR", "FR40303265045"],
      ["fr xx 123456789", "FR", "FRXX123456789"],
      ["IT12345678901", "IT", "IT12345678901"],
      ["PT123456789", "PT", "PT123456789"],
      ["NL123456789B01", "NL", "NL123456789B01"],
      ["ATU12345678", "AT", "ATU12345678"],
      ["BE0123456789", "BE", "BE0123456789"],
      ["EL123456789", "EL", "EL123456789"],
      ["IE1234567T", "IE", "IE1234567T"],
      ["IE1234567FA", "IE", "IE1234567FA"],
      ["IE1X23456T", "IE", "IE1X23456T"],
      ["SE123456789001", "SE", "SE123456789001"],
      ["PL123-456-78-90", "PL", "PL1234567890"],
      ["CY12345678L", "CY", "CY12345678L"],
      ["XI123456789", "XI", "XI123456789"],
      ["XIGD001", "XI", "XIGD001"],
    ];
    for (const [raw, country, normalized] of cases) {
      expect(validateEuVat(raw), raw).toEqual({ valid: true, country, normalized });
    }
  });

  it("delegates ES to the Spanish validation", () => {
    expect(validateEuVat("ESB12345674")).toEqual({ valid: true, country: "ES", normalized: "ESB12345674" });
    expect(validateEuVat("es 12345678-z")).toEqual({ valid: true, country: "ES", normalized: "ES12345678Z" });
    expect(validateEuVat("ES12345678A")).toEqual({
      valid: false,
      country: "ES",
      reason: "wrong control letter, expected Z",
    });
  });

  it("rejects malformed numbers", () => {
    for (const raw of [
      "DE12345678",
      "DE1234567890",
      "FRI0123456789",
      "IT1234567890",
      "PT12345678",
      "NL123456789A01",
      "NL123456789B1",
      "AT12345678",
      "BE2123456789",
      "SE123456789012",
    ]) {
      const result = validateEuVat(raw);
      expect(result.valid, raw).toBe(false);
      expect(result.reason, raw).toMatch(/not a valid [A-Z]{2} VAT number format/);
    }
  });

  it("rejects unknown prefixes with a clear reason", () => {
    expect(validateEuVat("GR123456789")).toMatchObject({
      valid: false,
      reason: expect.stringContaining("EL"),
    });
    expect(validateEuVat("GB123456789")).toMatchObject({ valid: false });
    expect(validateEuVat("US123456789")).toEqual({ valid: false, reason: "US is not an EU VAT prefix" });
    expect(validateEuVat("123456789")).toMatchObject({
      valid: false,
      reason: expect.stringContaining("prefix"),
    });
    expect(validateEuVat("")).toEqual({ valid: false, reason: "empty VAT number" });
  });

  it("knows the 27 member states plus XI", () => {
    expect(EU_VAT_PREFIXES).toHaveLength(28);
    expect(EU_VAT_PREFIXES).toContain("EL");
    expect(EU_VAT_PREFIXES).toContain("XI");
    expect(EU_VAT_PREFIXES).not.toContain("GR");
  });
});

describe("validateTaxId", () => {
  it("validates Spanish identifiers and returns them without the ES prefix", () => {
    expect(validateTaxId("es12345678z")).toEqual({
      valid: true,
      normalized: "12345678Z",
      country: "ES",
      kind: "NIF",
    });
    expect(validateTaxId("ESB12345674", { allowEuVat: true })).toEqual({
      valid: true,
      normalized: "B12345674",
      country: "ES",
      kind: "CIF",
    });
    expect(validateTaxId("12345678A")).toEqual({ valid: false, reason: "wrong control letter, expected Z" });
  });

  it("only accepts foreign VAT numbers with allowEuVat", () => {
    expect(validateTaxId("DE123456789")).toMatchObject({ valid: false, reason: "not a NIF, NIE or CIF" });
    expect(validateTaxId("de 123 456 789", { allowEuVat: true })).toEqual({
      valid: true,
      normalized: "DE123456789",
      country: "DE",
      kind: "VAT",
    });
    expect(validateTaxId("DE12345678", { allowEuVat: true })).toEqual({
      valid: false,
      reason: "not a valid DE VAT number format",
    });
    // Spanish reasons win for ES-prefixed input.
    expect(validateTaxId("ES12345678A", { allowEuVat: true })).toEqual({
      valid: false,
      reason: "wrong control letter, expected Z",
    });
  });

  it("does not confuse NIEs and K/L/M NIFs with VAT prefixes (XI, LT, LU, LV)", () => {
    expect(validateTaxId("X1234567L", { allowEuVat: true })).toMatchObject({ valid: true, kind: "NIE" });
    expect(validateTaxId("L0000001R", { allowEuVat: true })).toMatchObject({ valid: true, kind: "NIF" });
    expect(validateTaxId("LU12345678", { allowEuVat: true })).toMatchObject({ valid: true, kind: "VAT" });
  });
});

describe("taxIdSchema", () => {
  it("normalizes valid identifiers", () => {
    expect(taxIdSchema().parse(" 12.345.678-z ")).toBe("12345678Z");
    expect(taxIdSchema().parse("esb12345674")).toBe("B12345674");
    expect(taxIdSchema({ allowEuVat: true }).parse("NL 123456789 B01")).toBe("NL123456789B01");
  });

  it("rejects invalid identifiers with a clear message", () => {
    const result = taxIdSchema().safeParse("12345678A");
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe("invalid tax ID: wrong control letter, expected Z");
    expect(taxIdSchema().safeParse("DE123456789").success).toBe(false);
    expect(taxIdSchema().safeParse(12345678).success).toBe(false);
  });

  it("works inside an object schema", async () => {
    const { z } = await import("zod");
    const schema = z.object({ taxId: taxIdSchema({ allowEuVat: true }) });
    expect(schema.parse({ taxId: "x1234567l" })).toEqual({ taxId: "X1234567L" });
    const bad = schema.safeParse({ taxId: "B12345675" });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(["taxId"]);
  });
});

describe("properties", () => {
  const digits8 = fc.integer({ min: 0, max: 99_999_999 }).map((n) => String(n).padStart(8, "0"));

  it("any 8-digit number with its mod-23 letter is a valid NIF, and any other letter fails", () => {
    fc.assert(
      fc.property(digits8, fc.constantFrom(...ALPHABET), (digits, other) => {
        const letter = LETTERS[Number(digits) % 23];
        expect(dniControlLetter(digits)).toBe(letter);
        expect(validateSpanishTaxId(digits + letter)).toEqual({
          valid: true,
          kind: "NIF",
          normalized: digits + letter,
        });
        if (other !== letter) {
          expect(validateSpanishTaxId(digits + other)).toEqual({
            valid: false,
            reason: `wrong control letter, expected ${letter}`,
          });
        }
      }),
    );
  });

  it("any NIE with its letter is valid, and any other letter fails", () => {
    const digits7 = fc.integer({ min: 0, max: 9_999_999 }).map((n) => String(n).padStart(7, "0"));
    fc.assert(
      fc.property(
        fc.constantFrom("X", "Y", "Z"),
        digits7,
        fc.constantFrom(...ALPHABET),
        (p, digits, other) => {
          const letter = LETTERS[Number({ X: "0", Y: "1", Z: "2" }[p] + digits) % 23];
          expect(validateSpanishTaxId(p + digits + letter)).toMatchObject({ valid: true, kind: "NIE" });
          if (other !== letter) expect(validateSpanishTaxId(p + digits + other).valid).toBe(false);
        },
      ),
    );
  });

  it("exactly one control character makes a CIF valid", () => {
    const digits7 = fc.integer({ min: 0, max: 9_999_999 }).map((n) => String(n).padStart(7, "0"));
    const orgs = "ABCDEFGHJNPQRSUVW".split("");
    const controls = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ".split("");
    fc.assert(
      fc.property(fc.constantFrom(...orgs), digits7, (org, digits) => {
        const valid = controls.filter((c) => validateSpanishTaxId(org + digits + c).valid);
        expect(valid).toHaveLength(1);
      }),
    );
  });

  it("normalization is idempotent for valid identifiers", () => {
    fc.assert(
      fc.property(digits8, (digits) => {
        const id = digits + LETTERS[Number(digits) % 23];
        const spaced = `es ${id.slice(0, 2)}.${id.slice(2, 5)}-${id.slice(5).toLowerCase()}`;
        const first = validateTaxId(spaced);
        expect(first.valid).toBe(true);
        expect(validateTaxId(first.normalized ?? "")).toEqual(first);
      }),
    );
  });
});
