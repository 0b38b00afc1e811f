import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Drawer,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { IconArrowBackUp, IconCash, IconPlus, IconTrash } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import dayjs from "dayjs";
import Decimal from "decimal.js";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useCan } from "../../auth/session";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { Figure } from "../../components/Figure";
import { notifyError, notifySuccess } from "../../components/notify";
import { QueryState } from "../../components/states";
import { type SplitPart, splitBody, splitProblems } from "../../forms/treasury";
import { formatDate, formatMoney } from "../../i18n";
import {
  type Direction,
  DUE_STATUS_COLOR,
  type Due,
  type DueDetail,
  getDue,
  type Payment,
  patchDue,
  TREASURY_KEYS,
  undoPayment,
} from "./treasuryApi";

/** One instalment: its figures, its payments (undo), its due date and its split while unpaid. */
export function DueDrawer({
  direction,
  id,
  onClose,
  onPay,
}: {
  direction: Direction;
  id: string | null;
  onClose: () => void;
  onPay: (due: Due) => void;
}) {
  const { t } = useTranslation();
  return (
    <Drawer
      opened={id !== null}
      onClose={onClose}
      position="right"
      size="xl"
      title={t(direction === "sale" ? "treasuryPages.receipt" : "treasuryPages.payment")}
      closeButtonProps={{ "aria-label": t("common.close") }}
    >
      {id && <DueDetailView direction={direction} id={id} onPay={onPay} />}
    </Drawer>
  );
}

function DueDetailView({
  direction,
  id,
  onPay,
}: {
  direction: Direction;
  id: string;
  onPay: (due: Due) => void;
}) {
  const { t } = useTranslation();
  const canPay = useCan("treasury:crear");
  const canEdit = useCan("treasury:editar");
  const detail = useQuery({ queryKey: ["due", direction, id], queryFn: () => getDue(direction, id) });
  return (
    <QueryState query={detail}>
      {(d) => (
        <Stack gap="md" data-testid="due-detail">
          <Group justify="space-between">
            <Stack gap={0}>
              <Text fw={700} ff="monospace">
                {d.code}
              </Text>
              <Text size="sm">{d.contact_name}</Text>
            </Stack>
            <Group gap="xs">
              <Badge color={DUE_STATUS_COLOR[d.status]} variant="light" data-testid="due-status">
                {t(`treasuryPages.status.${d.status}`)}
              </Badge>
              {canPay && !new Decimal(d.open_amount).isZero() && (
                <Button leftSection={<IconCash size={14} />} onClick={() => onPay(d)}>
                  {t(direction === "sale" ? "treasuryPages.collect" : "treasuryPages.pay")}
                </Button>
              )}
            </Group>
          </Group>
          <SimpleGrid cols={4}>
            <Figure label={t("treasuryPages.dueDate")} value={formatDate(d.due_date)} />
            <Figure label={t("common.amount")} value={formatMoney(d.amount)} />
            <Figure label={t("treasuryPages.paid")} value={formatMoney(d.paid_amount)} testId="due-paid" />
            <Figure
              label={t("treasuryPages.open")}
              value={formatMoney(d.open_amount)}
              strong
              testId="due-open"
            />
          </SimpleGrid>
          {canEdit && d.status !== "pagado" && <DueDateForm direction={direction} due={d} />}
          {canEdit && new Decimal(d.paid_amount).isZero() && <SplitForm direction={direction} due={d} />}
          <Payments direction={direction} due={d} canUndo={canEdit} />
          <Instalments due={d} />
        </Stack>
      )}
    </QueryState>
  );
}

function useRefresh() {
  const client = useQueryClient();
  return () => {
    for (const queryKey of TREASURY_KEYS) void client.invalidateQueries({ queryKey });
  };
}

function DueDateForm({ direction, due }: { direction: Direction; due: DueDetail }) {
  const { t } = useTranslation();
  const refresh = useRefresh();
  const [date, setDate] = useState(due.due_date);
  const save = useMutation({
    mutationFn: () => patchDue(direction, due.id, { due_date: date }),
    onSuccess: () => {
      notifySuccess(t("common.saved"));
      refresh();
    },
    onError: notifyError,
  });
  return (
    <Group align="flex-end" gap="sm">
      <TextInput
        type="date"
        label={t("treasuryPages.newDueDate")}
        value={date}
        onChange={(e) => setDate(e.currentTarget.value)}
      />
      <Button
        variant="light"
        disabled={!date || date === due.due_date}
        loading={save.isPending}
        onClick={() => save.mutate()}
      >
        {t("treasuryPages.changeDueDate")}
      </Button>
    </Group>
  );
}

let partKeys = 0;
const newPart = (due_date: string, amount: string): SplitPart => ({
  key: `p${++partKeys}`,
  due_date,
  amount,
});

/** Split an unpaid instalment into parts adding up to its amount (the first keeps its id). */
function SplitForm({ direction, due }: { direction: Direction; due: DueDetail }) {
  const { t } = useTranslation();
  const refresh = useRefresh();
  const [parts, setParts] = useState<SplitPart[] | null>(null);
  const save = useMutation({
    mutationFn: (p: SplitPart[]) => patchDue(direction, due.id, splitBody(p)),
    onSuccess: () => {
      setParts(null);
      notifySuccess(t("treasuryPages.splitDone"));
      refresh();
    },
    onError: notifyError,
  });
  if (!parts) {
    const start = () => {
      const half = new Decimal(due.amount).div(2).toDecimalPlaces(2, Decimal.ROUND_DOWN);
      const next = dayjs(due.due_date).add(1, "month").format("YYYY-MM-DD");
      setParts([
        newPart(due.due_date, new Decimal(due.amount).minus(half).toFixed(2)),
        newPart(next, half.toFixed(2)),
      ]);
    };
    return (
      <Button variant="default" w="fit-content" onClick={start}>
        {t("treasuryPages.split")}
      </Button>
    );
  }
  const { errors, remaining } = splitProblems(parts, due.amount);
  const set = (i: number, patch: Partial<SplitPart>) =>
    setParts(parts.map((p, j) => (j === i ? { ...p, ...patch } : p)));
  return (
    <Paper withBorder p="sm">
      <Title order={3} size="h5" mb="xs">
        {t("treasuryPages.split")}
      </Title>
      <Stack gap="xs">
        {parts.map((p, i) => (
          <Group key={p.key} gap="xs" align="flex-start">
            <TextInput
              type="date"
              label={t("treasuryPages.partDate", { n: i + 1 })}
              value={p.due_date}
              error={errors[`parts.${i}.due_date`] && t(errors[`parts.${i}.due_date`])}
              onChange={(e) => set(i, { due_date: e.currentTarget.value })}
            />
            <TextInput
              label={t("treasuryPages.partAmount", { n: i + 1 })}
              inputMode="decimal"
              value={p.amount}
              error={errors[`parts.${i}.amount`] && t(errors[`parts.${i}.amount`])}
              onChange={(e) => set(i, { amount: e.currentTarget.value })}
            />
            <ActionIcon
              mt={26}
              variant="subtle"
              color="red"
              disabled={parts.length <= 2}
              aria-label={t("treasuryPages.removePart", { n: i + 1 })}
              onClick={() => setParts(parts.filter((_, j) => j !== i))}
            >
              <IconTrash size={14} />
            </ActionIcon>
          </Group>
        ))}
        <Group justify="space-between">
          <Button
            variant="subtle"
            leftSection={<IconPlus size={14} />}
            disabled={parts.length >= 60}
            onClick={() =>
              setParts([
                ...parts,
                newPart(
                  dayjs(parts.at(-1)?.due_date || due.due_date)
                    .add(1, "month")
                    .format("YYYY-MM-DD"),
                  "",
                ),
              ])
            }
          >
            {t("treasuryPages.addPart")}
          </Button>
          <Text size="sm" ff="monospace" c={new Decimal(remaining).isZero() ? "teal.9" : "red.9"}>
            {t("treasuryPages.remaining")}: {formatMoney(remaining)}
          </Text>
        </Group>
        {errors.parts && (
          <Text size="sm" c="red.9">
            {t(errors.parts)}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setParts(null)}>
            {t("common.cancel")}
          </Button>
          <Button
            disabled={Object.keys(errors).length > 0}
            loading={save.isPending}
            onClick={() => save.mutate(parts)}
          >
            {t("treasuryPages.saveSplit")}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function Payments({ direction, due, canUndo }: { direction: Direction; due: DueDetail; canUndo: boolean }) {
  const { t } = useTranslation();
  const refresh = useRefresh();
  const [undoing, setUndoing] = useState<Payment | null>(null);
  const undo = useMutation({
    mutationFn: (p: Payment) => undoPayment(p.id),
    onSuccess: () => {
      setUndoing(null);
      notifySuccess(t("treasuryPages.undone"));
      refresh();
    },
    onError: (err) => {
      setUndoing(null);
      notifyError(err);
    },
  });
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {t(direction === "sale" ? "treasuryPages.collections" : "treasuryPages.paymentsMade")}
      </Title>
      {due.payments.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t("treasuryPages.noPayments")}
        </Text>
      ) : (
        <Table striped data-testid="due-payments">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t("common.date")}</Table.Th>
              <Table.Th ta="right">{t("common.amount")}</Table.Th>
              <Table.Th ta="right">{t("treasuryPages.fees")}</Table.Th>
              <Table.Th>{t("treasuryPages.bankAccount")}</Table.Th>
              <Table.Th>{t("common.status")}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {due.payments.map((p) => (
              <Table.Tr key={p.id}>
                <Table.Td>{formatDate(p.date)}</Table.Td>
                <Table.Td ta="right" ff="monospace" td={p.undone ? "line-through" : undefined}>
                  {formatMoney(p.amount)}
                </Table.Td>
                <Table.Td ta="right" ff="monospace">
                  {formatMoney(p.fees)}
                </Table.Td>
                <Table.Td>{p.bank_account_name}</Table.Td>
                <Table.Td>
                  {p.undone ? (
                    <Badge color="gray">{t("treasuryPages.undoneBadge")}</Badge>
                  ) : p.bank_movement_id ? (
                    <Badge color="teal">{t("treasuryPages.reconciled")}</Badge>
                  ) : (
                    canUndo && (
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        color="red"
                        leftSection={<IconArrowBackUp size={14} />}
                        onClick={() => setUndoing(p)}
                      >
                        {t("treasuryPages.undo")}
                      </Button>
                    )
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {due.payments.some((p) => p.bank_movement_id && !p.undone) && (
        <Alert color="blue" p="xs">
          <Text size="xs">{t("treasuryPages.reconciledHint")}</Text>
        </Alert>
      )}
      <ConfirmDialog
        opened={undoing !== null}
        title={t("treasuryPages.undo")}
        confirmLabel={t("treasuryPages.undo")}
        busy={undo.isPending}
        onConfirm={() => undoing && undo.mutate(undoing)}
        onClose={() => setUndoing(null)}
      >
        {undoing &&
          t("treasuryPages.undoConfirm", {
            amount: formatMoney(undoing.amount),
            date: formatDate(undoing.date),
          })}
      </ConfirmDialog>
    </Stack>
  );
}

function Instalments({ due }: { due: DueDetail }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {t("treasuryPages.instalments", { invoice: due.invoice_code })}
      </Title>
      <Table striped data-testid="due-instalments">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t("common.code")}</Table.Th>
            <Table.Th>{t("treasuryPages.dueDate")}</Table.Th>
            <Table.Th ta="right">{t("common.amount")}</Table.Th>
            <Table.Th ta="right">{t("treasuryPages.open")}</Table.Th>
            <Table.Th>{t("common.status")}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {due.instalments.map((i) => (
            <Table.Tr key={i.id} fw={i.id === due.id ? 600 : undefined}>
              <Table.Td ff="monospace">{i.code}</Table.Td>
              <Table.Td>{formatDate(i.due_date)}</Table.Td>
              <Table.Td ta="right" ff="monospace">
                {formatMoney(i.amount)}
              </Table.Td>
              <Table.Td ta="right" ff="monospace">
                {formatMoney(i.open_amount)}
              </Table.Td>
              <Table.Td>
                <Badge color={DUE_STATUS_COLOR[i.status]} variant="light">
                  {t(`treasuryPages.status.${i.status}`)}
                </Badge>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
