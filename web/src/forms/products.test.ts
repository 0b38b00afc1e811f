import { describe, expect, it } from "vitest";
import { decimalForInput, parsePrice, productBody, productRules } from "./products";

const t = (key: string) => key;

describe("a product being typed", () => {
  it("reads prices as decimal strings, never floats, Spanish or plain", () => {
    expect(parsePrice("1.234,5")).toBe("1234.5");
    expect(parsePrice("1234.50")).toBe("1234.50");
    expect(parsePrice("0,1")).toBe("0.1");
    expect(parsePrice("")).toBe("0");
    expect(parsePrice("-3")).toBeNull();
    expect(parsePrice("1,234")).toBeNull();
    expect(parsePrice("12abc")).toBeNull();
    expect(parsePrice("1e3")).toBeNull();
  });

  it("needs a reference and a description within the API's lengths", () => {
    const rules = productRules(t);
    expect(rules.reference("")).toBe("auth.required");
    expect(rules.reference("R".repeat(51))).toBe("masters.tooLong");
    expect(rules.description("Tabique de ladrillo")).toBeNull();
    expect(rules.sale_price("12,345")).toBe("records.badPrice");
    expect(rules.cost_price("9,99")).toBeNull();
  });

  it("sends no family as null and the prices as strings", () => {
    const body = productBody({
      reference: " P1 ",
      description: "Tabique",
      family_code: "",
      sale_price: "1.000,10",
      cost_price: "",
      vat_rate: "10",
      is_active: true,
    });
    expect(body).toEqual({
      reference: "P1",
      description: "Tabique",
      family_code: null,
      sale_price: "1000.10",
      cost_price: "0",
      vat_rate: "10",
      is_active: true,
    });
    expect(decimalForInput("1234.50")).toBe("1234,50");
    expect(decimalForInput(null)).toBe("");
  });
});
