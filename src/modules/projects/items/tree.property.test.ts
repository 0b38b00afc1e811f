import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { dec, sum, toMoney } from "../../../platform/money.js";
import { createBudget, createItem, getBudget } from "../budgets/test-support.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

type Spec = { kind: "item"; quantity: string; unitPrice: string } | { kind: "chapter"; children: Spec[] };

const decimal = (maxInt: number, decimals: number) =>
  fc
    .tuple(fc.integer({ min: 0, max: maxInt }), fc.integer({ min: 0, max: 10 ** decimals - 1 }), fc.boolean())
    .map(
      ([int, frac, negative]) =>
        `${negative && int + frac > 0 ? "-" : ""}${int}.${String(frac).padStart(decimals, "0")}`,
    );
const itemSpec: fc.Arbitrary<Spec> = fc.record({
  kind: fc.constant("item" as const),
  quantity: decimal(99_999, 3),
  unitPrice: decimal(9_999, 4),
});
/** Depth 3 at most: a chapter at level 3 can only be empty. */
const nodeSpec = (level: number): fc.Arbitrary<Spec> =>
  level >= 3
    ? fc.oneof(itemSpec, fc.constant<Spec>({ kind: "chapter", children: [] }))
    : fc.oneof(
        { weight: 2, arbitrary: itemSpec },
        {
          weight: 1,
          arbitrary: fc
            .array(nodeSpec(level + 1), { maxLength: 3 })
            .map((children): Spec => ({ kind: "chapter", children })),
        },
      );
const forest = fc.array(nodeSpec(1), { minLength: 1, maxLength: 4 });

async function build(budgetId: string, specs: Spec[], parentId: string | null): Promise<void> {
  for (const spec of specs) {
    if (spec.kind === "item") {
      await createItem(t, t.adminToken, {
        budget_id: budgetId,
        parent_id: parentId,
        quantity: spec.quantity,
        unit_price: spec.unitPrice,
      });
    } else {
      const chapter = await createItem(t, t.adminToken, {
        budget_id: budgetId,
        kind: "chapter",
        parent_id: parentId,
      });
      await build(budgetId, spec.children, chapter.id);
    }
  }
}

const leafAmounts = (specs: Spec[]): string[] =>
  specs.flatMap((s) =>
    s.kind === "item" ? [toMoney(dec(s.quantity).times(s.unitPrice))] : leafAmounts(s.children),
  );

type Node = { kind: string; amount: string; children: Node[] };
/** Every chapter's amount equals the sum of its children's; returns the leaf amounts in order. */
function checkChapters(nodes: Node[]): string[] {
  return nodes.flatMap((n) => {
    if (n.kind === "item") return [n.amount];
    expect(dec(n.amount).equals(sum(n.children.map((c) => c.amount)))).toBe(true);
    return checkChapters(n.children);
  });
}

describe("budget tree property", () => {
  it("pem = sum of leaf amounts and each chapter amount = sum of its children, for random trees", async () => {
    await fc.assert(
      fc.asyncProperty(forest, async (specs) => {
        const budget = await createBudget(t, t.adminToken);
        await build(budget.id, specs, null);
        const expectedLeaves = leafAmounts(specs);
        const { pem } = await getBudget(t, t.adminToken, budget.id);
        expect(pem).toBe(toMoney(sum(expectedLeaves)));
        const res = await t.as(t.adminToken, {
          method: "GET",
          url: `/api/v1/budget-items?budget_id=${budget.id}&tree=true&limit=1000`,
        });
        const leaves = checkChapters(res.json().data);
        expect(leaves).toEqual(expectedLeaves);
        expect(toMoney(sum(leaves))).toBe(pem);
      }),
      { numRuns: 15 },
    );
  });
});
