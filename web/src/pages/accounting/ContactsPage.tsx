import { Badge, Checkbox, Select, SimpleGrid, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "../../api/client";
import type { paths } from "../../api/generated/api";
import { useCan, useCompany } from "../../auth/session";
import { DialogForm } from "../../components/DialogForm";
import {
  type MasterFormProps,
  MasterListPage,
  masterListQuery,
  useMasterSave,
} from "../../components/MasterListPage";
import {
  addressValues,
  CONTACT_TYPES,
  type ContactValues,
  contactBody,
  contactRules,
  TAX_REGIMES,
} from "../../forms/contacts";
import { AddressFields } from "./AddressFields";

type Contact = paths["/api/clients/{id}"]["get"]["responses"]["200"]["content"]["application/json"];

/** Customers and suppliers of the company: create, edit, deactivate. */
export function ContactsPage() {
  const { t } = useTranslation();
  const { companyId } = useCompany();
  return (
    <MasterListPage<Contact>
      title={t("contacts.title")}
      newLabel={t("records.newContact")}
      editLabel={t("records.editContact")}
      permissions={{ create: "clients:crear", edit: "clients:editar", deactivate: "clients:eliminar" }}
      list={{
        key: ["clients", companyId],
        enabled: Boolean(companyId),
        searchable: true,
        fetch: async (search) =>
          unwrap(await api.GET("/api/clients", { params: { query: masterListQuery(companyId, search) } })),
      }}
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
      ]}
      statusWidth={100}
      rowLabel={(r) => r.code}
      deactivate={async (id) => unwrap(await api.DELETE("/api/clients/{id}", { params: { path: { id } } }))}
      dialogSize="lg"
      form={(props) => <ContactForm {...props} companyId={companyId} />}
    />
  );
}

function ContactForm({ companyId, ...props }: MasterFormProps<Contact> & { companyId: string | null }) {
  const contact = props.record;
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
      ...addressValues(contact),
      payment_terms_days: String(contact?.payment_terms_days ?? 30),
      payment_days: contact?.payment_days.join(", ") ?? "",
      tax_regime: contact?.tax_regime ?? "general",
      agent_id: contact?.agent_id ?? "",
      is_active: contact?.is_active ?? true,
    },
    validate: contactRules(t),
  });
  const dialog = useMasterSave(
    props,
    form,
    async (v) => {
      const body = contactBody(v);
      if (contact)
        return unwrap(await api.PUT("/api/clients/{id}", { params: { path: { id: contact.id } }, body }));
      return unwrap(
        await api.POST("/api/clients", { body: { ...body, company_id: companyId ?? undefined } }),
      );
    },
    (c) => `${c.code} ${c.name}`,
  );
  return (
    <DialogForm {...dialog}>
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
      <AddressFields inputProps={(field) => form.getInputProps(field)} />
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
