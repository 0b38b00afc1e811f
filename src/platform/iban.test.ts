import { describe, expect, it } from "vitest";
import { formatIban, validateIban } from "./iban.js";

/** The IBAN of a BBAN with its check digits computed (ISO 7064 MOD 97-10), independently of iban.ts. */
function ibanOf(country: string, bban: string): string {
  const digits = `${bban}${country}00`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  const check = 98 - Number(BigInt(digits) % 97n);
  return `${country}${String(check).padStart(2, "0")}${bban}`;
}

describe("IBAN", () => {
  it("accepts published examples, with spaces and in lower case", () => {
    for (const iban of [
      "ES91 2100 0418 4502 0005 1332",
      "es7921000813610123456789",
      "GB82 WEST 1234 5698 7654 32",
      "DE89 3704 0044 0532 0130 00",
      "FR14 2004 1010 0505 0001 3M02 606",
    ]) {
      const result = validateIban(iban);
      expect(result, iban).toEqual({ valid: true, iban: iban.replace(/\s/g, "").toUpperCase() });
    }
  });

  it("refuses a wrong check digit, a wrong length, an unknown country and junk", () => {
    expect(validateIban("ES9121000418450200051333")).toMatchObject({ valid: false, reason: /mod 97/ });
    expect(validateIban("ES912100041845020005133")).toMatchObject({ valid: false, reason: /24 characters/ });
    expect(validateIban("XX9121000418450200051332")).toMatchObject({
      valid: false,
      reason: /not a supported/,
    });
    expect(validateIban("not an iban")).toMatchObject({ valid: false });
    expect(validateIban("")).toMatchObject({ valid: false });
  });

  it("checks a Spanish account's own control digits (DC) even when mod 97 holds", () => {
    // 2100 0418 45 0200051332 is right; 46 is a wrong DC with freshly computed IBAN check digits.
    expect(validateIban(ibanOf("ES", "21000418450200051332"))).toMatchObject({ valid: true });
    const wrongDc = ibanOf("ES", "21000418460200051332");
    expect(validateIban(wrongDc)).toEqual({
      valid: false,
      reason: "the account's control digits (DC) do not match",
    });
  });

  it("formats in groups of four", () => {
    expect(formatIban("ES9121000418450200051332")).toBe("ES91 2100 0418 4502 0005 1332");
  });
});
