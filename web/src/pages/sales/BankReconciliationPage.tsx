import { Badge, Button, FileButton, Group, Paper, Select, Stack, Table, Text } from "@mantine/core";
import { IconUpload } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api, unwrap, upload } from "../../api/client";
import { ApiError, isProblem } from "../../api/problem";
import { useCan, useCompany } from "../../auth/session";
import { notifyError, notifySuccess } from "../../components/notify";
import { PageHeader } from "../../components/PageHeader";
import { QueryState } from "../../components/states";
import { formatDate, formatMoney } from "../../i18n";

type Status = "pendiente" | "sugerido" | "conciliado" | "ignorado";
const STATUS_COLOR: Record<Status, string> = {
  pendiente: "gray",
  sugerido: "yellow",
  conciliado: "teal",
  ignorado: "dark",
};

export function BankReconciliationPage() {
  const { t } = useTranslation();
  const { companyId } = useCompany();
  const client = useQueryClient();
  const canEdit = useCan("banking:editar");
  const canImport = useCan("banking:crear");
  const [status, setStatus] = useState<Status | null>("sugerido");
  const [account, setAccount] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const accounts = useQuery({
    queryKey: ["bank-accounts", companyId],
    enabled: Boolean(companyId),
    queryFn: async () =>
      unwrap(
        await api.GET("/api/treasury/bank-accounts", {
          params: { query: { company_id: companyId ?? undefined, limit: 100 } },
        }),
      ),
  });
  const accountId = account ?? accounts.data?.data[0]?.id ?? null;
  const movements = useQuery({
    queryKey: ["bank-movements", companyId, accountId, status],
    enabled: Boolean(companyId && accountId),
    queryFn: async () =>
      unwrap(
        await api.GET("/api/bank-reconciliation/movements", {
          params: {
            query: {
              company_id: companyId ?? undefined,
              bank_account_id: accountId ?? undefined,
              status: status ?? undefined,
              limit: 500,
            },
          },
        }),
      ),
  });
  const refresh = () => void client.invalidateQueries({ queryKey: ["bank-movements"] });
  const accept = useMutation({
    mutationFn: async ({ id, target, docId }: { id: string; target: "receipt" | "payment"; docId: string }) =>
      unwrap(
        await api.POST("/api/bank-reconciliation/movements/{id}/reconcile", {
          params: { path: { id } },
          body: { target, id: docId },
        }),
      ),
    onSuccess: refresh,
    onError: notifyError,
  });
  const ignore = useMutation({
    mutationFn: async (id: string) =>
      unwrap(await api.POST("/api/bank-reconciliation/movements/{id}/ignore", { params: { path: { id } } })),
    onSuccess: refresh,
    onError: notifyError,
  });
  const importFile = async (file: File | null) => {
    if (!file || !accountId) return;
    const form = new FormData();
    form.append("bank_account_id", accountId);
    form.append("file", file, file.name);
    setUploading(true);
    try {
      const res = await upload("/api/bank-reconciliation/import", form, () => {});
      if (res.status >= 300)
        throw new ApiError(res.status, isProblem(res.body) ? res.body : { title: `HTTP ${res.status}` });
      notifySuccess(file.name);
      refresh();
    } catch (err) {
      notifyError(err);
    } finally {
      setUploading(false);
    }
  };
  return (
    <>
      <PageHeader
        title={t("bank.title")}
        actions={
          canImport && (
            <FileButton onChange={(f) => void importFile(f)}>
              {(props) => (
                <Button
                  {...props}
                  leftSection={<IconUpload size={14} />}
                  loading={uploading}
                  disabled={!accountId}
                >
                  {t("bank.upload")}
                </Button>
              )}
            </FileButton>
          )
        }
      />
      <Paper withBorder p="sm" mb="sm">
        <Group gap="sm">
          <Select
            aria-label={t("shell.bank")}
            w={320}
            value={accountId}
            onChange={setAccount}
            allowDeselect={false}
            data={(accounts.data?.data ?? []).map((a) => ({ value: a.id, label: `${a.name} · ${a.iban}` }))}
          />
          <Select
            aria-label={t("common.status")}
            w={180}
            clearable
            value={status}
            onChange={(v) => setStatus(v as Status | null)}
            data={(["pendiente", "sugerido", "conciliado", "ignorado"] as const).map((s) => ({
              value: s,
              label: s,
            }))}
          />
        </Group>
      </Paper>
      <Paper withBorder>
        <QueryState query={movements} isEmpty={(d) => d.data.length === 0}>
          {(d) => (
            <Table.ScrollContainer minWidth={900}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t("common.date")}</Table.Th>
                    <Table.Th>{t("bank.movement")}</Table.Th>
                    <Table.Th ta="right">{t("common.amount")}</Table.Th>
                    <Table.Th>{t("common.status")}</Table.Th>
                    <Table.Th>{t("bank.suggestion")}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {d.data.map((m) => {
                    const best = m.suggestions[0];
                    return (
                      <Table.Tr key={m.id}>
                        <Table.Td>{formatDate(m.operation_date)}</Table.Td>
                        <Table.Td>
                          <Text size="xs">{m.concepts.join(" ") || m.own_concept}</Text>
                        </Table.Td>
                        <Table.Td ta="right" ff="monospace" c={Number(m.amount) < 0 ? "red.9" : "teal.9"}>
                          {formatMoney(m.amount)}
                        </Table.Td>
                        <Table.Td>
                          <Badge color={STATUS_COLOR[m.status]}>{m.status}</Badge>
                        </Table.Td>
                        <Table.Td>
                          {best && m.status !== "conciliado" ? (
                            <Stack gap={2}>
                              <Text size="xs">
                                {best.document_code} · {best.contact_name} · {formatMoney(best.open_amount)} (
                                {best.score})
                              </Text>
                              {canEdit && (
                                <Group gap={4}>
                                  <Button
                                    size="compact-xs"
                                    color="teal"
                                    onClick={() =>
                                      accept.mutate({ id: m.id, target: best.target, docId: best.id })
                                    }
                                  >
                                    {t("bank.accept")}
                                  </Button>
                                  <Button
                                    size="compact-xs"
                                    variant="subtle"
                                    color="gray"
                                    onClick={() => ignore.mutate(m.id)}
                                  >
                                    {t("bank.reject")}
                                  </Button>
                                </Group>
                              )}
                            </Stack>
                          ) : (
                            "—"
                          )}
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </QueryState>
      </Paper>
    </>
  );
}
