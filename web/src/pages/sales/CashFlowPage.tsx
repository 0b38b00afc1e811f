import { Paper, SegmentedControl, SimpleGrid, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { api, unwrap } from "../../api/client";
import { useCompany } from "../../auth/session";
import { PageHeader } from "../../components/PageHeader";
import { QueryState } from "../../components/states";
import { formatMoney } from "../../i18n";

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
        {(f) => (
          <>
            <SimpleGrid cols={{ base: 2, md: 4 }} mb="sm">
              {(
                [
                  ["treasury.balance", f.opening],
                  ["treasury.inflows", String(f.buckets.reduce((s, b) => s + Number(b.inflows.total), 0))],
                  ["treasury.outflows", String(f.buckets.reduce((s, b) => s + Number(b.outflows.total), 0))],
                  ["common.total", f.closing],
                ] as const
              ).map(([label, v]) => (
                <Paper withBorder p="sm" key={label}>
                  <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                    {t(label)}
                  </Text>
                  <Text ff="monospace" fw={600}>
                    {formatMoney(v)}
                  </Text>
                </Paper>
              ))}
            </SimpleGrid>
            <Paper withBorder p="sm" h={360}>
              <ResponsiveContainer width="100%" height="100%">
                <ComposedChart
                  data={f.buckets.map((b) => ({
                    label: b.label,
                    inflows: Number(b.inflows.total),
                    outflows: -Number(b.outflows.total),
                    closing: Number(b.closing),
                  }))}
                >
                  <CartesianGrid strokeDasharray="3 3" vertical={false} />
                  <XAxis dataKey="label" fontSize={11} />
                  <YAxis
                    fontSize={11}
                    tickFormatter={(v: number) =>
                      new Intl.NumberFormat("es-ES", { notation: "compact" }).format(v)
                    }
                  />
                  <Tooltip formatter={(v) => formatMoney(Number(v))} />
                  <Legend />
                  <Bar
                    isAnimationActive={false}
                    dataKey="inflows"
                    name={t("treasury.inflows")}
                    fill="#12b886"
                  />
                  <Bar
                    isAnimationActive={false}
                    dataKey="outflows"
                    name={t("treasury.outflows")}
                    fill="#fa5252"
                  />
                  <Line
                    isAnimationActive={false}
                    dataKey="closing"
                    name={t("treasury.balance")}
                    stroke="#4c6ef5"
                    strokeWidth={2}
                    dot={false}
                  />
                </ComposedChart>
              </ResponsiveContainer>
            </Paper>
          </>
        )}
      </QueryState>
    </>
  );
}
