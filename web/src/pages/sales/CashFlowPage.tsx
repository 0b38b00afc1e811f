import { SegmentedControl, SimpleGrid } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import Decimal from "decimal.js";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "../../api/client";
import { useCompany } from "../../auth/session";
import { Figure } from "../../components/Figure";
import { MoneyChart } from "../../components/MoneyChart";
import { PageHeader } from "../../components/PageHeader";
import { QueryState } from "../../components/states";
import { formatMoney } from "../../i18n";

const total = (amounts: string[]) => amounts.reduce((s, a) => s.plus(a), new Decimal(0)).toFixed(2);

export function CashFlowPage() {
  const { t } = useTranslation();
  const { companyId } = useCompany();
  const [granularity, setGranularity] = useState<"week" | "month">("month");
  const flow = useQuery({
    queryKey: ["cash-flow", companyId, granularity],
    enabled: Boolean(companyId),
    queryFn: async () =>
      unwrap(
        await api.GET("/api/treasury/cash-flow", {
          params: { query: { company_id: companyId ?? undefined, granularity } },
        }),
      ),
  });
  return (
    <>
      <PageHeader
        title={t("treasury.cashFlow")}
        actions={
          <SegmentedControl
            size="xs"
            value={granularity}
            onChange={(v) => setGranularity(v as "week" | "month")}
            data={[
              { value: "week", label: t("treasury.week") },
              { value: "month", label: t("treasury.month") },
            ]}
          />
        }
      />
      <QueryState query={flow}>
        {(f) => {
          const inflows = total(f.buckets.map((b) => b.inflows.total));
          const outflows = total(f.buckets.map((b) => b.outflows.total));
          return (
            <>
              <SimpleGrid cols={{ base: 2, md: 4 }} mb="sm">
                {(
                  [
                    ["treasury.balance", f.opening],
                    ["treasury.inflows", inflows],
                    ["treasury.outflows", outflows],
                    ["common.total", f.closing],
                  ] as const
                ).map(([label, v]) => (
                  <Figure key={label} label={t(label)} value={formatMoney(v)} />
                ))}
              </SimpleGrid>
              <MoneyChart
                height={360}
                categoryHeader={t("charts.period")}
                series={[
                  { key: "inflows", name: t("treasury.inflows"), color: "#12b886" },
                  { key: "outflows", name: t("treasury.outflows"), color: "#fa5252" },
                  { key: "closing", name: t("treasury.balance"), color: "#4c6ef5", kind: "line" },
                ]}
                rows={f.buckets.map((b) => ({
                  id: b.label,
                  category: b.label,
                  values: {
                    inflows: b.inflows.total,
                    outflows: new Decimal(b.outflows.total).negated().toFixed(2),
                    closing: b.closing,
                  },
                }))}
                totals={{ inflows, outflows: new Decimal(outflows).negated().toFixed(2), closing: f.closing }}
              />
            </>
          );
        }}
      </QueryState>
    </>
  );
}
