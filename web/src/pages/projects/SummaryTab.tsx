import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { unwrap, v1 } from "../../api/client";
import type { Budget } from "../../api/types";
import { MoneyChart } from "../../components/MoneyChart";
import { QueryState } from "../../components/states";

/** Budgeted vs certified vs actual cost per chapter, as a chart and a table. */
export function SummaryTab({ budget }: { budget: Budget }) {
  const { t } = useTranslation();
  const summary = useQuery({
    queryKey: ["cost-summary", budget.id],
    queryFn: async () =>
      unwrap(await v1.GET("/api/v1/accounting/summary", { params: { query: { budget_id: budget.id } } })),
  });
  return (
    <QueryState query={summary} isEmpty={(s) => s.chapters.length === 0}>
      {(s) => (
        <MoneyChart
          categoryHeader={t("budgets.chapter")}
          series={[
            { key: "budgeted", name: t("budgets.budgeted"), color: "#4c6ef5" },
            { key: "certified", name: t("budgets.certified"), color: "#12b886" },
            { key: "actual", name: t("budgets.actual"), color: "#fa5252" },
          ]}
          rows={s.chapters.map((c) => ({
            id: c.id,
            category: c.code,
            label: `${c.code} ${c.summary}`,
            values: { budgeted: c.budgeted, certified: c.certified, actual: c.actual_cost },
          }))}
          totals={{
            budgeted: s.totals.budgeted,
            certified: s.totals.certified,
            actual: s.totals.actual_cost,
          }}
        />
      )}
    </QueryState>
  );
}
