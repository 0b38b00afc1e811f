import { Button, Group, SegmentedControl } from "@mantine/core";
import { IconArrowRight } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "../../api/client";
import { useCan, useCompany } from "../../auth/session";
import { DataTable } from "../../components/DataTable";
import { notifyError, notifySuccess } from "../../components/notify";
import { PageHeader } from "../../components/PageHeader";
import { invoiceCode } from "./invoiceApi";
import { invoiceColumns } from "./invoiceColumns";

type Kind = "estimates" | "orders";
/** States a document can still be converted from (the server refuses the rest with a 409). */
const CONVERTIBLE = new Set(["borrador", "abierto", "parcial"]);

/** Sales estimates and orders: an estimate becomes an order, an order an invoice (then edited in the editor). */
export function SalesOrdersPage() {
  const { t } = useTranslation();
  const { companyId } = useCompany();
  const client = useQueryClient();
  const navigate = useNavigate();
  const canConvert = useCan("sales:crear");
  const [kind, setKind] = useState<Kind>("orders");
  const list = useQuery({
    queryKey: ["sales-documents", kind, companyId],
    enabled: Boolean(companyId),
    queryFn: async () => {
      const params = { query: { company_id: companyId ?? undefined, limit: 100 } };
      return unwrap(
        kind === "orders"
          ? await api.GET("/api/sales/orders", { params })
          : await api.GET("/api/sales/estimates", { params }),
      );
    },
  });
  const convert = useMutation({
    mutationFn: async (id: string) => {
      const params = { path: { id } };
      return kind === "orders"
        ? {
            to: "invoice" as const,
            doc: unwrap(await api.POST("/api/sales/orders/{id}/convert-to-invoice", { params, body: {} })),
          }
        : {
            to: "order" as const,
            doc: unwrap(await api.POST("/api/sales/estimates/{id}/convert-to-order", { params, body: {} })),
          };
    },
    onSuccess: ({ to, doc }) => {
      void client.invalidateQueries({ queryKey: ["sales-documents"] });
      if (to === "order") {
        notifySuccess(`${t("salesOrders.toOrder")}: ${invoiceCode(doc)}`);
        setKind("orders");
        return;
      }
      void client.invalidateQueries({ queryKey: ["sales-invoices"] });
      notifySuccess(t("salesOrders.invoiced"));
      void navigate({ to: "/sales/invoices/$invoiceId", params: { invoiceId: doc.id } });
    },
    onError: notifyError,
  });
  return (
    <>
      <PageHeader
        title={t("salesOrders.title")}
        subtitle={list.data && t("common.results", { count: list.data.total })}
        actions={
          <SegmentedControl
            size="xs"
            value={kind}
            onChange={(v) => setKind(v as Kind)}
            data={[
              { value: "orders", label: t("salesOrders.orders") },
              { value: "estimates", label: t("salesOrders.estimates") },
            ]}
            aria-label={t("salesOrders.title")}
          />
        }
      />
      <DataTable
        query={list}
        minWidth={900}
        columns={invoiceColumns(
          t,
          "sale",
          (r) =>
            canConvert &&
            CONVERTIBLE.has(r.estado) && (
              <Group gap={4} justify="flex-end" wrap="nowrap">
                <Button
                  variant="light"
                  rightSection={<IconArrowRight size={14} />}
                  loading={convert.isPending && convert.variables === r.id}
                  onClick={() => convert.mutate(r.id)}
                >
                  {kind === "orders" ? t("salesOrders.toInvoice") : t("salesOrders.toOrder")}
                </Button>
              </Group>
            ),
          { invoices: false },
        )}
      />
    </>
  );
}
