import { describe, expect, it } from "vitest";
import { agentBody, agentRules, familyBody, familyRules, parsePercent, problemFieldErrors } from "./masters";

const t = (key: string) => key;

describe("an agent being typed", () => {
  const rules = agentRules(t);

  it("needs a code and a name, and refuses a code longer than the API takes", () => {
    expect(rules.code("")).toBe("auth.required");
    expect(rules.code("   ")).toBe("auth.required");
    expect(rules.code("A".repeat(31))).toBe("masters.tooLong");
    expect(rules.code("AG01")).toBeNull();
    expect(rules.name("Comercial Norte")).toBeNull();
  });

  it("takes an empty or valid e-mail only", () => {
    expect(rules.email("")).toBeNull();
    expect(rules.email("ana@example.com")).toBeNull();
    expect(rules.email("ana@")).toBe("auth.invalidEmail");
  });

  it("reads the commission as a percentage between 0 and 100 with two decimals at most", () => {
    expect(parsePercent("5,5")).toBe("5.50");
    expect(parsePercent("12.25")).toBe("12.25");
    expect(parsePercent("")).toBe("0.00");
    expect(parsePercent("100")).toBe("100.00");
    expect(parsePercent("100,01")).toBeNull();
    expect(parsePercent("-1")).toBeNull();
    expect(parsePercent("1,234")).toBeNull();
    expect(rules.commission_pct("abc")).toBe("masters.badPercent");
    expect(rules.commission_pct("7,5")).toBeNull();
  });

  it("sends trimmed values, an upper-case tax id or null, and the commission as a decimal string", () => {
    expect(
      agentBody({
        code: " AG01 ",
        name: " Ana ",
        tax_id: " b12345674 ",
        email: " ",
        commission_pct: "3,5",
        is_active: true,
      }),
    ).toEqual({
      code: "AG01",
      name: "Ana",
      tax_id: "B12345674",
      email: "",
      commission_pct: "3.50",
      is_active: true,
    });
    expect(
      agentBody({ code: "A", name: "B", tax_id: "", email: "", commission_pct: "", is_active: false }).tax_id,
    ).toBeNull();
  });
});

describe("a product family being typed", () => {
  const rules = familyRules(t);

  it("takes a sales account of group 7 and a purchases account of group 6, or none", () => {
    expect(rules.sales_account("")).toBeNull();
    expect(rules.sales_account("705")).toBeNull();
    expect(rules.sales_account("7050")).toBeNull();
    expect(rules.sales_account("605")).toBe("masters.badAccount");
    expect(rules.sales_account("70")).toBe("masters.badAccount");
    expect(rules.purchases_account("601")).toBeNull();
    expect(rules.purchases_account("701")).toBe("masters.badAccount");
    expect(rules.code("")).toBe("auth.required");
  });

  it("sends an empty account as null (the company's default)", () => {
    expect(
      familyBody({
        code: " ARI ",
        name: "Áridos",
        sales_account: "",
        purchases_account: " 601 ",
        is_active: true,
      }),
    ).toEqual({
      code: "ARI",
      name: "Áridos",
      sales_account: null,
      purchases_account: "601",
      is_active: true,
    });
  });
});

describe("the server's field errors on the form", () => {
  it("puts each body field's first message under that field and ignores the others", () => {
    expect(
      problemFieldErrors(
        [
          { path: "body.tax_id", message: "invalid tax ID: wrong control character, expected 4" },
          { path: "body.tax_id", message: "second" },
          { path: "body.company_id", message: "not a field of the form" },
          { path: "code", message: "already used" },
        ],
        ["code", "tax_id"],
      ),
    ).toEqual({ tax_id: "invalid tax ID: wrong control character, expected 4", code: "already used" });
    expect(problemFieldErrors(undefined, ["code"])).toEqual({});
  });
});
