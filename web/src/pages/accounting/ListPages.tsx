import { Badge, Button, Group } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "../../api/client";
import { useCan, useCompany } from "../../auth/session";
import { DataTable } from "../../components/DataTable";
import { notifyError, notifySuccess } from "../../components/notify";
import { PageHeader } from "../../components/PageHeader";
import { useSearchBox } from "../../components/SearchBox";
import { formatDate } from "../../i18n";

export function AccountsPage() {
  const { t } = useTranslation();
  const { companyId } = useCompany();
  const { search, box } = useSearchBox();
  const query = useQuery({
    queryKey: ["subaccounts", companyId, search],
    enabled: Boolean(companyId),
    queryFn: async () =>
      unwrap(
        await api.GET("/api/accounting/subaccounts", {
          params: { query: { company_id: companyId ?? undefined, search, limit: 1000 } },
        }),
      ),
  });
  return (
    <>
      <PageHeader
        title={t("accounts.title")}
        subtitle={query.data && t("common.results", { count: query.data.total })}
      />
      {box}
      <DataTable
        query={query}
        columns={[
          { key: "code", header: t("common.code"), render: (r) => r.code, mono: true, width: 140 },
          { key: "name", header: t("common.name"), render: (r) => r.name },
          { key: "account", header: t("accounts.group"), render: (r) => r.account_code, mono: true },
          { key: "fy", header: t("fiscalYears.title"), render: (r) => r.fiscal_year_code },
        ]}
      />
    </>
  );
}

export function FiscalYearsPage() {
  const { t } = useTranslation();
  const { companyId } = useCompany();
  const client = useQueryClient();
  const canClose = useCan("accounting:validar");
  const query = useQuery({
    queryKey: ["fiscal-years", companyId],
    enabled: Boolean(companyId),
    queryFn: async () =>
      unwrap(
        await api.GET("/api/accounting/fiscal-years", {
          params: { query: { company_id: companyId ?? undefined, limit: 100 } },
        }),
      ),
  });
  const setState = useMutation({
    mutationFn: async ({ id, estado }: { id: string; estado: "abierto" | "cerrado" }) =>
      unwrap(
        await api.PUT("/api/accounting/fiscal-years/{id}/estado", {
          params: { path: { id } },
          body: { estado },
        }),
      ),
    onSuccess: (fy) => {
      notifySuccess(`${fy.code}: ${t(`fiscalYears.estado.${fy.estado}`)}`);
      void client.invalidateQueries({ queryKey: ["fiscal-years"] });
    },
    onError: notifyError,
  });
  return (
    <>
      <PageHeader title={t("fiscalYears.title")} />
      <DataTable
        query={query}
        columns={[
          { key: "code", header: t("common.code"), render: (r) => r.code, mono: true },
          { key: "start", header: t("fiscalYears.start"), render: (r) => formatDate(r.start_date) },
          { key: "end", header: t("fiscalYears.end"), render: (r) => formatDate(r.end_date) },
          { key: "n", header: t("entries.title"), render: (r) => r.last_entry_number, align: "right" },
          {
            key: "estado",
            header: t("common.status"),
            render: (r) => (
              <Badge color={r.estado === "abierto" ? "teal" : "gray"}>
                {t(`fiscalYears.estado.${r.estado}`)}
              </Badge>
            ),
          },
          {
            key: "actions",
            header: "",
            render: (r) =>
              canClose && (
                <Group justify="flex-end">
                  <Button
                    variant="light"
                    color={r.estado === "abierto" ? "red" : "teal"}
                    onClick={() =>
                      setState.mutate({ id: r.id, estado: r.estado === "abierto" ? "cerrado" : "abierto" })
                    }
                  >
                    {r.estado === "abierto" ? t("fiscalYears.close") : t("fiscalYears.estado.abierto")}
                  </Button>
                </Group>
              ),
          },
        ]}
      />
    </>
  );
}
