import { describe, expect, it } from "vitest";
import {
  type MatchDue,
  type MatchMovement,
  normalizeName,
  suggestAll,
  textKeys,
  uniqueAutoMatches,
} from "./matching.js";

const due = (over: Partial<MatchDue> & { id: string }): MatchDue => ({
  direction: "sale",
  documentCode: "FV2026-000001",
  code: "FV2026-000001/1",
  supplierNumber: null,
  dueDate: "2026-03-05",
  openAmount: "1210.00",
  contactName: "Cliente Uno, S.L.",
  contactTaxId: "B12345674",
  ...over,
});

const movement = (over: Partial<MatchMovement> & { id: string }): MatchMovement => ({
  amount: "1210.00",
  operationDate: "2026-03-06",
  valueDate: "2026-03-06",
  texts: [],
  ...over,
});

const only = (m: MatchMovement, dues: MatchDue[]) => suggestAll([m], dues).get(m.id) ?? [];

describe("matching scores (documents.md)", () => {
  it("exact open amount + invoice code + tax id + due date = 100", () => {
    const [s] = only(movement({ id: "m", texts: ["TRANSFERENCIA FV2026-000001", "B12345674"] }), [
      due({ id: "d" }),
    ]);
    expect(s).toMatchObject({ target: "receipt", dueId: "d", score: 100 });
    expect(s!.reasons.map((r) => [r.code, r.points])).toEqual([
      ["amount_exact", 40],
      ["reference", 30],
      ["tax_id", 20],
      ["due_date", 10],
    ]);
  });

  it("exact amount + name + date = 60 (a suggestion); amount only = 40 (none)", () => {
    const [s] = only(movement({ id: "m", texts: ["TRANSF DE CLIENTE UNO SL"] }), [due({ id: "d" })]);
    expect(s!.score).toBe(60);
    expect(s!.reasons.map((r) => r.code)).toEqual(["amount_exact", "name", "due_date"]);
    expect(
      only(movement({ id: "m", operationDate: "2026-04-30", valueDate: "2026-04-30" }), [due({ id: "d" })]),
    ).toEqual([]);
    expect(
      only(
        movement({ id: "m", texts: ["OTRA COSA"], operationDate: "2026-04-30", valueDate: "2026-04-30" }),
        [due({ id: "d" })],
      ),
    ).toEqual([]);
  });

  it("the due date counts within 7 days of either movement date, not at 8", () => {
    const at = (date: string) =>
      only(movement({ id: "m", operationDate: date, valueDate: date, texts: ["CLIENTE UNO"] }), [
        due({ id: "d" }),
      ])[0]?.score;
    expect(at("2026-03-12")).toBe(60);
    expect(at("2026-02-26")).toBe(60);
    expect(at("2026-03-13")).toBe(50);
  });

  it("a close amount (bank fee deducted) scores 25 and needs the code to be suggested", () => {
    const [s] = only(movement({ id: "m", amount: "1208.50", texts: ["FRA FV2026-000001"] }), [
      due({ id: "d" }),
    ]);
    expect(s!.score).toBe(65);
    expect(s!.reasons[0]).toMatchObject({ code: "amount_close", points: 25 });
    // 12.10 (1 %) is the tolerance on 1210.00; 12.11 apart is not close.
    expect(
      only(movement({ id: "m", amount: "1197.89", texts: ["FV2026-000001"] }), [due({ id: "d" })]),
    ).toEqual([]);
    expect(
      only(movement({ id: "m", amount: "1197.90", texts: ["FV2026-000001"] }), [due({ id: "d" })])[0]!.score,
    ).toBe(65);
  });

  it("debits match supplier payments by their own number; refunds match negative receipts", () => {
    const supplierDue = due({
      id: "p",
      direction: "purchase",
      documentCode: "FR2026-000007",
      supplierNumber: "A-2026/118",
      contactName: "Proveedor Dos SA",
      contactTaxId: "A87654321",
    });
    const [s] = only(
      movement({ id: "m", amount: "-1210.00", texts: ["PAGO FACT A-2026/118", "ESA87654321"] }),
      [supplierDue, due({ id: "d" })],
    );
    expect(s).toMatchObject({ target: "payment", dueId: "p", score: 100 });
    const refund = due({ id: "r", openAmount: "-50.00", documentCode: "R2026-000002" });
    expect(
      only(movement({ id: "m", amount: "-50.00", texts: ["DEVOLUCION R2026-000002"] }), [refund])[0],
    ).toMatchObject({
      target: "receipt",
      score: 80,
    });
    // A credit never matches a supplier payment of the same amount.
    expect(only(movement({ id: "m", amount: "1210.00", texts: ["A-2026/118"] }), [supplierDue])).toEqual([]);
  });

  it("finds codes split across the two halves of a record 23 or written with other separators", () => {
    expect(textKeys(["TRANSF FV2026-0000", "01"]).has("FV2026000001")).toBe(true);
    expect(textKeys(["FRA.FV2026/000001/1"]).has("FV2026000001")).toBe(true);
    expect(textKeys(["factura fv 2026 000001"]).has("FV2026000001")).toBe(false);
    expect(normalizeName("Cliente Úno, S.L.")).toBe("CLIENTE UNO");
  });
});

describe("auto-match picks", () => {
  it("applies the unique 85+ candidate only", () => {
    const dues = [due({ id: "a" }), due({ id: "b", documentCode: "FV2026-000002" })];
    const clear = movement({ id: "m1", texts: ["FV2026-000001 B12345674"] });
    const twoHigh = movement({ id: "m2", texts: ["FV2026-000001 FV2026-000002 B12345674"] });
    const sugg = suggestAll([clear, twoHigh], dues);
    expect(sugg.get("m1")!.map((s) => [s.dueId, s.score])).toEqual([
      ["a", 100],
      ["b", 70],
    ]);
    expect(sugg.get("m2")!.filter((s) => s.score >= 85)).toHaveLength(2);
    // m2 has two 85+ candidates, so it is left for a person; m1's only 85+ candidate is applied.
    expect(uniqueAutoMatches(sugg)).toEqual([{ movementId: "m1", suggestion: sugg.get("m1")![0] }]);
  });

  it("skips a due that two movements both claim", () => {
    const dues = [due({ id: "a" })];
    const sugg = suggestAll(
      [
        movement({ id: "m1", texts: ["FV2026-000001 B12345674"] }),
        movement({ id: "m2", texts: ["FV2026000001 B12345674"] }),
      ],
      dues,
    );
    expect(sugg.size).toBe(2);
    expect(uniqueAutoMatches(sugg)).toEqual([]);
  });

  it("matches 20,000 movements against 20,000 dues one to one", () => {
    const dues: MatchDue[] = [];
    const movements: MatchMovement[] = [];
    for (let i = 0; i < 20_000; i++) {
      const code = `FV2026-${String(i + 1).padStart(6, "0")}`;
      const amount = `${100 + i}.${String(i % 100).padStart(2, "0")}`;
      dues.push(
        due({
          id: `d${i}`,
          documentCode: code,
          openAmount: amount,
          contactTaxId: null,
          contactName: `Cliente ${i}`,
        }),
      );
      movements.push(
        movement({
          id: `m${i}`,
          amount,
          operationDate: "2026-03-05",
          texts: [`TRANSFERENCIA ${code}`, `CLIENTE ${i}`],
        }),
      );
    }
    const picks = uniqueAutoMatches(suggestAll(movements, dues));
    expect(picks).toHaveLength(20_000);
    expect(picks.every((p) => p.movementId.slice(1) === p.suggestion.dueId.slice(1))).toBe(true);
  });
});
