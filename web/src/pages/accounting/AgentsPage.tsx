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
import { type AgentValues, agentBody, agentRules } from "../../forms/masters";
import { formatNumber } from "../../i18n";

type Agent = paths["/api/agents/{id}"]["get"]["responses"]["200"]["content"]["application/json"];

/** Sales agents (comerciales) of the company: create, edit, deactivate. */
export function AgentsPage() {
  const { t } = useTranslation();
  const { companyId } = useCompany();
  return (
    <MasterListPage<Agent>
      title={t("masters.agents")}
      newLabel={t("masters.newAgent")}
      editLabel={t("masters.editAgent")}
      permissions={{ create: "agents:crear", edit: "agents:editar", deactivate: "agents:eliminar" }}
      list={{
        key: ["agents", companyId],
        enabled: Boolean(companyId),
        searchable: true,
        fetch: async (search) =>
          unwrap(await api.GET("/api/agents", { params: { query: masterListQuery(companyId, search) } })),
      }}
      columns={[
        { key: "code", header: t("common.code"), render: (r) => r.code, mono: true, width: 110 },
        { key: "name", header: t("common.name"), render: (r) => r.name },
        { key: "tax", header: t("contacts.taxId"), render: (r) => r.tax_id ?? "—", mono: true },
        { key: "email", header: t("contacts.email"), render: (r) => r.email || "—" },
        {
          key: "pct",
          header: t("masters.commission"),
          render: (r) => `${formatNumber(r.commission_pct)} %`,
          align: "right",
          mono: true,
        },
      ]}
      rowLabel={(r) => r.code}
      deactivate={async (id) => unwrap(await api.DELETE("/api/agents/{id}", { params: { path: { id } } }))}
      form={(props) => <AgentForm {...props} companyId={companyId} />}
    />
  );
}

function AgentForm({ companyId, ...props }: MasterFormProps<Agent> & { companyId: string | null }) {
  const agent = props.record;
  const { t } = useTranslation();
  const form = useForm<AgentValues>({
    initialValues: {
      code: agent?.code ?? "",
      name: agent?.name ?? "",
      tax_id: agent?.tax_id ?? "",
      email: agent?.email ?? "",
      commission_pct: agent?.commission_pct ?? "",
      is_active: agent?.is_active ?? true,
    },
    validate: agentRules(t),
  });
  const dialog = useMasterSave(
    props,
    form,
    async (v) => {
      const body = agentBody(v);
      if (agent)
        return unwrap(await api.PUT("/api/agents/{id}", { params: { path: { id: agent.id } }, body }));
      return unwrap(await api.POST("/api/agents", { body: { ...body, company_id: companyId ?? undefined } }));
    },
    (a) => a.code,
  );
  return (
    <DialogForm {...dialog}>
      <SimpleGrid cols={2}>
        <TextInput label={t("common.code")} required {...form.getInputProps("code")} />
        <TextInput label={t("contacts.taxId")} {...form.getInputProps("tax_id")} />
      </SimpleGrid>
      <TextInput label={t("common.name")} required {...form.getInputProps("name")} />
      <SimpleGrid cols={2}>
        <TextInput label={t("contacts.email")} type="email" {...form.getInputProps("email")} />
        <TextInput label={`${t("masters.commission")} (%)`} {...form.getInputProps("commission_pct")} />
      </SimpleGrid>
      <Checkbox label={t("common.active")} {...form.getInputProps("is_active", { type: "checkbox" })} />
    </DialogForm>
  );
}
