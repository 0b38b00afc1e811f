import { Badge } from "@mantine/core";
import { Link } from "@tanstack/react-router";
import type { ReactNode } from "react";
import type { Column } from "../../components/DataTable";
import { formatDate, formatMoney } from "../../i18n";
import { type Direction, invoiceCode } from "./invoiceApi";

export const INVOICE_STATE_COLOR: Record<string, string> = {
  borrador: "gray",
  emitida: "blue",
  pendiente: "yellow",
  aprobada: "teal",
  rechazada: "red",
};

/** The fields of a list row both directions (and estimates and orders) share. */
export interface InvoiceRow {
  id: string;
  code: string | null;
  series: string;
  number: number | null;
  supplier_number: string | null;
  date: string;
  estado: string;
  payment_status: string | null;
  contact: { name: string };
  totals: { net: string; total: string };
}

type T = (key: string) => string;

/**
 * The columns of the sales and the supplier invoice lists: number (a link to the editor; the
 * supplier's own number for purchases), date, contact, state, payment, base, total, then the
 * list's own actions.
 */
export function invoiceColumns<R extends InvoiceRow>(
  t: T,
  direction: Direction,
  actions: (row: R) => ReactNode,
  /** Estimates and orders: no editor to link to, no payment. */
  opts: { invoices: boolean } = { invoices: true },
): Column<R>[] {
  const sale = direction === "sale";
  const number = (r: R) => (sale ? invoiceCode(r) : (r.supplier_number ?? invoiceCode(r)));
  const columns: Column<R>[] = [
    {
      key: "code",
      header: t("invoices.number"),
      mono: true,
      render: (r) =>
        !opts.invoices ? (
          number(r)
        ) : (
          <Link
            className="cell-link"
            // Both paths take the same params; the union would lose them.
            to={
              (sale
                ? "/sales/invoices/$invoiceId"
                : "/purchases/invoices/$invoiceId") as "/sales/invoices/$invoiceId"
            }
            params={{ invoiceId: r.id }}
          >
            {number(r)}
          </Link>
        ),
    },
    { key: "date", header: t("common.date"), render: (r) => formatDate(r.date) },
    {
      key: "contact",
      header: sale ? t("invoices.client") : t("invoices.supplier"),
      render: (r) => r.contact.name,
    },
    {
      key: "estado",
      header: t("common.status"),
      render: (r) => <Badge color={INVOICE_STATE_COLOR[r.estado] ?? "gray"}>{r.estado}</Badge>,
    },
    {
      key: "paid",
      header: t("invoiceEditor.payment"),
      render: (r) => r.payment_status && <Badge variant="outline">{r.payment_status}</Badge>,
    },
    {
      key: "base",
      header: t("invoices.base"),
      render: (r) => formatMoney(r.totals.net),
      align: "right",
      mono: true,
    },
    {
      key: "total",
      header: t("common.total"),
      render: (r) => formatMoney(r.totals.total),
      align: "right",
      mono: true,
    },
    { key: "actions", header: "", align: "right", render: actions },
  ];
  return opts.invoices ? columns : columns.filter((c) => c.key !== "paid");
}
