import { describe, expect, it } from "vitest";
import {
  type BudgetLineValues,
  budgetLineBody,
  budgetLineRules,
  moneyText,
  payBody,
  payRules,
  splitBody,
  splitProblems,
} from "./treasury";

const t = (key: string) => key;

describe("paying an instalment", () => {
  const rules = payRules(t);
  it("needs a date, a positive amount, a bank account and non-negative fees", () => {
    expect(rules.date("2026-11-24")).toBeNull();
    expect(rules.date("24/11/2026")).toBe("treasuryPages.badDate");
    expect(rules.date("2026-02-30x")).toBe("treasuryPages.badDate");
    expect(rules.amount("1.234,56")).toBeNull();
    expect(rules.amount("0")).toBe("treasuryPages.badAmount");
    expect(rules.amount("-5")).toBe("treasuryPages.badAmount");
    expect(rules.amount("12,345")).toBe("treasuryPages.badAmount");
    expect(rules.bank_account_id(null)).toBe("auth.required");
    expect(rules.fees("")).toBeNull();
    expect(rules.fees("1,20")).toBeNull();
    expect(rules.fees("-1")).toBe("treasuryPages.badFees");
  });

  it("pays a credit note's negative instalment with a negative amount only", () => {
    const refund = payRules(t, true);
    expect(refund.amount("-25,50")).toBeNull();
    expect(refund.amount("25,50")).toBe("treasuryPages.badRefund");
    expect(payBody({ date: "2026-11-24", amount: "-25,50", bank_account_id: "b1", fees: "" }).amount).toBe(
      "-25.50",
    );
  });

  it("sends decimal strings, never numbers, and leaves zero fees out", () => {
    expect(payBody({ date: "2026-11-24", amount: "1.000,10", bank_account_id: "b1", fees: "0" })).toEqual({
      date: "2026-11-24",
      amount: "1000.10",
      bank_account_id: "b1",
    });
    expect(payBody({ date: "2026-11-24", amount: "0.1", bank_account_id: "b1", fees: "1,2" })).toEqual({
      date: "2026-11-24",
      amount: "0.1",
      bank_account_id: "b1",
      fees: "1.2",
    });
  });

  it("reads money without floats: 0.1 + 0.2 parts make 0.3 exactly", () => {
    const parts = [
      { key: "a", due_date: "2026-12-01", amount: "0,1" },
      { key: "b", due_date: "2027-01-01", amount: "0.2" },
    ];
    expect(splitProblems(parts, "0.30")).toEqual({ errors: {}, remaining: "0.00" });
    expect(moneyText("0,00")).toBeNull();
  });
});

describe("splitting an instalment", () => {
  const part = (due_date: string, amount: string, key = amount) => ({ key, due_date, amount });

  it("wants at least two parts adding up to the amount, each dated", () => {
    expect(splitProblems([part("2026-12-01", "100")], "100.00").errors).toEqual({
      parts: "treasuryPages.twoParts",
    });
    const short = splitProblems([part("2026-12-01", "60"), part("2027-01-01", "30")], "100.00");
    expect(short).toEqual({ errors: { parts: "treasuryPages.partsMustAdd" }, remaining: "10.00" });
    const bad = splitProblems([part("", "60"), part("2027-01-01", "x")], "100.00");
    expect(bad.errors).toEqual({
      "parts.0.due_date": "treasuryPages.badDate",
      "parts.1.amount": "treasuryPages.badAmount",
      parts: "treasuryPages.partsMustAdd",
    });
  });

  it("splits a credit note's negative instalment into negative parts", () => {
    const parts = [part("2026-12-01", "-40,50"), part("2027-01-01", "-59,50")];
    expect(splitProblems(parts, "-100.00")).toEqual({ errors: {}, remaining: "0.00" });
    expect(splitBody(parts)).toEqual({
      instalments: [
        { due_date: "2026-12-01", amount: "-40.50" },
        { due_date: "2027-01-01", amount: "-59.50" },
      ],
    });
  });
});

describe("a forecast line", () => {
  const rules = budgetLineRules(t);
  const line = (v: Partial<BudgetLineValues>): BudgetLineValues => ({
    category: "nominas",
    description: "",
    date: "2026-12-28",
    amount: "-18.500,00",
    recurrence: "monthly",
    until: "2027-12-31",
    bank_account_id: null,
    ...v,
  });

  it("takes a signed, non-zero amount and an end not before its first date", () => {
    expect(rules.amount("-18.500,00")).toBeNull();
    expect(rules.amount("0")).toBe("treasuryPages.badSignedAmount");
    // "18.500" is ambiguous (three decimals or a thousands dot): refused rather than guessed.
    expect(rules.amount("-18.500")).toBe("treasuryPages.badSignedAmount");
    expect(rules.category("  ")).toBe("auth.required");
    expect(rules.until("2026-01-01", line({}))).toBe("treasuryPages.untilBeforeDate");
    expect(rules.until("2026-01-01", line({ recurrence: "none" }))).toBeNull();
    expect(rules.until("", line({}))).toBeNull();
  });

  it("drops until from a one-off line and keeps it on a recurring one", () => {
    expect(budgetLineBody(line({ recurrence: "none" }))).toMatchObject({ until: null, amount: "-18500.00" });
    expect(budgetLineBody(line({ category: " alquiler " }))).toMatchObject({
      category: "alquiler",
      until: "2027-12-31",
      recurrence: "monthly",
    });
  });
});
