import { Checkbox, Select, SimpleGrid, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "../../api/client";
import type { paths } from "../../api/generated/api";
import { useCompany } from "../../auth/session";
import { DialogForm } from "../../components/DialogForm";
import {
  type MasterFormProps,
  MasterListPage,
  masterListQuery,
  useMasterSave,
} from "../../components/MasterListPage";
import {
  decimalForInput,
  type ProductValues,
  productBody,
  productRules,
  VAT_RATES,
} from "../../forms/products";
import { formatMoney } from "../../i18n";

type Product = paths["/api/products/{id}"]["get"]["responses"]["200"]["content"]["application/json"];

/** The company's products (artículos): create, edit with family and VAT rate, deactivate. */
export function ProductsPage() {
  const { t } = useTranslation();
  const { companyId } = useCompany();
  return (
    <MasterListPage<Product>
      title={t("products.title")}
      newLabel={t("records.newProduct")}
      editLabel={t("records.editProduct")}
      permissions={{ create: "products:crear", edit: "products:editar", deactivate: "products:eliminar" }}
      list={{
        key: ["products", companyId],
        enabled: Boolean(companyId),
        searchable: true,
        fetch: async (search) =>
          unwrap(await api.GET("/api/products", { params: { query: masterListQuery(companyId, search) } })),
      }}
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
      ]}
      statusWidth={100}
      rowLabel={(r) => r.reference}
      deactivate={async (id) => unwrap(await api.DELETE("/api/products/{id}", { params: { path: { id } } }))}
      dialogSize="lg"
      form={(props) => <ProductForm {...props} companyId={companyId} />}
    />
  );
}

function ProductForm({ companyId, ...props }: MasterFormProps<Product> & { companyId: string | null }) {
  const product = props.record;
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
  const dialog = useMasterSave(
    props,
    form,
    async (v) => {
      const body = productBody(v);
      if (product)
        return unwrap(await api.PUT("/api/products/{id}", { params: { path: { id: product.id } }, body }));
      return unwrap(
        await api.POST("/api/products", { body: { ...body, company_id: companyId ?? undefined } }),
      );
    },
    (p) => p.reference,
  );
  const familyOptions = (families.data?.data ?? []).map((f) => ({
    value: f.code,
    label: `${f.code} · ${f.name}`,
  }));
  return (
    <DialogForm {...dialog}>
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
