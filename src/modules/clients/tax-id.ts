import { BadRequestError } from "../../platform/http/errors.js";
import { normalizeTaxIdInput, validateEuVat, validateSpanishTaxId } from "../../platform/tax-id.js";

/** ISO 3166 codes of the EU member states (Greece's VAT prefix is EL, not GR). */
const EU_MEMBER_STATES = new Set(
  "AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK".split(" "),
);

const vatPrefixOf = (country: string) => (country === "GR" ? "EL" : country);

function invalidTaxId(reason: string): never {
  throw new BadRequestError(`Invalid tax_id: ${reason}`, [{ path: "tax_id", message: reason }]);
}

/**
 * The stored form of a contact's tax identifier, or a 400 naming tax_id.
 * - A valid Spanish NIF, NIE or CIF is accepted for any country (stored without the ES prefix).
 * - Spain: nothing else.
 * - Other EU member states: their VAT number, shape-checked, with or without the country prefix;
 *   the prefix must be the contact's country.
 * - Outside the EU there is no format to check against: letters and digits, as given.
 */
export function normalizeContactTaxId(raw: string, country: string): string {
  const value = normalizeTaxIdInput(raw);
  const spanish = validateSpanishTaxId(value);
  if (spanish.valid) return spanish.normalized;
  if (country === "ES") invalidTaxId(spanish.reason);
  if (!EU_MEMBER_STATES.has(country)) {
    if (/^[A-Z0-9]{2,30}$/.test(value)) return value;
    invalidTaxId("use 2 to 30 letters and digits");
  }
  const prefix = vatPrefixOf(country);
  const candidate = /^[A-Z]{2}/.test(value) ? value : prefix + value;
  const vat = validateEuVat(candidate);
  if (!vat.valid || !vat.normalized) invalidTaxId(vat.reason ?? `not a valid ${prefix} VAT number`);
  if (vat.country !== prefix)
    invalidTaxId(`a ${vat.country} VAT number does not belong to country ${country}`);
  return vat.normalized;
}
