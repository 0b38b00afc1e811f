/**
 * IBAN (ISO 13616): country code, two check digits, then the country's BBAN. Valid when it has the
 * country's length and its mod-97 remainder (ISO 7064, letters as 10..35) is 1. Spanish IBANs also
 * carry the CCC's own two control digits, checked too.
 */

/** Lengths of the IBAN per country (SWIFT IBAN registry), for the countries a Spanish company meets. */
const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24,
  AT: 20,
  BE: 16,
  BG: 22,
  CH: 21,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  EE: 20,
  ES: 24,
  FI: 18,
  FR: 27,
  GB: 22,
  GI: 23,
  GR: 27,
  HR: 21,
  HU: 28,
  IE: 22,
  IS: 26,
  IT: 27,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MT: 31,
  NL: 18,
  NO: 15,
  PL: 28,
  PT: 25,
  RO: 24,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
};

/** Upper case, spaces and dashes removed ("es91 2100-0418..." -> "ES912100..."). */
export const normalizeIban = (raw: string): string => raw.toUpperCase().replace(/[\s-]/g, "");

/** The ISO 7064 MOD 97-10 remainder of an IBAN (rearranged: BBAN + country + check digits). */
function mod97(iban: string): number {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const value = ch >= "A" && ch <= "Z" ? ch.charCodeAt(0) - 55 : Number(ch);
    remainder = (value > 9 ? remainder * 100 + value : remainder * 10 + value) % 97;
  }
  return remainder;
}

/** The two control digits of a Spanish CCC (entity 4, office 4, DC 2, account 10). */
function cccControlDigits(entity: string, office: string, account: string): string {
  const weights = [1, 2, 4, 8, 5, 10, 9, 7, 3, 6];
  const digit = (digits: string) => {
    let total = 0;
    for (let i = 0; i < digits.length; i++) total += Number(digits[i]) * weights[i];
    const d = 11 - (total % 11);
    return d === 11 ? 0 : d === 10 ? 1 : d;
  };
  return `${digit(`00${entity}${office}`)}${digit(account)}`;
}

export type IbanResult = { valid: true; iban: string } | { valid: false; reason: string };

/** Checks an IBAN as typed; on success returns it normalized (no spaces, upper case). */
export function validateIban(raw: string): IbanResult {
  const iban = normalizeIban(raw);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban))
    return { valid: false, reason: "must be a country code, two check digits and the account, e.g. ES91..." };
  const country = iban.slice(0, 2);
  const length = IBAN_LENGTHS[country];
  if (!length) return { valid: false, reason: `country ${country} is not a supported IBAN country` };
  if (iban.length !== length)
    return { valid: false, reason: `an IBAN of ${country} has ${length} characters, not ${iban.length}` };
  if (mod97(iban) !== 1) return { valid: false, reason: "the check digits do not match (mod 97)" };
  if (country === "ES") {
    if (!/^\d+$/.test(iban.slice(4))) return { valid: false, reason: "a Spanish account has digits only" };
    const [entity, office, dc, account] = [
      iban.slice(4, 8),
      iban.slice(8, 12),
      iban.slice(12, 14),
      iban.slice(14),
    ];
    if (cccControlDigits(entity, office, account) !== dc)
      return { valid: false, reason: "the account's control digits (DC) do not match" };
  }
  return { valid: true, iban };
}

/** Groups of four for display ("ES91 2100 0418 4502 0005 1332"). */
export const formatIban = (iban: string): string => iban.replace(/(.{4})(?=.)/g, "$1 ");
