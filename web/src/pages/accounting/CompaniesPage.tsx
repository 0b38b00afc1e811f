import { Badge, Button, Checkbox, Group, Modal, SimpleGrid, Stack, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { IconPlus } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "../../api/client";
import type { paths } from "../../api/generated/api";
import { ApiError } from "../../api/problem";
import { useCan } from "../../auth/session";
import { DataTable } from "../../components/DataTable";
import { DialogForm } from "../../components/DialogForm";
import { notifyError, notifySuccess } from "../../components/notify";
import { PageHeader } from "../../components/PageHeader";
import { type CompanyValues, companyBody, companyRules } from "../../forms/contacts";
import { problemFieldErrors } from "../../forms/masters";
import { CompanyLogo } from "./CompanyLogo";

type Company = paths["/api/companies/{id}"]["get"]["responses"]["200"]["content"]["application/json"];

/** The tenant's companies: their fiscal data, printed on documents, and the letterhead logo. */
export function CompaniesPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const canCreate = useCan("companies:crear");
  const canEdit = useCan("companies:editar");
  const [editing, setEditing] = useState<Company | "new" | null>(null);
  const query = useQuery({
    queryKey: ["companies", "page"],
    queryFn: async () =>
      unwrap(
        await api.GET("/api/companies", { params: { query: { limit: 200, include_inactive: "true" } } }),
      ),
  });
  return (
    <>
      <PageHeader
        title={t("companies.title")}
        subtitle={query.data && t("common.results", { count: query.data.total })}
        actions={
          canCreate && (
            <Button leftSection={<IconPlus size={14} />} onClick={() => setEditing("new")}>
              {t("companies.new")}
            </Button>
          )
        }
      />
      <DataTable
        query={query}
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
            render: (r) =>
              canEdit && (
                <Button
                  variant="subtle"
                  onClick={() => setEditing(r)}
                  aria-label={`${t("common.edit")} ${r.name}`}
                >
                  {t("common.edit")}
                </Button>
              ),
          },
        ]}
      />
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        closeButtonProps={{ "aria-label": t("common.close") }}
        title={editing === "new" ? t("companies.new") : t("companies.edit")}
        size="lg"
      >
        {editing !== null && (
          <Stack gap="md">
            <CompanyForm
              company={editing === "new" ? null : editing}
              onDone={() => {
                setEditing(null);
                void client.invalidateQueries({ queryKey: ["companies"] });
              }}
              onCancel={() => setEditing(null)}
            />
            {editing !== "new" && <CompanyLogo companyId={editing.id} canEdit={canEdit} />}
          </Stack>
        )}
      </Modal>
    </>
  );
}

function CompanyForm({
  company,
  onDone,
  onCancel,
}: {
  company: Company | null;
  onDone: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const form = useForm<CompanyValues>({
    initialValues: {
      name: company?.name ?? "",
      legal_name: company?.legal_name ?? "",
      tax_id: company?.tax_id ?? "",
      address: company?.address ?? "",
      city: company?.city ?? "",
      postal_code: company?.postal_code ?? "",
      province: company?.province ?? "",
      country: company?.country ?? "ES",
      currency: company?.currency ?? "EUR",
      is_active: company?.is_active ?? true,
    },
    validate: companyRules(t),
  });
  const save = useMutation({
    mutationFn: async (v: CompanyValues) => {
      const body = companyBody(v);
      if (company)
        return unwrap(await api.PUT("/api/companies/{id}", { params: { path: { id: company.id } }, body }));
      return unwrap(await api.POST("/api/companies", { body }));
    },
    onSuccess: (c) => {
      notifySuccess(`${t("common.saved")}: ${c.name}`);
      onDone();
    },
    onError: (error) => {
      if (error instanceof ApiError)
        form.setErrors(problemFieldErrors(error.problem.errors, Object.keys(form.values)));
      notifyError(error);
    },
  });
  return (
    <DialogForm
      onSubmit={form.onSubmit((v) => save.mutate(v))}
      onCancel={onCancel}
      submitting={save.isPending}
      submitLabel={company ? t("common.save") : t("common.create")}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label={t("common.name")} required {...form.getInputProps("name")} />
        <TextInput label={t("contacts.taxId")} required {...form.getInputProps("tax_id")} />
      </SimpleGrid>
      <TextInput label={t("records.legalName")} {...form.getInputProps("legal_name")} />
      <TextInput label={t("records.address")} {...form.getInputProps("address")} />
      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        <TextInput label={t("records.postalCode")} {...form.getInputProps("postal_code")} />
        <TextInput label={t("records.city")} {...form.getInputProps("city")} />
        <TextInput label={t("records.province")} {...form.getInputProps("province")} />
        <TextInput label={t("records.country")} maxLength={2} {...form.getInputProps("country")} />
      </SimpleGrid>
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
