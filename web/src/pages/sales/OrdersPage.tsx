import { Button, Group, Modal, SegmentedControl, TextInput } from "@mantine/core";
import { IconArrowRight } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "../../api/client";
import { useCan, useCompany } from "../../auth/session";
import { DataTable } from "../../components/DataTable";
import { DialogForm } from "../../components/DialogForm";
import { notifyError, notifySuccess } from "../../components/notify";
import { PageHeader } from "../../components/PageHeader";
import { invoiceCode } from "./invoiceApi";
import { type InvoiceRow, invoiceColumns } from "./invoiceColumns";

type Kind = "estimates" | "orders";
type Side = "sale" | "purchase";
/** States a document can still be converted from (the server refuses the rest with a 409). */
const CONVERTIBLE = new Set(["borrador", "abierto", "parcial"]);

/** Sales estimates and orders: an estimate becomes an order, an order an invoice (then edited in the editor). */
export const SalesOrdersPage = () => <OrdersPage side="sale" />;
/** The suppliers' estimates and the orders placed with them, converted the same way into a purchase invoice. */
export const PurchaseOrdersPage = () => <OrdersPage side="purchase" />;

async function listOf(
  side: Side,
  kind: Kind,
  companyId: string | null,
): Promise<{ data: InvoiceRow[]; total: number }> {
  const params = { query: { company_id: companyId ?? undefined, limit: 100 } };
  if (side === "sale")
    return kind === "orders"
      ? unwrap(await api.GET("/api/sales/orders", { params }))
      : unwrap(await api.GET("/api/sales/estimates", { params }));
  return kind === "orders"
    ? unwrap(await api.GET("/api/purchases/orders", { params }))
    : unwrap(await api.GET("/api/purchases/estimates", { params }));
}

/** An order becomes a draft invoice (a purchase one carries the supplier's number), an estimate an order. */
async function convertOne(side: Side, kind: Kind, id: string, supplierNumber: string): Promise<InvoiceRow> {
  const params = { path: { id } };
  if (side === "sale")
    return kind === "orders"
      ? unwrap(await api.POST("/api/sales/orders/{id}/convert-to-invoice", { params, body: {} }))
      : unwrap(await api.POST("/api/sales/estimates/{id}/convert-to-order", { params, body: {} }));
  return kind === "orders"
    ? unwrap(
        await api.POST("/api/purchases/orders/{id}/convert-to-invoice", {
          params,
          body: { supplier_number: supplierNumber },
        }),
      )
    : unwrap(await api.POST("/api/purchases/estimates/{id}/convert-to-order", { params, body: {} }));
}

function OrdersPage({ side }: { side: Side }) {
  const { t } = useTranslation();
  const { companyId } = useCompany();
  const client = useQueryClient();
  const navigate = useNavigate();
  const area = side === "sale" ? "sales" : "purchases";
  const canConvert = useCan(`${area}:crear`);
  const [kind, setKind] = useState<Kind>("orders");
  const [invoicing, setInvoicing] = useState<InvoiceRow | null>(null);
  const [supplierNumber, setSupplierNumber] = useState("");
  const list = useQuery({
    queryKey: [`${area}-documents`, kind, companyId],
    enabled: Boolean(companyId),
    queryFn: () => listOf(side, kind, companyId),
  });
  const convert = useMutation({
    mutationFn: (id: string) => convertOne(side, kind, id, supplierNumber.trim()),
    onSuccess: (doc) => {
      setInvoicing(null);
      void client.invalidateQueries({ queryKey: [`${area}-documents`] });
      if (kind === "estimates") {
        notifySuccess(`${t("salesOrders.toOrder")}: ${invoiceCode(doc)}`);
        setKind("orders");
        return;
      }
      void client.invalidateQueries({ queryKey: [`${area}-invoices`] });
      notifySuccess(t("salesOrders.invoiced"));
      if (side === "sale") void navigate({ to: "/sales/invoices/$invoiceId", params: { invoiceId: doc.id } });
      else void navigate({ to: "/purchases/invoices/$invoiceId", params: { invoiceId: doc.id } });
    },
    onError: notifyError,
  });
  const title = side === "sale" ? t("salesOrders.title") : t("salesOrders.purchaseTitle");
  return (
    <>
      <PageHeader
        title={title}
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
            aria-label={title}
          />
        }
      />
      <DataTable
        query={list}
        minWidth={900}
        columns={invoiceColumns(
          t,
          side,
          (r) =>
            canConvert &&
            CONVERTIBLE.has(r.estado) && (
              <Group gap={4} justify="flex-end" wrap="nowrap">
                <Button
                  variant="light"
                  rightSection={<IconArrowRight size={14} />}
                  loading={convert.isPending && convert.variables === r.id}
                  onClick={() => {
                    // The supplier's invoice number is what the purchase invoice is known by: asked first.
                    if (side === "purchase" && kind === "orders") {
                      setSupplierNumber("");
                      setInvoicing(r);
                    } else convert.mutate(r.id);
                  }}
                >
                  {kind === "orders" ? t("salesOrders.toInvoice") : t("salesOrders.toOrder")}
                </Button>
              </Group>
            ),
          { invoices: false },
        )}
      />
      <Modal
        opened={invoicing !== null}
        onClose={() => setInvoicing(null)}
        title={invoicing ? `${t("salesOrders.toInvoice")} ${invoiceCode(invoicing)}` : ""}
        closeButtonProps={{ "aria-label": t("common.close") }}
      >
        <DialogForm
          onSubmit={(e) => {
            e.preventDefault();
            if (invoicing && supplierNumber.trim()) convert.mutate(invoicing.id);
          }}
          onCancel={() => setInvoicing(null)}
          submitting={convert.isPending}
          submitLabel={t("salesOrders.toInvoice")}
        >
          <TextInput
            label={t("salesOrders.supplierNumber")}
            description={t("salesOrders.supplierNumberHint")}
            required
            data-autofocus
            value={supplierNumber}
            onChange={(e) => setSupplierNumber(e.currentTarget.value)}
          />
        </DialogForm>
      </Modal>
    </>
  );
}
