import { describe, expect, it } from "vitest";
import { contractBody, contractRules, issueBody, issueRules } from "./contract";

const t = (key: string) => key;
const contract = {
  owner_address: " C/ Mayor 1 ",
  site_address: "",
  contract_amount: "",
  file_number: "EXP-7",
  site_manager_name: "",
  contractor_signatory: "",
  owner_signatory: "",
};

describe("a budget's contract data", () => {
  it("takes an empty contract amount as not set (null), never as zero", () => {
    expect(contractBody(contract).contract_amount).toBeNull();
    expect(contractBody({ ...contract, contract_amount: "250.000,00" }).contract_amount).toBe("250000.00");
    expect(contractBody({ ...contract, contract_amount: "0" }).contract_amount).toBe("0");
    expect(contractBody(contract).owner_address).toBe("C/ Mayor 1");
  });

  it("refuses an amount that is not a non-negative decimal and texts longer than the document prints", () => {
    const rules = contractRules(t);
    expect(rules.contract_amount("-1")).toBe("records.badPrice");
    expect(rules.contract_amount("1.5e3")).toBe("records.badPrice");
    expect(rules.contract_amount("")).toBeNull();
    expect(rules.file_number("X".repeat(51))).toBe("masters.tooLong");
    expect(rules.owner_signatory("X".repeat(200))).toBeNull();
  });
});

describe("a certification's issue data", () => {
  const rules = issueRules(t, "2026-03-01");

  it("refuses an issue date before the period and a retention outside 0..100", () => {
    expect(rules.issue_date("2026-02-28")).toBe("records.beforePeriod");
    expect(rules.issue_date("2026-03-01")).toBeNull();
    expect(rules.issue_date("")).toBeNull();
    expect(rules.issue_date("1/3/2026")).toBe("records.badDate");
    expect(rules.retention_pct("101")).toBe("masters.badPercent");
    expect(rules.retention_pct("5,5")).toBeNull();
    expect(rules.retention_pct("")).toBeNull();
    expect(rules.issue_place("M".repeat(101))).toBe("masters.tooLong");
  });

  it("sends the retention only while it may change, an empty one as the budget's (null)", () => {
    const v = { issue_place: " Madrid ", issue_date: "", retention_pct: "" };
    expect(issueBody(v, true)).toEqual({ issue_place: "Madrid", issue_date: null, retention_pct: null });
    expect(issueBody({ ...v, retention_pct: "2,5" }, true).retention_pct).toBe("2.50");
    expect(issueBody({ ...v, retention_pct: "2,5" }, false)).not.toHaveProperty("retention_pct");
  });
});
