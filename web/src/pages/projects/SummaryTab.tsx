import { Paper, Stack, Table } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { unwrap, v1 } from "../../api/client";
import type { Budget } from "../../api/types";
import { QueryState } from "../../components/states";
import { formatMoney } from "../../i18n";

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
      {(s) => {
        const rows = s.chapters.map((c) => ({
          name: c.code,
          label: c.summary,
          budgeted: Number(c.budgeted),
          certified: Number(c.certified),
          actual: Number(c.actual_cost),
          raw: c,
        }));
        return (
          <Stack gap="sm">
            <Paper withBorder p="sm" h={300}>
              <ResponsiveContainer width="100%" height="100%">
                <BarChart data={rows} margin={{ left: 24 }}>
                  <CartesianGrid strokeDasharray="3 3" vertical={false} />
                  <XAxis dataKey="name" fontSize={11} />
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
                    dataKey="budgeted"
                    name={t("budgets.budgeted")}
                    fill="#4c6ef5"
                  />
                  <Bar
                    isAnimationActive={false}
                    dataKey="certified"
                    name={t("budgets.certified")}
                    fill="#12b886"
                  />
                  <Bar isAnimationActive={false} dataKey="actual" name={t("budgets.actual")} fill="#fa5252" />
                </BarChart>
              </ResponsiveContainer>
            </Paper>
            <Paper withBorder>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t("budgets.chapter")}</Table.Th>
                    <Table.Th ta="right">{t("budgets.budgeted")}</Table.Th>
                    <Table.Th ta="right">{t("budgets.certified")}</Table.Th>
                    <Table.Th ta="right">{t("budgets.actual")}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((r) => (
                    <Table.Tr key={r.raw.id}>
                      <Table.Td>
                        {r.name} {r.label}
                      </Table.Td>
                      <Table.Td ta="right" ff="monospace">
                        {formatMoney(r.raw.budgeted)}
                      </Table.Td>
                      <Table.Td ta="right" ff="monospace">
                        {formatMoney(r.raw.certified)}
                      </Table.Td>
                      <Table.Td ta="right" ff="monospace">
                        {formatMoney(r.raw.actual_cost)}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                  <Table.Tr fw={700}>
                    <Table.Td>{t("common.total")}</Table.Td>
                    <Table.Td ta="right" ff="monospace">
                      {formatMoney(s.totals.budgeted)}
                    </Table.Td>
                    <Table.Td ta="right" ff="monospace">
                      {formatMoney(s.totals.certified)}
                    </Table.Td>
                    <Table.Td ta="right" ff="monospace">
                      {formatMoney(s.totals.actual_cost)}
                    </Table.Td>
                  </Table.Tr>
                </Table.Tbody>
              </Table>
            </Paper>
          </Stack>
        );
      }}
    </QueryState>
  );
}
