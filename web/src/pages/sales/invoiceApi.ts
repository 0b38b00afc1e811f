import { api, unwrap } from "../../api/client";
import type { paths } from "../../api/generated/api";
import type { InvoiceLineBody } from "../../forms/invoice";

/** Sales (customer) or purchase (supplier) invoices: the same editor, two sets of routes. */
export type Direction = "sale" | "purchase";

type SalesInvoice = paths["/api/sales/invoices/{id}"]["get"]["responses"][200]["content"]["application/json"];
type PurchaseInvoice =
  paths["/api/purchases/invoices/{id}"]["get"]["responses"][200]["content"]["application/json"];
export type InvoicePreview =
  paths["/api/sales/invoices/preview"]["post"]["responses"][200]["content"]["application/json"];
/** An invoice of either direction, its contact id under one name. */
export type Invoice = Omit<SalesInvoice, "client_id"> & { contact_id: string };

export interface InvoiceBody {
  company_id?: string;
  contact_id: string;
  series?: string;
  date?: string;
  operation_date?: string | null;
  supplier_number?: string;
  notes?: string;
  lines: InvoiceLineBody[];
}

const fromSales = ({ client_id, ...rest }: SalesInvoice): Invoice => ({ ...rest, contact_id: client_id });
const fromPurchases = ({ supplier_id, ...rest }: PurchaseInvoice): Invoice => ({
  ...rest,
  contact_id: supplier_id,
});

/** The wire name of the contact: client_id (sales) or supplier_id (purchases). */
export const contactField = (d: Direction) => (d === "sale" ? "client_id" : "supplier_id");

export const invoiceListPath = (d: Direction) => (d === "sale" ? "/sales/invoices" : "/purchases/invoices");

export async function previewInvoice(
  d: Direction,
  b: Pick<InvoiceBody, "company_id" | "contact_id" | "lines">,
): Promise<InvoicePreview> {
  const body = { company_id: b.company_id, lines: b.lines };
  return d === "sale"
    ? unwrap(await api.POST("/api/sales/invoices/preview", { body: { ...body, client_id: b.contact_id } }))
    : unwrap(
        await api.POST("/api/purchases/invoices/preview", { body: { ...body, supplier_id: b.contact_id } }),
      );
}

export async function getInvoice(d: Direction, id: string): Promise<Invoice> {
  const params = { path: { id } };
  return d === "sale"
    ? fromSales(unwrap(await api.GET("/api/sales/invoices/{id}", { params })))
    : fromPurchases(unwrap(await api.GET("/api/purchases/invoices/{id}", { params })));
}

export async function saveInvoice(d: Direction, id: string | null, b: InvoiceBody): Promise<Invoice> {
  const { contact_id, supplier_number, ...common } = b;
  if (d === "sale") {
    const body = { ...common, client_id: contact_id };
    return fromSales(
      unwrap(
        id
          ? await api.PATCH("/api/sales/invoices/{id}", { params: { path: { id } }, body })
          : await api.POST("/api/sales/invoices", { body }),
      ),
    );
  }
  const body = { ...common, supplier_id: contact_id, supplier_number: supplier_number ?? "" };
  return fromPurchases(
    unwrap(
      id
        ? await api.PATCH("/api/purchases/invoices/{id}", { params: { path: { id } }, body })
        : await api.POST("/api/purchases/invoices", { body }),
    ),
  );
}

export async function issueSalesInvoice(id: string): Promise<Invoice> {
  return fromSales(
    unwrap(await api.POST("/api/sales/invoices/{id}/issue", { params: { path: { id } }, body: {} })),
  );
}

export const invoiceCode = (r: { code: string | null; series: string; number: number | null }) =>
  r.code ?? (r.number ? `${r.series}-${r.number}` : "—");

/** Approves a pending purchase invoice (it is posted) or rejects it with a reason. */
export async function decidePurchaseInvoice(
  id: string,
  decision: { reject: string } | "approve",
): Promise<Invoice> {
  const params = { path: { id } };
  return fromPurchases(
    unwrap(
      decision === "approve"
        ? await api.POST("/api/purchases/invoices/{id}/approve", { params })
        : await api.POST("/api/purchases/invoices/{id}/reject", {
            params,
            body: { reason: decision.reject },
          }),
    ),
  );
}
