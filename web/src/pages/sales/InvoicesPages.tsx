import { Button, Group, Modal, Stack, Textarea } from "@mantine/core";
import { IconFileTypePdf, IconPlus } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { api, download, unwrap } from "../../api/client";
import { useCan, useCompany } from "../../auth/session";
import { DataTable } from "../../components/DataTable";
import { notifyError, notifySuccess } from "../../components/notify";
import { PageHeader } from "../../components/PageHeader";
import { invoiceCode } from "./invoiceApi";
import { invoiceColumns } from "./invoiceColumns";

function NewInvoiceButton({
  to,
  label,
}: {
  to: "/sales/invoices/new" | "/purchases/invoices/new";
  label: ReactNode;
}) {
  return (
    <Button component={Link} to={to} leftSection={<IconPlus size={14} />}>
      {label}
    </Button>
  );
}

export function SalesInvoicesPage() {
  const { t } = useTranslation();
  const { companyId } = useCompany();
  const client = useQueryClient();
  const canIssue = useCan("sales:crear");
  const list = useQuery({
    queryKey: ["sales-invoices", companyId],
    enabled: Boolean(companyId),
    queryFn: async () =>
      unwrap(
        await api.GET("/api/sales/invoices", {
          params: { query: { company_id: companyId ?? undefined, limit: 100 } },
        }),
      ),
  });
  const issue = useMutation({
    mutationFn: async (id: string) =>
      unwrap(await api.POST("/api/sales/invoices/{id}/issue", { params: { path: { id } }, body: {} })),
    onSuccess: (inv) => {
      notifySuccess(`${t("invoices.issue")}: ${invoiceCode(inv)}`);
      void client.invalidateQueries({ queryKey: ["sales-invoices"] });
    },
    onError: notifyError,
  });
  return (
    <>
      <PageHeader
        title={t("invoices.title")}
        subtitle={list.data && t("common.results", { count: list.data.total })}
        actions={canIssue && <NewInvoiceButton to="/sales/invoices/new" label={t("invoiceEditor.newSale")} />}
      />
      <DataTable
        query={list}
        minWidth={900}
        columns={invoiceColumns(t, "sale", (r) => (
          <Group gap={4} justify="flex-end" wrap="nowrap">
            {canIssue && r.estado === "borrador" && (
              <Button
                variant="light"
                loading={issue.isPending && issue.variables === r.id}
                onClick={() => issue.mutate(r.id)}
              >
                {t("invoices.issue")}
              </Button>
            )}
            <Button
              variant="subtle"
              leftSection={<IconFileTypePdf size={14} />}
              onClick={() =>
                download(`/api/sales/invoices/${r.id}/pdf`, `${invoiceCode(r)}.pdf`).catch(notifyError)
              }
            >
              PDF
            </Button>
          </Group>
        ))}
      />
    </>
  );
}

export function PurchaseInvoicesPage() {
  const { t } = useTranslation();
  const { companyId } = useCompany();
  const client = useQueryClient();
  const canDecide = useCan("purchases:validar");
  const canCreate = useCan("purchases:crear");
  const [rejecting, setRejecting] = useState<string | null>(null);
  const [reason, setReason] = useState("");
  const list = useQuery({
    queryKey: ["purchase-invoices", companyId],
    enabled: Boolean(companyId),
    queryFn: async () =>
      unwrap(
        await api.GET("/api/purchases/invoices", {
          params: { query: { company_id: companyId ?? undefined, limit: 100 } },
        }),
      ),
  });
  const done = () => void client.invalidateQueries({ queryKey: ["purchase-invoices"] });
  const approve = useMutation({
    mutationFn: async (id: string) =>
      unwrap(await api.POST("/api/purchases/invoices/{id}/approve", { params: { path: { id } } })),
    onSuccess: done,
    onError: notifyError,
  });
  const reject = useMutation({
    mutationFn: async ({ id, why }: { id: string; why: string }) =>
      unwrap(
        await api.POST("/api/purchases/invoices/{id}/reject", {
          params: { path: { id } },
          body: { reason: why },
        }),
      ),
    onSuccess: () => {
      setRejecting(null);
      setReason("");
      done();
    },
    onError: notifyError,
  });
  return (
    <>
      <PageHeader
        title={t("invoices.received")}
        subtitle={list.data && t("common.results", { count: list.data.total })}
        actions={
          canCreate && (
            <NewInvoiceButton to="/purchases/invoices/new" label={t("invoiceEditor.newPurchase")} />
          )
        }
      />
      <DataTable
        query={list}
        minWidth={900}
        columns={invoiceColumns(
          t,
          "purchase",
          (r) =>
            canDecide &&
            r.estado === "pendiente" && (
              <Group gap={4} justify="flex-end" wrap="nowrap">
                <Button variant="light" color="teal" onClick={() => approve.mutate(r.id)}>
                  {t("invoices.approve")}
                </Button>
                <Button variant="subtle" color="red" onClick={() => setRejecting(r.id)}>
                  {t("invoices.reject")}
                </Button>
              </Group>
            ),
        )}
      />
      <Modal opened={rejecting !== null} onClose={() => setRejecting(null)} title={t("invoices.reject")}>
        <Stack gap="sm">
          <Textarea
            label={t("common.description")}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            required
          />
          <Group justify="flex-end">
            <Button
              color="red"
              disabled={!reason.trim()}
              loading={reject.isPending}
              onClick={() => rejecting && reject.mutate({ id: rejecting, why: reason.trim() })}
            >
              {t("invoices.reject")}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
