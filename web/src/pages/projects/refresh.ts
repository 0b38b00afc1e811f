import { useQueryClient } from "@tanstack/react-query";

/** After an item changes: its tree, detail, the budget's totals and what is computed from amounts. */
export function useBudgetRefresh(budgetId: string) {
  const client = useQueryClient();
  return () => {
    for (const key of ["budget-items", "budget-item", "budgets", "activities", "cost-summary"])
      void client.invalidateQueries({ queryKey: key === "budget-item" ? [key] : [key, budgetId] });
  };
}
