import { Badge, Button, Checkbox, Modal, SimpleGrid, TextInput } from "@mantine/core";
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
import { type FamilyValues, familyBody, familyRules, problemFieldErrors } from "../../forms/masters";
import { useSearchBox } from "./ListPages";

type Family = paths["/api/products/families/{id}"]["get"]["responses"]["200"]["content"]["application/json"];

/** Product families: their code groups products, their accounts post their sales and purchases. */
export function FamiliesPage() {
  const { t } = useTranslation();
  const { companyId } = useCompany();
  const client = useQueryClient();
  const canCreate = useCan("products:crear");
  const canEdit = useCan("products:editar");
  const { search, box } = useSearchBox();
  const [editing, setEditing] = useState<Family | "new" | null>(null);
  const query = useQuery({
    queryKey: ["product-families", companyId, search],
    enabled: Boolean(companyId),
    queryFn: async () =>
      unwrap(
        await api.GET("/api/products/families", {
          params: {
            query: { company_id: companyId ?? undefined, search, include_inactive: "true", limit: 500 },
          },
        }),
      ),
  });
  const account = (v: string | null) => v ?? t("masters.companyDefault");
  return (
    <>
      <PageHeader
        title={t("masters.families")}
        subtitle={query.data && t("common.results", { count: query.data.total })}
        actions={
          canCreate && (
            <Button leftSection={<IconPlus size={14} />} onClick={() => setEditing("new")}>
              {t("masters.newFamily")}
            </Button>
          )
        }
      />
      {box}
      <DataTable
        query={query}
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
          {
            key: "active",
            header: t("common.status"),
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
                  aria-label={`${t("common.edit")} ${r.code}`}
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
        title={editing === "new" ? t("masters.newFamily") : t("masters.editFamily")}
      >
        {editing !== null && (
          <FamilyForm
            family={editing === "new" ? null : editing}
            companyId={companyId}
            onDone={() => {
              setEditing(null);
              void client.invalidateQueries({ queryKey: ["product-families"] });
              void client.invalidateQueries({ queryKey: ["products"] });
            }}
            onCancel={() => setEditing(null)}
          />
        )}
      </Modal>
    </>
  );
}

function FamilyForm({
  family,
  companyId,
  onDone,
  onCancel,
}: {
  family: Family | null;
  companyId: string | null;
  onDone: () => void;
  onCancel: () => void;
}) {
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
  const save = useMutation({
    mutationFn: async (v: FamilyValues) => {
      const body = familyBody(v);
      if (family)
        return unwrap(
          await api.PUT("/api/products/families/{id}", { params: { path: { id: family.id } }, body }),
        );
      return unwrap(
        await api.POST("/api/products/families", { body: { ...body, company_id: companyId ?? undefined } }),
      );
    },
    onSuccess: (f) => {
      notifySuccess(`${t("common.saved")}: ${f.code}`);
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
      submitLabel={family ? t("common.save") : t("common.create")}
    >
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
