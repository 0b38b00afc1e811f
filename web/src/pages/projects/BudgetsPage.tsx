import {
  Badge,
  Button,
  Group,
  Modal,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Table,
  TextInput,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { useDebouncedValue, useDisclosure } from "@mantine/hooks";
import { IconPlus, IconUpload } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { unwrap, v1 } from "../../api/client";
import { BUDGET_STATE_COLOR, type BudgetState } from "../../api/types";
import { useCan } from "../../auth/session";
import { DialogForm } from "../../components/DialogForm";
import { notifyError, notifySuccess } from "../../components/notify";
import { PageHeader } from "../../components/PageHeader";
import { QueryState } from "../../components/states";
import { formatMoney } from "../../i18n";
import { Bc3ImportModal } from "./Bc3Import";

const STATES: BudgetState[] = ["borrador", "aprobado", "en_ejecucion", "finalizado", "cancelado"];

export function BudgetsPage() {
  const { t } = useTranslation();
  const search = useSearch({ from: "/app/projects/budgets" });
  const navigate = useNavigate({ from: "/projects/budgets" });
  const [text, setText] = useState(search.search ?? "");
  const [debounced] = useDebouncedValue(text, 300);
  const estado = STATES.find((s) => s === search.estado);
  const canCreate = useCan("budgets:crear");
  const [creating, createModal] = useDisclosure(false);
  const [importing, importModal] = useDisclosure(false);

  const budgets = useQuery({
    queryKey: ["budgets", { estado, search: debounced }],
    queryFn: async () =>
      unwrap(
        await v1.GET("/api/v1/budgets", {
          params: { query: { limit: 200, estado, search: debounced || undefined } },
        }),
      ),
  });

  return (
    <>
      <PageHeader
        title={t("budgets.title")}
        subtitle={budgets.data ? t("common.results", { count: budgets.data.total }) : undefined}
        actions={
          canCreate && (
            <>
              <Button variant="default" leftSection={<IconUpload size={14} />} onClick={importModal.open}>
                {t("budgets.importBc3")}
              </Button>
              <Button leftSection={<IconPlus size={14} />} onClick={createModal.open}>
                {t("budgets.new")}
              </Button>
            </>
          )
        }
      />
      <Paper withBorder p="sm" mb="sm">
        <Group gap="sm">
          <TextInput
            aria-label={t("common.search")}
            placeholder={t("budgets.searchPlaceholder")}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            w={280}
          />
          <Select
            aria-label={t("budgets.filterEstado")}
            placeholder={t("budgets.filterEstado")}
            clearable
            w={180}
            value={estado ?? null}
            data={STATES.map((s) => ({ value: s, label: t(`budgets.estado.${s}`) }))}
            onChange={(v) => void navigate({ search: (prev) => ({ ...prev, estado: v ?? undefined }) })}
          />
        </Group>
      </Paper>
      <Paper withBorder>
        <QueryState query={budgets} isEmpty={(d) => d.data.length === 0}>
          {(data) => (
            <Table.ScrollContainer minWidth={800}>
              <Table striped highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t("common.code")}</Table.Th>
                    <Table.Th>{t("common.name")}</Table.Th>
                    <Table.Th>{t("budgets.client")}</Table.Th>
                    <Table.Th>{t("common.status")}</Table.Th>
                    <Table.Th ta="right">{t("budgets.pem")}</Table.Th>
                    <Table.Th ta="right">{t("budgets.total")}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.data.map((b) => (
                    <Table.Tr key={b.id}>
                      <Table.Td ff="monospace">{b.code}</Table.Td>
                      <Table.Td>
                        <Link
                          className="cell-link"
                          to="/projects/budgets/$budgetId"
                          params={{ budgetId: b.id }}
                        >
                          {b.name}
                        </Link>
                      </Table.Td>
                      <Table.Td>{b.client_name}</Table.Td>
                      <Table.Td>
                        <Badge color={BUDGET_STATE_COLOR[b.estado]}>{t(`budgets.estado.${b.estado}`)}</Badge>
                      </Table.Td>
                      <Table.Td ta="right" ff="monospace">
                        {formatMoney(b.pem)}
                      </Table.Td>
                      <Table.Td ta="right" ff="monospace">
                        {formatMoney(b.total)}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </QueryState>
      </Paper>
      <Modal opened={creating} onClose={createModal.close} title={t("budgets.new")} size="lg">
        <NewBudgetForm onDone={createModal.close} />
      </Modal>
      <Modal opened={importing} onClose={importModal.close} title={t("budgets.importBc3")} size="lg">
        <Bc3ImportModal
          url="/api/v1/budgets/import-bc3"
          onImported={(id) => void navigate({ to: "/projects/budgets/$budgetId", params: { budgetId: id } })}
        />
      </Modal>
    </>
  );
}

function NewBudgetForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const navigate = useNavigate();
  const form = useForm({
    initialValues: { code: "", name: "", client_name: "", overheads_pct: 13, profit_pct: 6, vat_pct: 21 },
    validate: {
      code: (v) => (v.trim() ? null : t("auth.required")),
      name: (v) => (v.trim() ? null : t("auth.required")),
    },
  });
  const create = useMutation({
    mutationFn: async (v: typeof form.values) =>
      unwrap(
        await v1.POST("/api/v1/budgets", {
          body: {
            code: v.code.trim(),
            name: v.name.trim(),
            client_name: v.client_name.trim(),
            overheads_pct: String(v.overheads_pct),
            profit_pct: String(v.profit_pct),
            vat_pct: String(v.vat_pct),
          },
        }),
      ),
    onSuccess: (budget) => {
      notifySuccess(t("budgets.created"));
      void client.invalidateQueries({ queryKey: ["budgets"] });
      onDone();
      void navigate({ to: "/projects/budgets/$budgetId", params: { budgetId: budget.id } });
    },
    onError: notifyError,
  });
  return (
    <DialogForm
      onSubmit={form.onSubmit((v) => create.mutate(v))}
      onCancel={onDone}
      submitting={create.isPending}
    >
      <SimpleGrid cols={2}>
        <TextInput label={t("common.code")} required {...form.getInputProps("code")} />
        <TextInput label={t("budgets.client")} {...form.getInputProps("client_name")} />
      </SimpleGrid>
      <TextInput label={t("common.name")} required {...form.getInputProps("name")} />
      <SimpleGrid cols={3}>
        <NumberInput
          label={t("budgets.overheads")}
          min={0}
          max={100}
          decimalScale={2}
          {...form.getInputProps("overheads_pct")}
        />
        <NumberInput
          label={t("budgets.profit")}
          min={0}
          max={100}
          decimalScale={2}
          {...form.getInputProps("profit_pct")}
        />
        <NumberInput
          label={t("budgets.vat")}
          min={0}
          max={100}
          decimalScale={2}
          {...form.getInputProps("vat_pct")}
        />
      </SimpleGrid>
    </DialogForm>
  );
}
