import { Checkbox, Group, SimpleGrid, Stack, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "../../api/client";
import type { paths } from "../../api/generated/api";
import { useCan } from "../../auth/session";
import { DialogForm } from "../../components/DialogForm";
import { type MasterFormProps, MasterListPage, useMasterSave } from "../../components/MasterListPage";
import { addressValues, type CompanyValues, companyBody, companyRules } from "../../forms/contacts";
import { AddressFields } from "./AddressFields";
import { CompanyLogo } from "./CompanyLogo";

type Company = paths["/api/companies/{id}"]["get"]["responses"]["200"]["content"]["application/json"];

/** The tenant's companies: their fiscal data, printed on documents, and the letterhead logo. */
export function CompaniesPage() {
  const { t } = useTranslation();
  const canEdit = useCan("companies:editar");
  return (
    <MasterListPage<Company>
      title={t("companies.title")}
      newLabel={t("companies.new")}
      editLabel={t("companies.edit")}
      permissions={{ create: "companies:crear", edit: "companies:editar" }}
      list={{
        key: ["companies", "page"],
        fetch: async () =>
          unwrap(
            await api.GET("/api/companies", { params: { query: { limit: 200, include_inactive: "true" } } }),
          ),
      }}
      columns={[
        { key: "name", header: t("common.name"), render: (r) => r.name },
        { key: "legal", header: t("records.legalName"), render: (r) => r.legal_name || "—" },
        { key: "tax", header: t("contacts.taxId"), render: (r) => r.tax_id, mono: true },
        {
          key: "city",
          header: t("records.city"),
          render: (r) => [r.city, r.province].filter(Boolean).join(", ") || "—",
        },
        { key: "currency", header: t("companies.currency"), render: (r) => r.currency, mono: true },
      ]}
      statusWidth={100}
      rowLabel={(r) => r.name}
      dialogSize="lg"
      form={(props) => (
        <Stack gap="md">
          <CompanyForm {...props} />
          {props.record && <CompanyLogo companyId={props.record.id} canEdit={canEdit} />}
        </Stack>
      )}
    />
  );
}

function CompanyForm(props: MasterFormProps<Company>) {
  const company = props.record;
  const { t } = useTranslation();
  const form = useForm<CompanyValues>({
    initialValues: {
      name: company?.name ?? "",
      legal_name: company?.legal_name ?? "",
      tax_id: company?.tax_id ?? "",
      ...addressValues(company),
      currency: company?.currency ?? "EUR",
      is_active: company?.is_active ?? true,
    },
    validate: companyRules(t),
  });
  const dialog = useMasterSave(
    props,
    form,
    async (v) => {
      const body = companyBody(v);
      if (company)
        return unwrap(await api.PUT("/api/companies/{id}", { params: { path: { id: company.id } }, body }));
      return unwrap(await api.POST("/api/companies", { body }));
    },
    (c) => c.name,
  );
  return (
    <DialogForm {...dialog}>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label={t("common.name")} required {...form.getInputProps("name")} />
        <TextInput label={t("contacts.taxId")} required {...form.getInputProps("tax_id")} />
      </SimpleGrid>
      <TextInput label={t("records.legalName")} {...form.getInputProps("legal_name")} />
      <AddressFields inputProps={(field) => form.getInputProps(field)} />
      <Group grow>
        <TextInput label={t("companies.currency")} maxLength={3} {...form.getInputProps("currency")} />
        <Checkbox
          mt="lg"
          label={t("common.active")}
          {...form.getInputProps("is_active", { type: "checkbox" })}
        />
      </Group>
    </DialogForm>
  );
}
