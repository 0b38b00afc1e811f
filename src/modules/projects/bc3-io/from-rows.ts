import { toQuantity, toUnitPrice } from "../../../platform/money.js";
import type { Bc3Budget, Bc3Charset, Bc3Node } from "../bc3/types.js";
import type { BudgetRow } from "../budget-access.js";
import type { LoadedTree } from "../items/bulk.js";
import type { ItemRow } from "../items/repository.js";
import { nest, type TreeNode } from "../items/tree.js";

/**
 * The BC3 model of a stored budget. A chapter is written once (factor 1, yield 1) at the price of the sum
 * of its children, which is what BC3 readers expect; items keep their quantity, price and lines.
 */
export function bc3FromTree(
  budget: BudgetRow,
  tree: LoadedTree,
  amounts: Map<string, string>,
  charset: Bc3Charset,
): Bc3Budget {
  const toNode = ({ node: row, children }: TreeNode<ItemRow>): Bc3Node => {
    const chapter = row.kind === "chapter";
    return {
      code: row.code,
      kind: chapter ? "chapter" : "item",
      unit: row.unit,
      summary: row.summary,
      longText: row.longText,
      quantity: chapter ? "1.000" : toQuantity(row.quantity),
      unitPrice: toUnitPrice(chapter ? (amounts.get(row.id) ?? "0") : row.unitPrice),
      measurements: chapter
        ? []
        : (tree.measurements.get(row.id) ?? []).map((m) => ({
            label: m.label,
            units: m.units,
            length: m.length,
            width: m.width,
            height: m.height,
          })),
      decomposition: chapter
        ? []
        : (tree.decomposition.get(row.conceptId) ?? []).map((d) => ({
            type: d.type,
            code: d.code,
            unit: d.unit,
            summary: d.summary,
            yield: d.yield,
            price: toUnitPrice(d.price),
          })),
      children: children.map(toNode),
    };
  };
  const decimals = budget.decimals ?? {};
  return {
    code: budget.code,
    name: budget.name,
    charset,
    coefficients: {
      indirectPct: budget.indirectCostsPct,
      overheadsPct: budget.overheadsPct,
      profitPct: budget.profitPct,
      discountPct: budget.discountPct,
      vatPct: budget.vatPct,
      decimals: {
        quantity: decimals.quantity ?? 3,
        yield: decimals.yield ?? 6,
        line: decimals.line ?? 4,
        price: decimals.price ?? 4,
        amount: decimals.amount ?? 2,
      },
    },
    root: { code: budget.code, summary: budget.name, children: nest(tree.items).map(toNode) },
  };
}
