import { useMutation, useQueryClient } from "@tanstack/react-query";
import { unwrap, v1 } from "../../api/client";
import type { paths } from "../../api/generated/api-v1";
import type { BudgetItem } from "../../api/types";
import { notifyError, notifySuccess } from "../../components/notify";

/** After an item changes: its tree, detail, the budget's totals and what is computed from amounts. */
export function useBudgetRefresh(budgetId: string) {
  const client = useQueryClient();
  return () => {
    for (const key of ["budget-items", "budget-item", "budgets", "activities", "cost-summary"])
      void client.invalidateQueries({ queryKey: key === "budget-item" ? [key] : [key, budgetId] });
  };
}

type ItemUpdate = paths["/api/v1/budget-items/{id}"]["put"]["requestBody"]["content"]["application/json"];

/** Saves part of an item; on success says `message(saved)`, runs `onSaved` and refreshes the budget. */
export function useItemSave(
  item: Pick<BudgetItem, "id" | "budget_id">,
  message: (saved: BudgetItem) => string,
  onSaved: () => void,
) {
  const refresh = useBudgetRefresh(item.budget_id);
  return useMutation({
    mutationFn: async (body: ItemUpdate) =>
      unwrap(await v1.PUT("/api/v1/budget-items/{id}", { params: { path: { id: item.id } }, body })),
    onSuccess: (saved) => {
      notifySuccess(message(saved));
      onSaved();
      refresh();
    },
    onError: notifyError,
  });
}
