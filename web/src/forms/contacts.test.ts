import { describe, expect, it } from "vitest";
import {
  type CompanyValues,
  type ContactValues,
  companyBody,
  companyRules,
  contactBody,
  contactRules,
  parsePaymentDays,
  parseTermDays,
} from "./contacts";

const t = (key: string, options?: Record<string, unknown>) =>
  options?.reason ? `${key}: ${options.reason}` : key;

const contact: ContactValues = {
  contact_type: "customer",
  code: "",
  name: " Construcciones Norte SL ",
  legal_name: "",
  tax_id: " b-12345674 ",
  email: "",
  phone: "",
  address: "",
  city: "",
  postal_code: "",
  province: "",
  country: "es",
  payment_terms_days: "60",
  payment_days: "20, 5",
  tax_regime: "general",
  agent_id: "",
  is_active: true,
};

describe("a contact being typed", () => {
  const rules = contactRules(t);

  it("checks a Spanish tax id down to its control character, with the server's validator", () => {
    expect(rules.tax_id("B12345674", contact)).toBeNull();
    expect(rules.tax_id("12345678Z", contact)).toBeNull();
    expect(rules.tax_id("X1234567L", contact)).toBeNull();
    expect(rules.tax_id("B12345675", contact)).toBe("records.badTaxId: wrong control character, expected 4");
    expect(rules.tax_id("12345678A", contact)).toBe("records.badTaxId: wrong control letter, expected Z");
    expect(rules.tax_id("HELLO", contact)).toMatch(/^records\.badTaxId/);
  });

  it("leaves a foreign contact's number to the server and takes no tax id at all", () => {
    expect(rules.tax_id("", contact)).toBeNull();
    expect(rules.tax_id("FR12345678901", { ...contact, country: "FR" })).toBeNull();
    expect(rules.tax_id("X".repeat(41), { ...contact, country: "FR" })).toBe("masters.tooLong");
  });

  it("needs a name, a two-letter country and an e-mail that looks like one", () => {
    expect(rules.name("  ")).toBe("auth.required");
    expect(rules.name("A".repeat(201))).toBe("masters.tooLong");
    expect(rules.country("E")).toBe("records.badCountry");
    expect(rules.country("ESP")).toBe("records.badCountry");
    expect(rules.email("ana@")).toBe("auth.invalidEmail");
    expect(rules.email("")).toBeNull();
  });

  it("reads payment terms as 0..365 days and up to three distinct payment days", () => {
    expect(parseTermDays("0")).toBe(0);
    expect(parseTermDays("365")).toBe(365);
    expect(parseTermDays("366")).toBeNull();
    expect(parseTermDays("30,5")).toBeNull();
    expect(parseTermDays("")).toBeNull();
    expect(parsePaymentDays("")).toEqual([]);
    expect(parsePaymentDays("20, 5")).toEqual([5, 20]);
    expect(parsePaymentDays("1 15 31")).toEqual([1, 15, 31]);
    expect(parsePaymentDays("5, 5")).toBeNull();
    expect(parsePaymentDays("0")).toBeNull();
    expect(parsePaymentDays("32")).toBeNull();
    expect(parsePaymentDays("1, 2, 3, 4")).toBeNull();
    expect(parsePaymentDays("5.5")).toBeNull();
    expect(rules.payment_days("1, 2, 3, 4")).toBe("records.badPaymentDays");
    expect(rules.payment_terms_days("abc")).toBe("records.badTermDays");
  });

  it("sends the API's body: trimmed, an empty code left to the server, days as numbers", () => {
    const body = contactBody(contact);
    expect(body).not.toHaveProperty("code");
    expect(body.name).toBe("Construcciones Norte SL");
    expect(body.tax_id).toBe("b-12345674");
    expect(body.country).toBe("ES");
    expect(body.payment_terms_days).toBe(60);
    expect(body.payment_days).toEqual([5, 20]);
    expect(body.agent_id).toBeNull();
    expect(contactBody({ ...contact, tax_id: "  ", code: "C9" })).toMatchObject({ tax_id: null, code: "C9" });
  });
});

describe("a company being typed", () => {
  const rules = companyRules(t);
  const company: CompanyValues = {
    name: "ZZ Obras",
    legal_name: "",
    tax_id: "b12345674",
    address: "",
    city: "",
    postal_code: "",
    province: "",
    country: "es",
    currency: "eur",
    is_active: true,
  };

  it("needs a valid Spanish tax id, a country and a currency code", () => {
    expect(rules.tax_id("")).toBe("auth.required");
    expect(rules.tax_id("B12345674")).toBeNull();
    expect(rules.tax_id("B12345670")).toMatch(/^records\.badTaxId/);
    expect(rules.currency("EURO")).toBe("records.badCurrency");
    expect(rules.currency("eur")).toBeNull();
    expect(companyBody(company)).toMatchObject({ country: "ES", currency: "EUR", tax_id: "b12345674" });
  });
});
