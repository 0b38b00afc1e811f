import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Menu,
  Modal,
  MultiSelect,
  Paper,
  Progress,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { useDisclosure } from "@mantine/hooks";
import { IconDots, IconPlus } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Decimal from "decimal.js";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { unwrap, v1 } from "../../api/client";
import {
  ACTIVITY_STATE_COLOR,
  ACTIVITY_TRANSITIONS,
  type Activity,
  type ActivityState,
  type Budget,
  READ_ONLY_BUDGET_STATES,
} from "../../api/types";
import { useCan } from "../../auth/session";
import { DialogForm } from "../../components/DialogForm";
import { Figure } from "../../components/Figure";
import { notifyError, notifySuccess } from "../../components/notify";
import { QueryState } from "../../components/states";
import { formatDate, formatMoney, formatNumber } from "../../i18n";
import { flatten, useItemsTree } from "./ItemsTree";
import { type ActivityValues, activityRules, decimalText } from "./rules";

const TRANSITION_LABEL: Record<ActivityState, string> = {
  pendiente: "projectsEdit.start",
  en_curso: "projectsEdit.complete",
  completada: "projectsEdit.reopen",
};

/** The budget's activities: dates, progress as bars, planned and earned value, and the items each one covers. */
export function ActivitiesTab({ budget }: { budget: Budget }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const writable = !READ_ONLY_BUDGET_STATES.includes(budget.estado);
  const canCreate = useCan("activities:crear") && writable;
  const canEdit = useCan("activities:editar") && writable;
  const canDelete = useCan("activities:eliminar") && writable;
  const [creating, createModal] = useDisclosure(false);
  const [editing, setEditing] = useState<Activity | null>(null);
  const list = useQuery({
    queryKey: ["activities", budget.id],
    queryFn: async () =>
      unwrap(
        await v1.GET("/api/v1/activities", { params: { query: { budget_id: budget.id, limit: 1000 } } }),
      ),
  });
  const people = useUserNames();
  const refresh = () => void client.invalidateQueries({ queryKey: ["activities", budget.id] });
  const changeState = useMutation({
    mutationFn: async ({ id, estado }: { id: string; estado: ActivityState }) =>
      unwrap(await v1.PUT("/api/v1/activities/{id}/estado", { params: { path: { id } }, body: { estado } })),
    onSuccess: (a) => {
      notifySuccess(`${a.code}: ${t(`projectsEdit.estado.${a.estado}`)}`);
      refresh();
    },
    onError: notifyError,
  });
  const remove = useMutation({
    mutationFn: async (id: string) =>
      unwrap(await v1.DELETE("/api/v1/activities/{id}", { params: { path: { id } } })),
    onSuccess: refresh,
    onError: notifyError,
  });

  return (
    <Stack gap="sm">
      {canCreate && (
        <Group>
          <Button leftSection={<IconPlus size={14} />} onClick={createModal.open}>
            {t("projectsEdit.newActivity")}
          </Button>
        </Group>
      )}
      <QueryState query={list} isEmpty={(d) => d.data.length === 0}>
        {(d) => (
          <>
            <Totals activities={d.data} />
            <Paper withBorder>
              <Table.ScrollContainer minWidth={1100}>
                <Table striped highlightOnHover>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th w={70}>{t("common.code")}</Table.Th>
                      <Table.Th miw={120}>{t("common.name")}</Table.Th>
                      <Table.Th>{t("projectsEdit.planned")}</Table.Th>
                      <Table.Th>{t("projectsEdit.actual")}</Table.Th>
                      <Table.Th>{t("projectsEdit.responsible")}</Table.Th>
                      <Table.Th w={120}>{t("projectsEdit.progress")}</Table.Th>
                      <Table.Th>{t("common.status")}</Table.Th>
                      <Table.Th w={100} ta="right">
                        {t("projectsEdit.plannedValue")}
                      </Table.Th>
                      <Table.Th w={100} ta="right">
                        {t("projectsEdit.earnedValue")}
                      </Table.Th>
                      <Table.Th w={60} ta="right">
                        {t("projectsEdit.items")}
                      </Table.Th>
                      <Table.Th w={48}>
                        <VisuallyHidden>{t("common.actions")}</VisuallyHidden>
                      </Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {d.data.map((a) => (
                      <Table.Tr key={a.id}>
                        <Table.Td ff="monospace">{a.code}</Table.Td>
                        <Table.Td>{a.name}</Table.Td>
                        <Table.Td>
                          <DateRange from={a.planned_start} to={a.planned_end} />
                        </Table.Td>
                        <Table.Td>
                          <DateRange from={a.actual_start} to={a.actual_end} />
                        </Table.Td>
                        <Table.Td>
                          <Text size="sm">{responsibleName(a.responsible_user_id, people.data)}</Text>
                        </Table.Td>
                        <Table.Td>
                          <Group gap="xs" wrap="nowrap">
                            <Progress
                              flex={1}
                              miw={56}
                              size="lg"
                              value={Number(a.progress_pct)}
                              color={ACTIVITY_STATE_COLOR[a.estado]}
                              aria-label={`${t("projectsEdit.progress")} ${a.code}`}
                            />
                            <Text size="xs" ff="monospace" w={40} ta="right">
                              {formatNumber(a.progress_pct, 0)} %
                            </Text>
                          </Group>
                        </Table.Td>
                        <Table.Td>
                          <Badge color={ACTIVITY_STATE_COLOR[a.estado]}>
                            {t(`projectsEdit.estado.${a.estado}`)}
                          </Badge>
                        </Table.Td>
                        <Table.Td ta="right" ff="monospace">
                          {formatMoney(a.planned_value)}
                        </Table.Td>
                        <Table.Td ta="right" ff="monospace">
                          {formatMoney(a.earned_value)}
                        </Table.Td>
                        <Table.Td ta="right">{a.budget_item_ids.length}</Table.Td>
                        <Table.Td>
                          {(canEdit || canDelete) && (
                            <Menu position="bottom-end" withinPortal>
                              <Menu.Target>
                                <ActionIcon variant="subtle" aria-label={`${t("common.actions")} ${a.code}`}>
                                  <IconDots size={16} />
                                </ActionIcon>
                              </Menu.Target>
                              <Menu.Dropdown>
                                {canEdit && (
                                  <Menu.Item onClick={() => setEditing(a)}>{t("common.edit")}</Menu.Item>
                                )}
                                {canEdit &&
                                  ACTIVITY_TRANSITIONS[a.estado].map((to) => (
                                    <Menu.Item
                                      key={to}
                                      onClick={() => changeState.mutate({ id: a.id, estado: to })}
                                    >
                                      {t(TRANSITION_LABEL[a.estado])}
                                    </Menu.Item>
                                  ))}
                                {canDelete && (
                                  <Menu.Item color="red" onClick={() => remove.mutate(a.id)}>
                                    {t("common.delete")}
                                  </Menu.Item>
                                )}
                              </Menu.Dropdown>
                            </Menu>
                          )}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            </Paper>
          </>
        )}
      </QueryState>
      <Modal opened={creating} onClose={createModal.close} title={t("projectsEdit.newActivity")} size="lg">
        <ActivityForm
          budgetId={budget.id}
          onDone={() => {
            createModal.close();
            refresh();
          }}
          onCancel={createModal.close}
        />
      </Modal>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing ? `${t("common.edit")} ${editing.code}` : ""}
        size="lg"
      >
        {editing && (
          <ActivityForm
            budgetId={budget.id}
            activity={editing}
            onDone={() => {
              setEditing(null);
              refresh();
            }}
            onCancel={() => setEditing(null)}
          />
        )}
      </Modal>
    </Stack>
  );
}

function DateRange({ from, to }: { from: string | null; to: string | null }) {
  if (!from && !to) return <Text c="dimmed">—</Text>;
  return (
    <Text size="sm" style={{ whiteSpace: "nowrap" }}>
      {formatDate(from)} → {formatDate(to)}
    </Text>
  );
}

/** Planned and earned value of the whole budget, and the progress they make together. */
function Totals({ activities }: { activities: Activity[] }) {
  const { t } = useTranslation();
  const planned = activities.reduce((s, a) => s.plus(a.planned_value), new Decimal(0));
  const earned = activities.reduce((s, a) => s.plus(a.earned_value), new Decimal(0));
  const pct = planned.isZero() ? null : earned.dividedBy(planned).times(100).toFixed(2);
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
      <Figure label={t("projectsEdit.plannedValue")} value={formatMoney(planned.toFixed(2))} />
      <Figure label={t("projectsEdit.earnedValue")} value={formatMoney(earned.toFixed(2))} />
      <Figure
        label={t("projectsEdit.overallProgress")}
        value={pct === null ? "—" : `${formatNumber(pct, 2)} %`}
      />
    </SimpleGrid>
  );
}

function ActivityForm({
  budgetId,
  activity,
  onDone,
  onCancel,
}: {
  budgetId: string;
  activity?: Activity;
  onDone: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const items = useItemsTree(budgetId);
  const people = useUserNames();
  const form = useForm<ActivityValues & { budget_item_ids: string[]; responsible_user_id: string | null }>({
    initialValues: {
      code: activity?.code ?? "",
      name: activity?.name ?? "",
      planned_start: activity?.planned_start ?? "",
      planned_end: activity?.planned_end ?? "",
      actual_start: activity?.actual_start ?? "",
      actual_end: activity?.actual_end ?? "",
      progress_pct: activity ? formatNumber(activity.progress_pct, 2) : "",
      budget_item_ids: activity?.budget_item_ids ?? [],
      responsible_user_id: activity?.responsible_user_id ?? null,
    },
    validate: activityRules(t),
  });
  const save = useMutation({
    mutationFn: async (v: typeof form.values) => {
      const progress = decimalText(v.progress_pct, 2);
      const fields = {
        code: v.code.trim(),
        name: v.name.trim(),
        planned_start: v.planned_start || null,
        planned_end: v.planned_end || null,
        actual_start: v.actual_start || null,
        actual_end: v.actual_end || null,
        budget_item_ids: v.budget_item_ids,
        ...(people.data ? { responsible_user_id: v.responsible_user_id } : {}),
        ...(progress ? { progress_pct: progress } : {}),
      };
      return activity
        ? unwrap(
            await v1.PUT("/api/v1/activities/{id}", { params: { path: { id: activity.id } }, body: fields }),
          )
        : unwrap(await v1.POST("/api/v1/activities", { body: { budget_id: budgetId, ...fields } }));
    },
    onSuccess: (a) => {
      notifySuccess(`${a.code}: ${t("common.saved")}`);
      onDone();
    },
    onError: notifyError,
  });
  const options = flatten(items.data ?? [], new Set()).map(({ node, depth }) => ({
    value: node.id,
    label: `${"· ".repeat(depth)}${node.code} ${node.summary}`,
  }));
  return (
    <DialogForm
      onSubmit={form.onSubmit((v) => save.mutate(v))}
      onCancel={onCancel}
      submitting={save.isPending}
      submitLabel={activity ? t("common.save") : t("common.create")}
    >
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <TextInput label={t("common.code")} required {...form.getInputProps("code")} />
        <TextInput
          label={t("common.name")}
          required
          style={{ gridColumn: "span 2" }}
          {...form.getInputProps("name")}
        />
      </SimpleGrid>
      <SimpleGrid cols={2}>
        <TextInput
          type="date"
          label={t("projectsEdit.plannedStart")}
          {...form.getInputProps("planned_start")}
        />
        <TextInput type="date" label={t("projectsEdit.plannedEnd")} {...form.getInputProps("planned_end")} />
        <TextInput
          type="date"
          label={t("projectsEdit.actualStart")}
          {...form.getInputProps("actual_start")}
        />
        <TextInput type="date" label={t("projectsEdit.actualEnd")} {...form.getInputProps("actual_end")} />
      </SimpleGrid>
      <TextInput
        label={t("projectsEdit.progressPct")}
        description={t("projectsEdit.progressHint")}
        inputMode="decimal"
        {...form.getInputProps("progress_pct")}
      />
      {people.data && (
        <Select
          label={t("projectsEdit.responsible")}
          placeholder={t("projectsEdit.noResponsible")}
          data={people.data.map((u) => ({ value: u.id, label: u.name }))}
          searchable
          clearable
          {...form.getInputProps("responsible_user_id")}
        />
      )}
      <MultiSelect
        label={t("projectsEdit.linkedItems")}
        description={t("projectsEdit.linkedItemsHint")}
        data={options}
        searchable
        disabled={items.isPending}
        {...form.getInputProps("budget_item_ids")}
      />
    </DialogForm>
  );
}

/**
 * The users an activity can be given to, when the signed-in user may list users (usuarios:leer);
 * otherwise undefined, and the responsible is neither shown by name nor editable.
 */
function useUserNames() {
  const { t } = useTranslation();
  const canList = useCan("usuarios:leer");
  return useQuery({
    queryKey: ["users", "names"],
    enabled: canList,
    staleTime: 60_000,
    queryFn: async () => {
      const page = unwrap(await v1.GET("/api/v1/users", { params: { query: { limit: 500 } } }));
      return page.data.map((u) => ({
        id: u.id,
        name: `${u.full_name || u.email}${u.is_active ? "" : ` (${t("common.inactive")})`}`,
      }));
    },
  });
}

function responsibleName(id: string | null, people: { id: string; name: string }[] | undefined) {
  if (!id) return "—";
  return people?.find((u) => u.id === id)?.name ?? "—";
}
