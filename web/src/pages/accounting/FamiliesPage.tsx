import { Checkbox, SimpleGrid, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
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
import { type FamilyValues, familyBody, familyRules } from "../../forms/masters";

type Family = paths["/api/products/families/{id}"]["get"]["responses"]["200"]["content"]["application/json"];

/** Product families: their code groups products, their accounts post their sales and purchases. */
export function FamiliesPage() {
  const { t } = useTranslation();
  const { companyId } = useCompany();
  const account = (v: string | null) => v ?? t("masters.companyDefault");
  return (
    <MasterListPage<Family>
      title={t("masters.families")}
      newLabel={t("masters.newFamily")}
      editLabel={t("masters.editFamily")}
      permissions={{ create: "products:crear", edit: "products:editar" }}
      list={{
        key: ["product-families", companyId],
        enabled: Boolean(companyId),
        searchable: true,
        fetch: async (search) =>
          unwrap(
            await api.GET("/api/products/families", {
              params: { query: masterListQuery(companyId, search) },
            }),
          ),
      }}
      columns={[
        { key: "code", header: t("common.code"), render: (r) => r.code, mono: true, width: 120 },
        { key: "name", header: t("common.name"), render: (r) => r.name },
        {
          key: "sales",
          header: t("masters.salesAccount"),
          render: (r) => account(r.sales_account),
          mono: true,
        },
        {
          key: "purchases",
          header: t("masters.purchasesAccount"),
          render: (r) => account(r.purchases_account),
          mono: true,
        },
      ]}
      rowLabel={(r) => r.code}
      refreshes={["product-families", "products"]}
      form={(props) => <FamilyForm {...props} companyId={companyId} />}
    />
  );
}

function FamilyForm({ companyId, ...props }: MasterFormProps<Family> & { companyId: string | null }) {
  const family = props.record;
  const { t } = useTranslation();
  const form = useForm<FamilyValues>({
    initialValues: {
      code: family?.code ?? "",
      name: family?.name ?? "",
      sales_account: family?.sales_account ?? "",
      purchases_account: family?.purchases_account ?? "",
      is_active: family?.is_active ?? true,
    },
    validate: familyRules(t),
  });
  const dialog = useMasterSave(
    props,
    form,
    async (v) => {
      const body = familyBody(v);
      if (family)
        return unwrap(
          await api.PUT("/api/products/families/{id}", { params: { path: { id: family.id } }, body }),
        );
      return unwrap(
        await api.POST("/api/products/families", { body: { ...body, company_id: companyId ?? undefined } }),
      );
    },
    (f) => f.code,
  );
  return (
    <DialogForm {...dialog}>
      <TextInput label={t("common.code")} required {...form.getInputProps("code")} />
      <TextInput label={t("common.name")} required {...form.getInputProps("name")} />
      <SimpleGrid cols={2}>
        <TextInput
          label={t("masters.salesAccount")}
          placeholder="705"
          description={t("masters.emptyIsDefault")}
          {...form.getInputProps("sales_account")}
        />
        <TextInput
          label={t("masters.purchasesAccount")}
          placeholder="601"
          description={t("masters.emptyIsDefault")}
          {...form.getInputProps("purchases_account")}
        />
      </SimpleGrid>
      <Checkbox label={t("common.active")} {...form.getInputProps("is_active", { type: "checkbox" })} />
    </DialogForm>
  );
}
