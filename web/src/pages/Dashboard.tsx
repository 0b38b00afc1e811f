import { Badge, Paper, SimpleGrid, Table, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import { unwrap, v1 } from "../api/client";
import { BUDGET_STATE_COLOR } from "../api/types";
import { useCan, useMe } from "../auth/session";
import { PageHeader } from "../components/PageHeader";
import { QueryState } from "../components/states";
import { formatMoney } from "../i18n";

export function Dashboard() {
  const { t } = useTranslation();
  const me = useMe();
  const canBudgets = useCan("budgets:leer");
  const budgets = useQuery({
    queryKey: ["budgets", "dashboard"],
    enabled: canBudgets,
    queryFn: async () => unwrap(await v1.GET("/api/v1/budgets", { params: { query: { limit: 200 } } })),
  });
  const all = budgets.data?.data ?? [];
  const running = all.filter((b) => b.estado === "en_ejecucion");
  const total = all.filter((b) => b.estado !== "cancelado").reduce((s, b) => s + Number(b.total), 0);
  return (
    <div data-testid="dashboard">
      <PageHeader title={t("dashboard.title")} subtitle={me.data?.full_name || me.data?.email} />
      {canBudgets && (
        <>
          <SimpleGrid cols={{ base: 1, sm: 3 }} mb="md">
            <Kpi label={t("dashboard.budgets")} value={String(budgets.data?.total ?? "—")} />
            <Kpi label={t("dashboard.inProgress")} value={String(running.length)} />
            <Kpi label={t("dashboard.totalBudgeted")} value={formatMoney(total)} />
          </SimpleGrid>
          <Paper withBorder>
            <Text fw={600} p="sm">
              {t("dashboard.recentBudgets")}
            </Text>
            <QueryState query={budgets} isEmpty={(d) => d.data.length === 0}>
              {(d) => (
                <Table striped highlightOnHover>
                  <Table.Tbody>
                    {d.data.slice(0, 8).map((b) => (
                      <Table.Tr key={b.id}>
                        <Table.Td ff="monospace" w={120}>
                          {b.code}
                        </Table.Td>
                        <Table.Td>
                          <Link
                            className="cell-link"
                            to="/projects/budgets/$budgetId"
                            params={{ budgetId: b.id }}
                          >
                            {b.name}
                          </Link>
                        </Table.Td>
                        <Table.Td>
                          <Badge color={BUDGET_STATE_COLOR[b.estado]}>
                            {t(`budgets.estado.${b.estado}`)}
                          </Badge>
                        </Table.Td>
                        <Table.Td ta="right" ff="monospace">
                          {formatMoney(b.total)}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
            </QueryState>
          </Paper>
        </>
      )}
    </div>
  );
}

function Kpi({ label, value }: { label: string; value: string }) {
  return (
    <Paper withBorder p="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz={22} fw={700} ff="monospace">
        {value}
      </Text>
    </Paper>
  );
}
