import { Alert, Drawer, Group, List, SimpleGrid, Stack, Tabs, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { unwrap, v1 } from "../../api/client";
import type { BudgetItem } from "../../api/types";
import { Figure } from "../../components/Figure";
import { QueryState } from "../../components/states";
import { formatMoney, formatNumber } from "../../i18n";
import { DecompositionEditor } from "./DecompositionEditor";
import { MeasurementsEditor } from "./MeasurementsEditor";

export function useBudgetItem(id: string | null) {
  return useQuery({
    queryKey: ["budget-item", id],
    enabled: id !== null,
    queryFn: async () =>
      unwrap(await v1.GET("/api/v1/budget-items/{id}", { params: { path: { id: id as string } } })),
  });
}

/** An item's measurement lines and decomposition, and the other places its concept is used. */
export function ItemDrawer({
  itemId,
  editable,
  onClose,
}: {
  itemId: string | null;
  editable: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const item = useBudgetItem(itemId);
  return (
    <Drawer
      opened={itemId !== null}
      onClose={onClose}
      position="right"
      size={1080}
      title={item.data ? `${item.data.code} ${item.data.summary}` : t("projectsEdit.detail")}
      closeButtonProps={{ "aria-label": t("common.close") }}
    >
      {itemId && <QueryState query={item}>{(it) => <ItemDetail item={it} editable={editable} />}</QueryState>}
    </Drawer>
  );
}

function ItemDetail({ item, editable }: { item: BudgetItem; editable: boolean }) {
  const { t } = useTranslation();
  const others = item.other_placements;
  return (
    <Stack gap="md">
      <SimpleGrid cols={3} spacing="sm">
        <Figure label={`${t("budgets.quantity")} (${item.unit})`} value={formatNumber(item.quantity, 3)} />
        <Figure label={t("budgets.price")} value={formatNumber(item.unit_price, 4)} />
        <Figure label={t("budgets.amount")} value={formatMoney(item.amount)} testId="item-amount" />
      </SimpleGrid>
      {others.length > 0 && (
        <Alert color="blue" title={t("projectsEdit.usedIn", { count: item.concept.placements })}>
          <List size="sm">
            {others.map((p) => (
              <List.Item key={p.id}>
                <Group gap="xs">
                  <Text span size="sm" ff="monospace">
                    {p.parent_code ?? t("projectsEdit.topLevel")}
                  </Text>
                  <Text span size="sm">
                    {formatNumber(p.quantity, 3)} {item.unit} · {formatMoney(p.amount)}
                  </Text>
                </Group>
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
      {!editable && (
        <Text size="xs" c="dimmed">
          {t("budgets.readOnly")}
        </Text>
      )}
      <Tabs defaultValue="measurements" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="measurements">
            {t("projectsEdit.measurements")} ({item.measurements.length})
          </Tabs.Tab>
          <Tabs.Tab value="decomposition">
            {t("projectsEdit.decomposition")} ({item.decomposition.length})
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="measurements" pt="sm">
          <MeasurementsEditor key={JSON.stringify(item.measurements)} item={item} editable={editable} />
        </Tabs.Panel>
        <Tabs.Panel value="decomposition" pt="sm">
          <DecompositionEditor key={JSON.stringify(item.decomposition)} item={item} editable={editable} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
