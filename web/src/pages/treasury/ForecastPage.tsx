import { Badge, Button, Group, Modal, Select, SimpleGrid, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { IconPencil, IconPlus, IconTrash } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import dayjs from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "../../api/client";
import { useCan, useCompany } from "../../auth/session";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { DataTable } from "../../components/DataTable";
import { DialogForm } from "../../components/DialogForm";
import { notifyError, notifySuccess } from "../../components/notify";
import { PageHeader } from "../../components/PageHeader";
import {
  type BudgetLineValues,
  budgetLineBody,
  budgetLineRules,
  RECURRENCES,
  type Recurrence,
} from "../../forms/treasury";
import { formatDate, formatMoney } from "../../i18n";
import { type BudgetLine, listBankAccounts } from "./treasuryApi";

/** The treasury budget: forecast lines (one-off or recurring) that the cash-flow forecast adds up. */
export function ForecastPage() {
  const { t } = useTranslation();
  const { companyId } = useCompany();
  const client = useQueryClient();
  const canCreate = useCan("treasury:crear");
  const canEdit = useCan("treasury:editar");
  const canDelete = useCan("treasury:eliminar");
  const [editing, setEditing] = useState<BudgetLine | "new" | null>(null);
  const [deleting, setDeleting] = useState<BudgetLine | null>(null);
  const [text, setText] = useState("");
  const list = useQuery({
    queryKey: ["treasury-budgets", companyId, text.trim()],
    enabled: Boolean(companyId),
    queryFn: async () =>
      unwrap(
        await api.GET("/api/treasury/budgets", {
          params: {
            query: { company_id: companyId ?? undefined, search: text.trim() || undefined, limit: 500 },
          },
        }),
      ),
  });
  const accounts = useQuery({
    queryKey: ["bank-accounts", companyId],
    enabled: Boolean(companyId),
    queryFn: () => listBankAccounts(companyId),
  });
  const accountName = (id: string | null) => accounts.data?.data.find((a) => a.id === id)?.name ?? "—";
  const changed = () => {
    void client.invalidateQueries({ queryKey: ["treasury-budgets"] });
    void client.invalidateQueries({ queryKey: ["cash-flow"] });
  };
  const remove = useMutation({
    mutationFn: async (id: string) =>
      unwrap(await api.DELETE("/api/treasury/budgets/{id}", { params: { path: { id } } })),
    onSuccess: () => {
      setDeleting(null);
      notifySuccess(t("treasuryPages.lineDeleted"));
      changed();
    },
    onError: (err) => {
      setDeleting(null);
      notifyError(err);
    },
  });
  return (
    <>
      <PageHeader
        title={t("treasuryPages.forecast")}
        subtitle={list.data && t("common.results", { count: list.data.total })}
        actions={
          <>
            <TextInput
              aria-label={t("common.search")}
              placeholder={t("common.search")}
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              w={220}
            />
            {canCreate && (
              <Button leftSection={<IconPlus size={14} />} onClick={() => setEditing("new")}>
                {t("treasuryPages.newLine")}
              </Button>
            )}
          </>
        }
      />
      <DataTable
        query={list}
        minWidth={1000}
        columns={[
          { key: "date", header: t("treasuryPages.firstDate"), render: (r) => formatDate(r.date) },
          { key: "category", header: t("treasuryPages.category"), render: (r) => r.category },
          { key: "description", header: t("common.description"), render: (r) => r.description || "—" },
          {
            key: "amount",
            header: t("common.amount"),
            align: "right",
            mono: true,
            render: (r) => formatMoney(r.amount),
          },
          {
            key: "recurrence",
            header: t("treasuryPages.recurrence"),
            render: (r) => (
              <Badge variant="light" color={r.recurrence === "none" ? "gray" : "indigo"}>
                {t(`treasuryPages.recurrences.${r.recurrence}`)}
              </Badge>
            ),
          },
          { key: "until", header: t("treasuryPages.until"), render: (r) => formatDate(r.until) },
          {
            key: "bank",
            header: t("treasuryPages.bankAccount"),
            render: (r) => accountName(r.bank_account_id),
          },
          {
            key: "actions",
            header: "",
            align: "right",
            render: (r) => (
              <Group gap={4} justify="flex-end" wrap="nowrap">
                {canEdit && (
                  <Button
                    variant="subtle"
                    size="compact-sm"
                    leftSection={<IconPencil size={14} />}
                    aria-label={`${t("common.edit")} ${r.category} ${r.description}`}
                    onClick={() => setEditing(r)}
                  >
                    {t("common.edit")}
                  </Button>
                )}
                {canDelete && (
                  <Button
                    variant="subtle"
                    size="compact-sm"
                    color="red"
                    leftSection={<IconTrash size={14} />}
                    aria-label={`${t("common.delete")} ${r.category} ${r.description}`}
                    onClick={() => setDeleting(r)}
                  >
                    {t("common.delete")}
                  </Button>
                )}
              </Group>
            ),
          },
        ]}
      />
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={t(editing === "new" ? "treasuryPages.newLine" : "treasuryPages.editLine")}
        closeButtonProps={{ "aria-label": t("common.close") }}
        size="lg"
      >
        {editing && (
          <LineForm
            line={editing === "new" ? null : editing}
            accounts={(accounts.data?.data ?? []).map((a) => ({ value: a.id, label: a.name }))}
            onCancel={() => setEditing(null)}
            onSaved={() => {
              setEditing(null);
              changed();
            }}
          />
        )}
      </Modal>
      <ConfirmDialog
        opened={deleting !== null}
        title={t("treasuryPages.deleteLine")}
        confirmLabel={t("common.delete")}
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        onClose={() => setDeleting(null)}
      >
        {deleting &&
          t("treasuryPages.deleteLineConfirm", { name: deleting.description || deleting.category })}
      </ConfirmDialog>
    </>
  );
}

function LineForm({
  line,
  accounts,
  onCancel,
  onSaved,
}: {
  line: BudgetLine | null;
  accounts: { value: string; label: string }[];
  onCancel: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const { companyId } = useCompany();
  const form = useForm<BudgetLineValues>({
    initialValues: {
      category: line?.category ?? "",
      description: line?.description ?? "",
      date: line?.date ?? dayjs().format("YYYY-MM-DD"),
      amount: line?.amount ?? "",
      recurrence: line?.recurrence ?? "none",
      until: line?.until ?? "",
      bank_account_id: line?.bank_account_id ?? null,
    },
    validate: budgetLineRules((k, o) => t(k, o)),
  });
  const save = useMutation({
    mutationFn: async (v: BudgetLineValues) => {
      const body = budgetLineBody(v);
      return line
        ? unwrap(await api.PATCH("/api/treasury/budgets/{id}", { params: { path: { id: line.id } }, body }))
        : unwrap(
            await api.POST("/api/treasury/budgets", {
              body: { ...body, company_id: companyId ?? undefined },
            }),
          );
    },
    onSuccess: () => {
      notifySuccess(t("common.saved"));
      onSaved();
    },
    onError: notifyError,
  });
  const recurring = form.values.recurrence !== "none";
  return (
    <DialogForm
      onSubmit={form.onSubmit((v) => save.mutate(v))}
      onCancel={onCancel}
      submitting={save.isPending}
      submitLabel={line ? t("common.save") : t("common.create")}
    >
      <SimpleGrid cols={2}>
        <TextInput label={t("treasuryPages.category")} required {...form.getInputProps("category")} />
        <TextInput
          label={t("treasuryPages.signedAmount")}
          description={t("treasuryPages.signedAmountHint")}
          required
          inputMode="decimal"
          {...form.getInputProps("amount")}
        />
      </SimpleGrid>
      <TextInput label={t("common.description")} {...form.getInputProps("description")} />
      <SimpleGrid cols={3}>
        <TextInput
          type="date"
          label={t("treasuryPages.firstDate")}
          required
          {...form.getInputProps("date")}
        />
        <Select
          label={t("treasuryPages.recurrence")}
          allowDeselect={false}
          data={RECURRENCES.map((r) => ({ value: r, label: t(`treasuryPages.recurrences.${r}`) }))}
          {...form.getInputProps("recurrence")}
          onChange={(v) => form.setFieldValue("recurrence", (v ?? "none") as Recurrence)}
          comboboxProps={{ withinPortal: true }}
        />
        <TextInput
          type="date"
          label={t("treasuryPages.until")}
          disabled={!recurring}
          {...form.getInputProps("until")}
        />
      </SimpleGrid>
      <Select
        label={t("treasuryPages.bankAccount")}
        clearable
        data={accounts}
        {...form.getInputProps("bank_account_id")}
        comboboxProps={{ withinPortal: true }}
      />
    </DialogForm>
  );
}
