import { api, unwrap } from "../../api/client";
import type { operations } from "../../api/generated/api";

type Json<R> = R extends { content: { "application/json": infer B } } ? B : never;

export type Direction = "sale" | "purchase";
export type DueQuery = NonNullable<operations["listCustomerReceipts"]["parameters"]["query"]>;
export type DuePage = Json<operations["listCustomerReceipts"]["responses"][200]>;
export type Due = DuePage["data"][number];
export type DueStatus = Due["status"];
export type DueDetail = Json<operations["getCustomerReceipt"]["responses"][200]>;
export type Payment = DueDetail["payments"][number];
type PayBody = NonNullable<operations["payCustomerReceipt"]["requestBody"]>["content"]["application/json"];
type DuePatch = NonNullable<
  operations["updateCustomerReceipt"]["requestBody"]
>["content"]["application/json"];
export type BudgetLine = Json<operations["listTreasuryBudgetLines"]["responses"][200]>["data"][number];
export type Aging = Json<operations["getAgingReport"]["responses"][200]>;
export type AgingRow = Aging["receivables"]["contacts"][number];
export type Grant = Json<operations["listOAuthGrants"]["responses"][200]>["data"][number];

export const DUE_STATUSES: DueStatus[] = ["vencido", "pendiente", "parcial", "pagado"];
export const DUE_STATUS_COLOR: Record<DueStatus, string> = {
  pendiente: "gray",
  parcial: "yellow",
  pagado: "teal",
  vencido: "red",
};

/** Receipts and payments answer the same shapes; these pick the route of one direction. */
export async function listDues(direction: Direction, query: DueQuery): Promise<DuePage> {
  const params = { query };
  return unwrap(
    direction === "sale"
      ? await api.GET("/api/treasury/customer-receipts", { params })
      : await api.GET("/api/treasury/supplier-payments", { params }),
  );
}

export async function getDue(direction: Direction, id: string): Promise<DueDetail> {
  const params = { path: { id } };
  return unwrap(
    direction === "sale"
      ? await api.GET("/api/treasury/customer-receipts/{id}", { params })
      : await api.GET("/api/treasury/supplier-payments/{id}", { params }),
  );
}

export async function payDue(direction: Direction, id: string, body: PayBody) {
  const params = { path: { id } };
  return unwrap(
    direction === "sale"
      ? await api.POST("/api/treasury/customer-receipts/{id}/pay", { params, body })
      : await api.POST("/api/treasury/supplier-payments/{id}/pay", { params, body }),
  );
}

export async function patchDue(direction: Direction, id: string, body: DuePatch): Promise<DueDetail> {
  const params = { path: { id } };
  return unwrap(
    direction === "sale"
      ? await api.PATCH("/api/treasury/customer-receipts/{id}", { params, body })
      : await api.PATCH("/api/treasury/supplier-payments/{id}", { params, body }),
  );
}

export async function undoPayment(id: string) {
  return unwrap(await api.POST("/api/treasury/payments/{id}/undo", { params: { path: { id } }, body: {} }));
}

/** The company's bank accounts, for the pay dialog and the forecast lines. */
export async function listBankAccounts(companyId: string | null) {
  return unwrap(
    await api.GET("/api/treasury/bank-accounts", {
      params: { query: { company_id: companyId ?? undefined, limit: 100 } },
    }),
  );
}

/** Contacts of one side, for the list's contact filter. */
export async function listContacts(companyId: string | null, type: "customer" | "supplier") {
  return unwrap(
    await api.GET("/api/clients", {
      params: { query: { company_id: companyId ?? undefined, contact_type: type, limit: 500 } },
    }),
  );
}

/** Everything the treasury screens show moves when a payment is made or undone. */
export const TREASURY_KEYS = [["dues"], ["due"], ["aging"], ["cash-flow"]] as const;
