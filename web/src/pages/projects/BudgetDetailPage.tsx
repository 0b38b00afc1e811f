import { Badge, Button, Group, Menu, SimpleGrid, Stack, Tabs, Text } from "@mantine/core";
import { IconChevronDown, IconCopy, IconDownload } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate, useParams } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import { download, unwrap, v1 } from "../../api/client";
import { BUDGET_STATE_COLOR, BUDGET_TRANSITIONS, type Budget, type BudgetState } from "../../api/types";
import { useMe } from "../../auth/session";
import { Figure } from "../../components/Figure";
import { notifyError, notifySuccess } from "../../components/notify";
import { PageHeader } from "../../components/PageHeader";
import { QueryState } from "../../components/states";
import { formatMoney } from "../../i18n";
import { ActivitiesTab } from "./ActivitiesTab";
import { CertificationsTab } from "./CertificationsTab";
import { ContractTab } from "./ContractTab";
import { CostsTab } from "./CostsTab";
import { ItemsTree } from "./ItemsTree";
import { SummaryTab } from "./SummaryTab";

export function BudgetDetailPage() {
  const { budgetId } = useParams({ from: "/app/projects/budgets/$budgetId" });
  const budget = useQuery({
    queryKey: ["budgets", budgetId],
    queryFn: async () =>
      unwrap(await v1.GET("/api/v1/budgets/{budget_id}", { params: { path: { budget_id: budgetId } } })),
  });
  return <QueryState query={budget}>{(b) => <BudgetDetail budget={b} />}</QueryState>;
}

function BudgetDetail({ budget }: { budget: Budget }) {
  const { t } = useTranslation();
  const me = useMe();
  const client = useQueryClient();
  const navigate = useNavigate();
  const permissions = me.data?.permissions ?? [];
  const can = (p: string) => permissions.includes(p);
  const transitions = BUDGET_TRANSITIONS[budget.estado].filter(
    (tr) => can("budgets:editar") && can(tr.permission),
  );

  const changeState = useMutation({
    mutationFn: async (estado: BudgetState) =>
      unwrap(
        await v1.PUT("/api/v1/budgets/{budget_id}/estado", {
          params: { path: { budget_id: budget.id } },
          body: { estado },
        }),
      ),
    onSuccess: (b) => {
      notifySuccess(t(`budgets.estado.${b.estado}`));
      void client.invalidateQueries({ queryKey: ["budgets"] });
    },
    onError: notifyError,
  });
  const duplicate = useMutation({
    mutationFn: async () =>
      unwrap(
        await v1.POST("/api/v1/budgets/{budget_id}/duplicate", {
          params: { path: { budget_id: budget.id } },
          body: {},
        }),
      ),
    onSuccess: (b) => {
      notifySuccess(t("budgets.duplicated"));
      void client.invalidateQueries({ queryKey: ["budgets"] });
      void navigate({ to: "/projects/budgets/$budgetId", params: { budgetId: b.id } });
    },
    onError: notifyError,
  });

  return (
    <Stack gap="md">
      <PageHeader
        title={
          <Group gap="sm">
            <Text span inherit ff="monospace" c="dimmed">
              {budget.code}
            </Text>
            {budget.name}
            <Badge color={BUDGET_STATE_COLOR[budget.estado]} size="md">
              {t(`budgets.estado.${budget.estado}`)}
            </Badge>
          </Group>
        }
        subtitle={budget.client_name}
        actions={
          <>
            <Button
              variant="default"
              leftSection={<IconDownload size={14} />}
              onClick={() =>
                download(`/api/v1/budgets/${budget.id}/export-bc3`, `${budget.code}.bc3`).catch(notifyError)
              }
            >
              {t("budgets.exportBc3")}
            </Button>
            {can("budgets:crear") && (
              <Button
                variant="default"
                leftSection={<IconCopy size={14} />}
                loading={duplicate.isPending}
                onClick={() => duplicate.mutate()}
              >
                {t("budgets.duplicate")}
              </Button>
            )}
            {transitions.length > 0 && (
              <Menu position="bottom-end" withinPortal>
                <Menu.Target>
                  <Button rightSection={<IconChevronDown size={14} />} loading={changeState.isPending}>
                    {t("budgets.changeState")}
                  </Button>
                </Menu.Target>
                <Menu.Dropdown>
                  {transitions.map((tr) => (
                    <Menu.Item key={tr.to} onClick={() => changeState.mutate(tr.to)}>
                      {t(`budgets.estado.${tr.to}`)}
                    </Menu.Item>
                  ))}
                </Menu.Dropdown>
              </Menu>
            )}
          </>
        }
      />
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm">
        <Figure label={t("budgets.pem")} value={formatMoney(budget.pem)} testId="budget-pem" />
        <Figure label={t("budgets.pec")} value={formatMoney(budget.pec)} />
        <Figure label={`${t("budgets.vat")} (${budget.vat_pct})`} value={formatMoney(budget.vat)} />
        <Figure label={t("budgets.total")} value={formatMoney(budget.total)} strong />
      </SimpleGrid>
      <Tabs defaultValue="items" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="items">{t("budgets.items")}</Tabs.Tab>
          {can("certifications:leer") && (
            <Tabs.Tab value="certifications">{t("certifications.title")}</Tabs.Tab>
          )}
          {can("activities:leer") && <Tabs.Tab value="activities">{t("projectsEdit.activities")}</Tabs.Tab>}
          <Tabs.Tab value="costs">{t("costs.title")}</Tabs.Tab>
          <Tabs.Tab value="contract">{t("contract.title")}</Tabs.Tab>
          <Tabs.Tab value="summary">{t("budgets.summary")}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="items" pt="sm">
          <ItemsTree budget={budget} editable={budget.estado === "borrador" && can("budgets:editar")} />
        </Tabs.Panel>
        <Tabs.Panel value="certifications" pt="sm">
          <CertificationsTab budget={budget} />
        </Tabs.Panel>
        <Tabs.Panel value="activities" pt="sm">
          <ActivitiesTab budget={budget} />
        </Tabs.Panel>
        <Tabs.Panel value="costs" pt="sm">
          <CostsTab budget={budget} />
        </Tabs.Panel>
        <Tabs.Panel value="contract" pt="sm">
          <ContractTab budget={budget} canEdit={can("budgets:editar")} />
        </Tabs.Panel>
        <Tabs.Panel value="summary" pt="sm">
          <SummaryTab budget={budget} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
