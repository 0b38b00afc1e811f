import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { Direction } from "./invoiceApi";

const LONG = 300_000;

/** What the editor's pickers offer: the company's contacts of the direction, products, tax codes, series. */
export function useInvoiceReferences(direction: Direction, companyId: string | null) {
  const company = companyId ?? undefined;
  const enabled = Boolean(companyId);
  const contacts = useQuery({
    queryKey: ["contacts", companyId, direction],
    enabled,
    staleTime: LONG,
    queryFn: async () =>
      unwrap(
        await api.GET("/api/clients", {
          params: {
            query: {
              company_id: company,
              contact_type: direction === "sale" ? "customer" : "supplier",
              limit: 2000,
            },
          },
        }),
      ).data,
  });
  const products = useQuery({
    queryKey: ["products", companyId, "picker"],
    enabled,
    staleTime: LONG,
    queryFn: async () =>
      unwrap(await api.GET("/api/products", { params: { query: { company_id: company, limit: 2000 } } }))
        .data,
  });
  const taxes = useQuery({
    queryKey: ["tax-codes", companyId],
    enabled,
    staleTime: LONG,
    queryFn: async () =>
      unwrap(await api.GET("/api/taxes", { params: { query: { company_id: company, limit: 1000 } } })).data,
  });
  const series = useQuery({
    queryKey: ["series", companyId, "general"],
    enabled,
    staleTime: LONG,
    queryFn: async () =>
      unwrap(await api.GET("/api/series", { params: { query: { company_id: company, kind: "general" } } }))
        .data,
  });
  return { contacts, products, taxes, series };
}

export type InvoiceReferences = ReturnType<typeof useInvoiceReferences>;
export type TaxCode = NonNullable<InvoiceReferences["taxes"]["data"]>[number];
export type Product = NonNullable<InvoiceReferences["products"]["data"]>[number];
