import {
  ActionIcon,
  Button,
  FileButton,
  Group,
  Modal,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { useDisclosure } from "@mantine/hooks";
import { IconDownload, IconPaperclip, IconPlus } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { download, unwrap, upload, v1 } from "../../api/client";
import { ApiError, isProblem } from "../../api/problem";
import type { Budget, CostCategory } from "../../api/types";
import { useCan } from "../../auth/session";
import { DialogForm } from "../../components/DialogForm";
import { notifyError, notifySuccess } from "../../components/notify";
import { QueryState } from "../../components/states";
import { formatDate, formatMoney } from "../../i18n";

const CATEGORIES: CostCategory[] = ["material", "labour", "machinery", "subcontract", "other"];

export function CostsTab({ budget }: { budget: Budget }) {
  const { t } = useTranslation();
  const canCreate = useCan("accounting:crear");
  const [open, modal] = useDisclosure(false);
  const [attachmentsOf, setAttachmentsOf] = useState<string | null>(null);
  const costs = useQuery({
    queryKey: ["costs", budget.id],
    queryFn: async () =>
      unwrap(await v1.GET("/api/v1/accounting", { params: { query: { budget_id: budget.id, limit: 500 } } })),
  });
  return (
    <Stack gap="sm">
      {canCreate && (
        <Group>
          <Button leftSection={<IconPlus size={14} />} onClick={modal.open}>
            {t("costs.new")}
          </Button>
        </Group>
      )}
      <Paper withBorder>
        <QueryState query={costs} isEmpty={(d) => d.data.length === 0}>
          {(d) => (
            <Table striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t("common.date")}</Table.Th>
                  <Table.Th>{t("entries.concept")}</Table.Th>
                  <Table.Th>{t("costs.supplier")}</Table.Th>
                  <Table.Th>{t("common.status")}</Table.Th>
                  <Table.Th ta="right">{t("common.amount")}</Table.Th>
                  <Table.Th w={40} />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {d.data.map((c) => (
                  <Table.Tr key={c.id}>
                    <Table.Td>{formatDate(c.date)}</Table.Td>
                    <Table.Td>{c.concept}</Table.Td>
                    <Table.Td>{c.supplier_name}</Table.Td>
                    <Table.Td>{c.category}</Table.Td>
                    <Table.Td ta="right" ff="monospace">
                      {formatMoney(c.net_amount)}
                    </Table.Td>
                    <Table.Td>
                      <ActionIcon
                        variant="subtle"
                        aria-label={t("costs.attachments")}
                        onClick={() => setAttachmentsOf(c.id)}
                      >
                        <IconPaperclip size={14} />
                      </ActionIcon>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </QueryState>
      </Paper>
      <Modal opened={open} onClose={modal.close} title={t("costs.new")} size="lg">
        <NewCostForm budgetId={budget.id} onDone={modal.close} />
      </Modal>
      <Modal
        opened={attachmentsOf !== null}
        onClose={() => setAttachmentsOf(null)}
        title={t("costs.attachments")}
      >
        {attachmentsOf && <Attachments costId={attachmentsOf} />}
      </Modal>
    </Stack>
  );
}

function NewCostForm({ budgetId, onDone }: { budgetId: string; onDone: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const form = useForm({
    initialValues: {
      date: new Date().toISOString().slice(0, 10),
      concept: "",
      supplier_name: "",
      category: "material" as CostCategory,
      net_amount: "",
      vat_amount: "0",
    },
    validate: {
      concept: (v) => (v.trim() ? null : t("auth.required")),
      net_amount: (v) => (/^\d+([.,]\d{1,2})?$/.test(v.trim()) ? null : t("auth.required")),
    },
  });
  const create = useMutation({
    mutationFn: async (v: typeof form.values) =>
      unwrap(
        await v1.POST("/api/v1/accounting", {
          body: {
            ...v,
            budget_id: budgetId,
            net_amount: v.net_amount.replace(",", "."),
            vat_amount: v.vat_amount.replace(",", "."),
          },
        }),
      ),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ["costs", budgetId] });
      void client.invalidateQueries({ queryKey: ["cost-summary", budgetId] });
      onDone();
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
        <TextInput type="date" label={t("common.date")} {...form.getInputProps("date")} />
        <Select
          label={t("common.status")}
          data={CATEGORIES}
          allowDeselect={false}
          {...form.getInputProps("category")}
        />
      </SimpleGrid>
      <TextInput label={t("entries.concept")} required {...form.getInputProps("concept")} />
      <TextInput label={t("costs.supplier")} {...form.getInputProps("supplier_name")} />
      <SimpleGrid cols={2}>
        <TextInput label={t("common.amount")} required {...form.getInputProps("net_amount")} />
        <TextInput label={t("budgets.vat")} {...form.getInputProps("vat_amount")} />
      </SimpleGrid>
    </DialogForm>
  );
}

function Attachments({ costId }: { costId: string }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const canUpload = useCan("accounting:crear");
  const list = useQuery({
    queryKey: ["cost-attachments", costId],
    queryFn: async () =>
      unwrap(await v1.GET("/api/v1/accounting/{id}/attachments", { params: { path: { id: costId } } })),
  });
  const [progress, setProgress] = useState<number | null>(null);
  const send = async (file: File | null) => {
    if (!file) return;
    const form = new FormData();
    form.append("file", file, file.name);
    setProgress(0);
    try {
      const res = await upload(`/api/v1/accounting/${costId}/attachments`, form, setProgress);
      if (res.status >= 300)
        throw new ApiError(res.status, isProblem(res.body) ? res.body : { title: `HTTP ${res.status}` });
      notifySuccess(file.name);
      void client.invalidateQueries({ queryKey: ["cost-attachments", costId] });
    } catch (err) {
      notifyError(err);
    } finally {
      setProgress(null);
    }
  };
  return (
    <Stack gap="sm">
      <QueryState query={list} isEmpty={(d) => d.length === 0}>
        {(files) => (
          <Stack gap={4}>
            {files.map((f) => (
              <Group key={f.id} justify="space-between">
                <Text size="sm">{f.file_name}</Text>
                <ActionIcon
                  variant="subtle"
                  aria-label={`${t("common.download")} ${f.file_name}`}
                  onClick={() =>
                    download(`/api/v1/accounting/${costId}/attachments/${f.id}`, f.file_name).catch(
                      notifyError,
                    )
                  }
                >
                  <IconDownload size={14} />
                </ActionIcon>
              </Group>
            ))}
          </Stack>
        )}
      </QueryState>
      {canUpload && (
        <FileButton onChange={(f) => void send(f)}>
          {(props) => (
            <Button
              {...props}
              variant="light"
              leftSection={<IconPaperclip size={14} />}
              loading={progress !== null}
            >
              {t("costs.upload")}
            </Button>
          )}
        </FileButton>
      )}
    </Stack>
  );
}
