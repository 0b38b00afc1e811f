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
import {
  CONTACT_TYPES,
  type ContactValues,
  contactBody,
  contactRules,
  TAX_REGIMES,
} from "../../forms/contacts";
import { problemFieldErrors } from "../../forms/masters";
import { useSearchBox } from "./ListPages";

type Contact = paths["/api/clients/{id}"]["get"]["responses"]["200"]["content"]["application/json"];

/** Customers and suppliers of the company: create, edit, deactivate. */
export function ContactsPage() {
  const { t } = useTranslation();
  const { companyId } = useCompany();
  const client = useQueryClient();
  const canCreate = useCan("clients:crear");
  const canEdit = useCan("clients:editar");
  const canDelete = useCan("clients:eliminar");
  const { search, box } = useSearchBox();
  const [editing, setEditing] = useState<Contact | "new" | null>(null);
  const query = useQuery({
    queryKey: ["clients", companyId, search],
    enabled: Boolean(companyId),
    queryFn: async () =>
      unwrap(
        await api.GET("/api/clients", {
          params: {
            query: { company_id: companyId ?? undefined, search, include_inactive: "true", limit: 500 },
          },
        }),
      ),
  });
  const deactivate = useMutation({
    mutationFn: async (id: string) =>
      unwrap(await api.DELETE("/api/clients/{id}", { params: { path: { id } } })),
    onSuccess: () => {
      notifySuccess(t("masters.deactivated"));
      void client.invalidateQueries({ queryKey: ["clients"] });
    },
    onError: notifyError,
  });
  return (
    <>
      <PageHeader
        title={t("contacts.title")}
        subtitle={query.data && t("common.results", { count: query.data.total })}
        actions={
          canCreate && (
            <Button leftSection={<IconPlus size={14} />} onClick={() => setEditing("new")}>
              {t("records.newContact")}
            </Button>
          )
        }
      />
      {box}
      <DataTable
        query={query}
        columns={[
          { key: "code", header: t("common.code"), render: (r) => r.code, mono: true, width: 90 },
          { key: "name", header: t("common.name"), render: (r) => r.name },
          { key: "tax", header: t("contacts.taxId"), render: (r) => r.tax_id ?? "—", mono: true },
          {
            key: "type",
            header: t("records.contactType"),
            width: 170,
            render: (r) => (
              <Badge color={r.contact_type === "supplier" ? "grape" : "indigo"} variant="light">
                {t(`records.types.${r.contact_type}`)}
              </Badge>
            ),
          },
          { key: "email", header: t("contacts.email"), render: (r) => r.email || "—" },
          {
            key: "phone",
            header: t("contacts.phone"),
            render: (r) => <span style={{ whiteSpace: "nowrap" }}>{r.phone || "—"}</span>,
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
                    aria-label={`${t("common.edit")} ${r.code}`}
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
                    aria-label={`${t("users.deactivate")} ${r.code}`}
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
        title={editing === "new" ? t("records.newContact") : t("records.editContact")}
        size="lg"
      >
        {editing !== null && (
          <ContactForm
            contact={editing === "new" ? null : editing}
            companyId={companyId}
            onDone={() => {
              setEditing(null);
              void client.invalidateQueries({ queryKey: ["clients"] });
            }}
            onCancel={() => setEditing(null)}
          />
        )}
      </Modal>
    </>
  );
}

function ContactForm({
  contact,
  companyId,
  onDone,
  onCancel,
}: {
  contact: Contact | null;
  companyId: string | null;
  onDone: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const canListAgents = useCan("agents:leer");
  const agents = useQuery({
    queryKey: ["agents", companyId, "select"],
    enabled: canListAgents && Boolean(companyId),
    queryFn: async () =>
      unwrap(
        await api.GET("/api/agents", {
          params: { query: { company_id: companyId ?? undefined, limit: 500 } },
        }),
      ),
  });
  const form = useForm<ContactValues>({
    initialValues: {
      contact_type: contact?.contact_type ?? "customer",
      code: contact?.code ?? "",
      name: contact?.name ?? "",
      legal_name: contact?.legal_name ?? "",
      tax_id: contact?.tax_id ?? "",
      email: contact?.email ?? "",
      phone: contact?.phone ?? "",
      address: contact?.address ?? "",
      city: contact?.city ?? "",
      postal_code: contact?.postal_code ?? "",
      province: contact?.province ?? "",
      country: contact?.country ?? "ES",
      payment_terms_days: String(contact?.payment_terms_days ?? 30),
      payment_days: contact?.payment_days.join(", ") ?? "",
      tax_regime: contact?.tax_regime ?? "general",
      agent_id: contact?.agent_id ?? "",
      is_active: contact?.is_active ?? true,
    },
    validate: contactRules(t),
  });
  const save = useMutation({
    mutationFn: async (v: ContactValues) => {
      const body = contactBody(v);
      if (contact)
        return unwrap(await api.PUT("/api/clients/{id}", { params: { path: { id: contact.id } }, body }));
      return unwrap(
        await api.POST("/api/clients", { body: { ...body, company_id: companyId ?? undefined } }),
      );
    },
    onSuccess: (c) => {
      notifySuccess(`${t("common.saved")}: ${c.code} ${c.name}`);
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
      submitLabel={contact ? t("common.save") : t("common.create")}
    >
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Select
          label={t("records.contactType")}
          data={CONTACT_TYPES.map((value) => ({ value, label: t(`records.types.${value}`) }))}
          allowDeselect={false}
          {...form.getInputProps("contact_type")}
        />
        <TextInput
          label={t("common.code")}
          description={contact ? undefined : t("records.codeGenerated")}
          {...form.getInputProps("code")}
        />
        <TextInput label={t("contacts.taxId")} {...form.getInputProps("tax_id")} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label={t("common.name")} required {...form.getInputProps("name")} />
        <TextInput label={t("records.legalName")} {...form.getInputProps("legal_name")} />
        <TextInput label={t("contacts.email")} type="email" {...form.getInputProps("email")} />
        <TextInput label={t("contacts.phone")} {...form.getInputProps("phone")} />
      </SimpleGrid>
      <TextInput label={t("records.address")} {...form.getInputProps("address")} />
      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        <TextInput label={t("records.postalCode")} {...form.getInputProps("postal_code")} />
        <TextInput label={t("records.city")} {...form.getInputProps("city")} />
        <TextInput label={t("records.province")} {...form.getInputProps("province")} />
        <TextInput label={t("records.country")} maxLength={2} {...form.getInputProps("country")} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <TextInput
          label={t("records.paymentTerms")}
          inputMode="numeric"
          {...form.getInputProps("payment_terms_days")}
        />
        <TextInput
          label={t("records.paymentDays")}
          description={t("records.paymentDaysHint")}
          {...form.getInputProps("payment_days")}
        />
        <Select
          label={t("records.taxRegime")}
          data={TAX_REGIMES.map((value) => ({ value, label: t(`records.regimes.${value}`) }))}
          allowDeselect={false}
          {...form.getInputProps("tax_regime")}
        />
      </SimpleGrid>
      {canListAgents && (
        <Select
          label={t("records.agent")}
          placeholder={t("records.noAgent")}
          data={(agents.data?.data ?? []).map((a) => ({ value: a.id, label: `${a.code} · ${a.name}` }))}
          clearable
          searchable
          disabled={agents.isLoading}
          value={form.values.agent_id || null}
          onChange={(v) => form.setFieldValue("agent_id", v ?? "")}
          error={agents.isError ? t("records.agentsFailed") : form.errors.agent_id}
        />
      )}
      <Checkbox label={t("common.active")} {...form.getInputProps("is_active", { type: "checkbox" })} />
    </DialogForm>
  );
}
