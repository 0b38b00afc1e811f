import { Badge, Button, Checkbox, Group, Modal, Select, SimpleGrid, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { IconPlus } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "../../api/client";
import type { paths } from "../../api/generated/api";
import { ApiError } from "../../api/problem";
import { useCan, useCompany } from "../../auth/session";
import { DataTable } from "../../components/DataTable";
import { DialogForm } from "../../components/DialogForm";
import { notifyError, notifySuccess } from "../../components/notify";
import { PageHeader } from "../../components/PageHeader";
import { problemFieldErrors } from "../../forms/masters";
import {
  decimalForInput,
  type ProductValues,
  productBody,
  productRules,
  VAT_RATES,
} from "../../forms/products";
import { formatMoney } from "../../i18n";
import { useSearchBox } from "./ListPages";

type Product = paths["/api/products/{id}"]["get"]["responses"]["200"]["content"]["application/json"];

/** The company's products (artículos): create, edit with family and VAT rate, deactivate. */
export function ProductsPage() {
  const { t } = useTranslation();
  const { companyId } = useCompany();
  const client = useQueryClient();
  const canCreate = useCan("products:crear");
  const canEdit = useCan("products:editar");
  const canDelete = useCan("products:eliminar");
  const { search, box } = useSearchBox();
  const [editing, setEditing] = useState<Product | "new" | null>(null);
  const query = useQuery({
    queryKey: ["products", companyId, search],
    enabled: Boolean(companyId),
    queryFn: async () =>
      unwrap(
        await api.GET("/api/products", {
          params: {
            query: { company_id: companyId ?? undefined, search, include_inactive: "true", limit: 500 },
          },
        }),
      ),
  });
  const deactivate = useMutation({
    mutationFn: async (id: string) =>
      unwrap(await api.DELETE("/api/products/{id}", { params: { path: { id } } })),
    onSuccess: () => {
      notifySuccess(t("masters.deactivated"));
      void client.invalidateQueries({ queryKey: ["products"] });
    },
    onError: notifyError,
  });
  return (
    <>
      <PageHeader
        title={t("products.title")}
        subtitle={query.data && t("common.results", { count: query.data.total })}
        actions={
          canCreate && (
            <Button leftSection={<IconPlus size={14} />} onClick={() => setEditing("new")}>
              {t("records.newProduct")}
            </Button>
          )
        }
      />
      {box}
      <DataTable
        query={query}
        columns={[
          { key: "ref", header: t("common.code"), render: (r) => r.reference, mono: true, width: 120 },
          { key: "desc", header: t("common.description"), render: (r) => r.description },
          { key: "family", header: t("products.family"), render: (r) => r.family_code ?? "—" },
          { key: "vat", header: t("records.vatRate"), render: (r) => `${r.vat_rate} %`, align: "right" },
          {
            key: "cost",
            header: t("records.costPrice"),
            render: (r) => formatMoney(r.cost_price),
            align: "right",
            mono: true,
          },
          {
            key: "price",
            header: t("products.price"),
            render: (r) => formatMoney(r.sale_price),
            align: "right",
            mono: true,
          },
          {
            key: "active",
            header: t("common.status"),
            width: 100,
            render: (r) => (
              <Badge color={r.is_active ? "teal" : "gray"}>
                {r.is_active ? t("common.active") : t("common.inactive")}
              </Badge>
            ),
          },
          {
            key: "actions",
            header: "",
            align: "right",
            render: (r) => (
              <Group gap={4} justify="flex-end" wrap="nowrap">
                {canEdit && (
                  <Button
                    variant="subtle"
                    onClick={() => setEditing(r)}
                    aria-label={`${t("common.edit")} ${r.reference}`}
                  >
                    {t("common.edit")}
                  </Button>
                )}
                {canDelete && r.is_active && (
                  <Button
                    variant="subtle"
                    color="red"
                    loading={deactivate.isPending && deactivate.variables === r.id}
                    onClick={() => deactivate.mutate(r.id)}
                    aria-label={`${t("users.deactivate")} ${r.reference}`}
                  >
                    {t("users.deactivate")}
                  </Button>
                )}
              </Group>
            ),
          },
        ]}
      />
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        closeButtonProps={{ "aria-label": t("common.close") }}
        title={editing === "new" ? t("records.newProduct") : t("records.editProduct")}
        size="lg"
      >
        {editing !== null && (
          <ProductForm
            product={editing === "new" ? null : editing}
            companyId={companyId}
            onDone={() => {
              setEditing(null);
              void client.invalidateQueries({ queryKey: ["products"] });
            }}
            onCancel={() => setEditing(null)}
          />
        )}
      </Modal>
    </>
  );
}

function ProductForm({
  product,
  companyId,
  onDone,
  onCancel,
}: {
  product: Product | null;
  companyId: string | null;
  onDone: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const families = useQuery({
    queryKey: ["families", companyId, "select"],
    enabled: Boolean(companyId),
    queryFn: async () =>
      unwrap(
        await api.GET("/api/products/families", {
          params: { query: { company_id: companyId ?? undefined, limit: 1000 } },
        }),
      ),
  });
  const form = useForm<ProductValues>({
    initialValues: {
      reference: product?.reference ?? "",
      description: product?.description ?? "",
      family_code: product?.family_code ?? "",
      sale_price: decimalForInput(product?.sale_price),
      cost_price: decimalForInput(product?.cost_price),
      vat_rate: product?.vat_rate ?? "21",
      is_active: product?.is_active ?? true,
    },
    validate: productRules(t),
  });
  const save = useMutation({
    mutationFn: async (v: ProductValues) => {
      const body = productBody(v);
      if (product)
        return unwrap(await api.PUT("/api/products/{id}", { params: { path: { id: product.id } }, body }));
      return unwrap(
        await api.POST("/api/products", { body: { ...body, company_id: companyId ?? undefined } }),
      );
    },
    onSuccess: (p) => {
      notifySuccess(`${t("common.saved")}: ${p.reference}`);
      onDone();
    },
    onError: (error) => {
      if (error instanceof ApiError)
        form.setErrors(problemFieldErrors(error.problem.errors, Object.keys(form.values)));
      notifyError(error);
    },
  });
  const familyOptions = (families.data?.data ?? []).map((f) => ({
    value: f.code,
    label: `${f.code} · ${f.name}`,
  }));
  return (
    <DialogForm
      onSubmit={form.onSubmit((v) => save.mutate(v))}
      onCancel={onCancel}
      submitting={save.isPending}
      submitLabel={product ? t("common.save") : t("common.create")}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label={t("common.code")} required {...form.getInputProps("reference")} />
        <Select
          label={t("products.family")}
          data={familyOptions}
          placeholder={t("records.noFamily")}
          clearable
          searchable
          disabled={families.isLoading}
          value={form.values.family_code || null}
          onChange={(v) => form.setFieldValue("family_code", v ?? "")}
          error={families.isError ? t("records.familiesFailed") : form.errors.family_code}
        />
      </SimpleGrid>
      <TextInput label={t("common.description")} required {...form.getInputProps("description")} />
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <TextInput
          label={`${t("products.price")} (€)`}
          inputMode="decimal"
          placeholder="0,00"
          {...form.getInputProps("sale_price")}
        />
        <TextInput
          label={`${t("records.costPrice")} (€)`}
          inputMode="decimal"
          placeholder="0,00"
          {...form.getInputProps("cost_price")}
        />
        <Select
          label={t("records.vatRate")}
          data={VAT_RATES.map((value) => ({ value, label: `${value} %` }))}
          allowDeselect={false}
          {...form.getInputProps("vat_rate")}
        />
      </SimpleGrid>
      <Checkbox label={t("common.active")} {...form.getInputProps("is_active", { type: "checkbox" })} />
    </DialogForm>
  );
}
