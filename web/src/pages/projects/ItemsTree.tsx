import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Modal,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { useDisclosure } from "@mantine/hooks";
import { IconChevronDown, IconChevronRight, IconPlus, IconRuler2 } from "@tabler/icons-react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { unwrap, v1 } from "../../api/client";
import type { Budget, ItemNode } from "../../api/types";
import { notifyError, notifySuccess } from "../../components/notify";
import { QueryState } from "../../components/states";
import { formatMoney, formatNumber } from "../../i18n";
import { ItemDrawer } from "./ItemDrawer";
import { useBudgetRefresh } from "./refresh";

interface Row {
  node: ItemNode;
  depth: number;
}

/** The rows of the tree in order, skipping what collapsed chapters hold. */
export function flatten(nodes: ItemNode[], collapsed: Set<string>, depth = 0, out: Row[] = []): Row[] {
  for (const node of nodes) {
    out.push({ node, depth });
    if (node.children?.length && !collapsed.has(node.id)) flatten(node.children, collapsed, depth + 1, out);
  }
  return out;
}

function chapters(nodes: ItemNode[], out: ItemNode[] = []): ItemNode[] {
  for (const n of nodes) {
    if (n.kind === "chapter") {
      out.push(n);
      chapters(n.children ?? [], out);
    }
  }
  return out;
}

export function useItemsTree(budgetId: string) {
  return useQuery({
    queryKey: ["budget-items", budgetId],
    queryFn: async () =>
      unwrap(
        await v1.GET("/api/v1/budget-items", {
          params: { query: { budget_id: budgetId, tree: "1", limit: 1000 } },
        }),
      ).data as ItemNode[],
  });
}

/** The budget's chapters and items; quantities and prices are edited in place while the budget is a draft. */
export function ItemsTree({ budget, editable }: { budget: Budget; editable: boolean }) {
  const { t } = useTranslation();
  const items = useItemsTree(budget.id);
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const [adding, addModal] = useDisclosure(false);
  const [detailOf, setDetailOf] = useState<string | null>(null);
  const rows = useMemo(() => flatten(items.data ?? [], collapsed), [items.data, collapsed]);
  const toggle = (id: string) =>
    setCollapsed((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <Stack gap="sm">
      {!editable && budget.estado !== "borrador" && (
        <Text size="xs" c="dimmed">
          {t("budgets.readOnly")}
        </Text>
      )}
      {editable && (
        <Group>
          <Button leftSection={<IconPlus size={14} />} onClick={addModal.open}>
            {t("budgets.addItem")}
          </Button>
        </Group>
      )}
      <Paper withBorder>
        <QueryState query={items} isEmpty={(d) => d.length === 0}>
          {() => (
            <Table.ScrollContainer minWidth={760}>
              <Table highlightOnHover withColumnBorders={false}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th w={160}>{t("common.code")}</Table.Th>
                    <Table.Th>{t("common.description")}</Table.Th>
                    <Table.Th w={60}>{t("budgets.unit")}</Table.Th>
                    <Table.Th w={120} ta="right">
                      {t("budgets.quantity")}
                    </Table.Th>
                    <Table.Th w={120} ta="right">
                      {t("budgets.price")}
                    </Table.Th>
                    <Table.Th w={130} ta="right">
                      {t("budgets.amount")}
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map(({ node, depth }) => (
                    <ItemRow
                      key={node.id}
                      node={node}
                      depth={depth}
                      editable={editable}
                      collapsed={collapsed.has(node.id)}
                      onToggle={() => toggle(node.id)}
                      budgetId={budget.id}
                      onDetail={() => setDetailOf(node.id)}
                    />
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </QueryState>
      </Paper>
      <ItemDrawer itemId={detailOf} editable={editable} onClose={() => setDetailOf(null)} />
      <Modal opened={adding} onClose={addModal.close} title={t("budgets.addItem")} size="lg">
        <NewItemForm budgetId={budget.id} chapters={chapters(items.data ?? [])} onDone={addModal.close} />
      </Modal>
    </Stack>
  );
}

function ItemRow(props: {
  node: ItemNode;
  depth: number;
  editable: boolean;
  collapsed: boolean;
  onToggle: () => void;
  budgetId: string;
  onDetail: () => void;
}) {
  const { node, depth, editable } = props;
  const { t } = useTranslation();
  const chapter = node.kind === "chapter";
  return (
    <Table.Tr bg={chapter ? "gray.0" : undefined} fw={chapter ? 600 : undefined}>
      <Table.Td ff="monospace" style={{ paddingLeft: 8 + depth * 16 }}>
        <Group gap={4} wrap="nowrap">
          {chapter && (node.children?.length ?? 0) > 0 ? (
            <ActionIcon
              variant="subtle"
              size="xs"
              onClick={props.onToggle}
              aria-label={`${node.code} ${props.collapsed ? "+" : "-"}`}
              aria-expanded={!props.collapsed}
            >
              {props.collapsed ? <IconChevronRight size={12} /> : <IconChevronDown size={12} />}
            </ActionIcon>
          ) : chapter ? (
            <span style={{ width: 18 }} />
          ) : (
            <ActionIcon
              variant="subtle"
              size="xs"
              onClick={props.onDetail}
              aria-label={`${t("projectsEdit.detail")} ${node.code}`}
              title={t("projectsEdit.detail")}
            >
              <IconRuler2 size={12} />
            </ActionIcon>
          )}
          {node.code}
        </Group>
      </Table.Td>
      <Table.Td>{node.summary}</Table.Td>
      <Table.Td>{node.unit}</Table.Td>
      {chapter ? (
        <>
          <Table.Td />
          <Table.Td />
        </>
      ) : (
        <>
          <Table.Td ta="right" ff="monospace">
            {editable ? (
              <InlineAmount
                key={node.quantity}
                itemId={node.id}
                budgetId={props.budgetId}
                field="quantity"
                value={node.quantity ?? "0"}
                label={`${t("budgets.quantity")} ${node.code}`}
              />
            ) : (
              formatNumber(node.quantity, 2)
            )}
          </Table.Td>
          <Table.Td ta="right" ff="monospace">
            {editable ? (
              <InlineAmount
                key={node.unit_price}
                itemId={node.id}
                budgetId={props.budgetId}
                field="unit_price"
                value={node.unit_price ?? "0"}
                label={`${t("budgets.price")} ${node.code}`}
              />
            ) : (
              formatNumber(node.unit_price, 2)
            )}
          </Table.Td>
        </>
      )}
      <Table.Td ta="right" ff="monospace">
        {formatMoney(node.amount)}
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * A cell that saves on Enter or when it loses focus; Escape puts the stored value back. Keyed by the
 * stored value, so a change made elsewhere (measurement lines, a shared concept) shows here.
 */
function InlineAmount(props: {
  itemId: string;
  budgetId: string;
  field: "quantity" | "unit_price";
  value: string;
  label: string;
}) {
  const { t } = useTranslation();
  const refresh = useBudgetRefresh(props.budgetId);
  const [text, setText] = useState(props.value);
  const save = useMutation({
    mutationFn: async (value: string) =>
      unwrap(
        await v1.PUT("/api/v1/budget-items/{id}", {
          params: { path: { id: props.itemId } },
          body: { [props.field]: value },
        }),
      ),
    onSuccess: (saved) => {
      // A price belongs to the concept: say so when it changed more than this row.
      if (props.field === "unit_price" && saved.concept.placements > 1)
        notifySuccess(t("projectsEdit.priceChangedIn", { count: saved.concept.placements }));
      refresh();
    },
    onError: (err) => {
      setText(props.value);
      notifyError(err);
    },
  });
  const commit = () => {
    const normalized = text.trim().replace(",", ".");
    if (normalized !== props.value && normalized !== "") save.mutate(normalized);
  };
  return (
    <TextInput
      size="xs"
      aria-label={props.label}
      value={text}
      onChange={(e) => setText(e.currentTarget.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === "Enter") e.currentTarget.blur();
        if (e.key === "Escape") setText(props.value);
      }}
      styles={{ input: { textAlign: "right", fontFamily: "var(--mantine-font-family-monospace)" } }}
      disabled={save.isPending}
    />
  );
}

function NewItemForm({
  budgetId,
  chapters,
  onDone,
}: {
  budgetId: string;
  chapters: ItemNode[];
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const refresh = useBudgetRefresh(budgetId);
  const form = useForm({
    initialValues: {
      kind: "item" as "chapter" | "item",
      parent_id: chapters[0]?.id ?? "",
      code: "",
      summary: "",
      unit: "m2",
      quantity: "1",
      unit_price: "0",
    },
    validate: {
      code: (v) => (v.trim() ? null : t("auth.required")),
      summary: (v) => (v.trim() ? null : t("auth.required")),
    },
  });
  const create = useMutation({
    mutationFn: async (v: typeof form.values) =>
      unwrap(
        await v1.POST("/api/v1/budget-items", {
          body:
            v.kind === "chapter"
              ? {
                  budget_id: budgetId,
                  kind: "chapter",
                  code: v.code.trim(),
                  summary: v.summary.trim(),
                  parent_id: v.parent_id || null,
                }
              : {
                  budget_id: budgetId,
                  kind: "item",
                  code: v.code.trim(),
                  summary: v.summary.trim(),
                  unit: v.unit.trim(),
                  quantity: v.quantity.replace(",", "."),
                  unit_price: v.unit_price.replace(",", "."),
                  parent_id: v.parent_id || null,
                },
        }),
      ),
    onSuccess: () => {
      refresh();
      form.setValues({ code: "", summary: "" });
    },
    onError: notifyError,
  });
  return (
    <form onSubmit={form.onSubmit((v) => create.mutate(v))}>
      <Stack gap="sm">
        <SegmentedControl
          size="xs"
          data={[
            { value: "item", label: t("budgets.item") },
            { value: "chapter", label: t("budgets.chapter") },
          ]}
          {...form.getInputProps("kind")}
        />
        <Select
          label={t("budgets.chapter")}
          clearable
          data={chapters.map((c) => ({ value: c.id, label: `${c.code} ${c.summary}` }))}
          {...form.getInputProps("parent_id")}
        />
        <SimpleGrid cols={2}>
          <TextInput label={t("common.code")} required {...form.getInputProps("code")} />
          <TextInput label={t("common.description")} required {...form.getInputProps("summary")} />
        </SimpleGrid>
        {form.values.kind === "item" && (
          <SimpleGrid cols={3}>
            <TextInput label={t("budgets.unit")} {...form.getInputProps("unit")} />
            <TextInput label={t("budgets.quantity")} {...form.getInputProps("quantity")} />
            <TextInput label={t("budgets.price")} {...form.getInputProps("unit_price")} />
          </SimpleGrid>
        )}
        {create.isSuccess && (
          <Alert color="teal" py={6}>
            {t("common.saved")}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t("common.close")}
          </Button>
          <Button type="submit" loading={create.isPending}>
            {t("common.create")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
