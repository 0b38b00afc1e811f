import { describe, expect, it } from "vitest";
import { entryProblems, entryTotals, parseAmount, passwordChangeRules, signInRules } from "./validation";

const t = (key: string) => key;

describe("amounts as typed", () => {
  it("reads Spanish and plain decimals exactly, empty as zero, anything else as NaN", () => {
    expect(parseAmount("1.234,56").toFixed(2)).toBe("1234.56");
    expect(parseAmount("1234.56").toFixed(2)).toBe("1234.56");
    expect(parseAmount("0,1").plus(parseAmount("0,2")).toFixed(2)).toBe("0.30");
    expect(parseAmount("").toFixed(2)).toBe("0.00");
    expect(parseAmount("12,345").isNaN()).toBe(true);
    expect(parseAmount("abc").isNaN()).toBe(true);
  });
});

describe("a journal entry being typed", () => {
  const line = (subaccount_code: string, debit: string, credit: string) => ({
    subaccount_code,
    debit,
    credit,
  });

  it("shows the running difference and is balanced only when debits equal credits", () => {
    const totals = entryTotals([line("5720001", "100,00", ""), line("4300001", "", "90")]);
    expect(totals.difference.toFixed(2)).toBe("10.00");
    expect(totals.balanced).toBe(false);
    expect(entryTotals([line("5720001", "0,10", ""), line("4300001", "", "0,1")]).balanced).toBe(true);
  });

  it("refuses an unbalanced entry", () => {
    expect(entryProblems([line("5720001", "100", ""), line("4300001", "", "90")])).toEqual([
      "entries.unbalanced",
    ]);
  });

  it("needs two lines, each with a subaccount and either a debit or a credit", () => {
    expect(entryProblems([line("5720001", "100", ""), line("", "", "")])).toContain("entries.minLines");
    expect(entryProblems([line("5720001", "100", "100"), line("4300001", "", "")])).toContain(
      "entries.oneSide",
    );
    expect(entryProblems([line("5720001", "100", ""), line("", "", "100")])).toContain("entries.oneSide");
    expect(entryProblems([line("5720001", "1x", ""), line("4300001", "", "1")])).toContain("entries.oneSide");
  });

  it("accepts a balanced entry", () => {
    expect(
      entryProblems([
        line("5720001", "1.210,00", ""),
        line("7000001", "", "1000"),
        line("4770001", "", "210,00"),
      ]),
    ).toEqual([]);
  });
});

describe("sign-in and password forms", () => {
  it("sign-in needs a well-formed e-mail and a password", () => {
    const rules = signInRules(t);
    expect(rules.email("")).toBe("auth.required");
    expect(rules.email("admin")).toBe("auth.invalidEmail");
    expect(rules.email(" admin@example.com ")).toBeNull();
    expect(rules.password("")).toBe("auth.required");
  });

  it("a new password has 8 characters and is typed twice the same", () => {
    const rules = passwordChangeRules(t);
    expect(rules.new_password("short")).toBe("auth.passwordTooShort");
    expect(rules.new_password("long-enough")).toBeNull();
    expect(rules.confirm("other", { new_password: "long-enough" })).toBe("auth.passwordMismatch");
    expect(rules.confirm("long-enough", { new_password: "long-enough" })).toBeNull();
  });
});
