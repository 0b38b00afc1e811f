import { Badge, Button, Checkbox, Group, Modal, SimpleGrid, TextInput } from "@mantine/core";
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
import { type AgentValues, agentBody, agentRules, problemFieldErrors } from "../../forms/masters";
import { formatNumber } from "../../i18n";
import { useSearchBox } from "./ListPages";

type Agent = paths["/api/agents/{id}"]["get"]["responses"]["200"]["content"]["application/json"];

/** Sales agents (comerciales) of the company: create, edit, deactivate. */
export function AgentsPage() {
  const { t } = useTranslation();
  const { companyId } = useCompany();
  const client = useQueryClient();
  const canCreate = useCan("agents:crear");
  const canEdit = useCan("agents:editar");
  const canDelete = useCan("agents:eliminar");
  const { search, box } = useSearchBox();
  const [editing, setEditing] = useState<Agent | "new" | null>(null);
  const query = useQuery({
    queryKey: ["agents", companyId, search],
    enabled: Boolean(companyId),
    queryFn: async () =>
      unwrap(
        await api.GET("/api/agents", {
          params: {
            query: { company_id: companyId ?? undefined, search, include_inactive: "true", limit: 500 },
          },
        }),
      ),
  });
  const deactivate = useMutation({
    mutationFn: async (id: string) =>
      unwrap(await api.DELETE("/api/agents/{id}", { params: { path: { id } } })),
    onSuccess: () => {
      notifySuccess(t("masters.deactivated"));
      void client.invalidateQueries({ queryKey: ["agents"] });
    },
    onError: notifyError,
  });
  return (
    <>
      <PageHeader
        title={t("masters.agents")}
        subtitle={query.data && t("common.results", { count: query.data.total })}
        actions={
          canCreate && (
            <Button leftSection={<IconPlus size={14} />} onClick={() => setEditing("new")}>
              {t("masters.newAgent")}
            </Button>
          )
        }
      />
      {box}
      <DataTable
        query={query}
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
        title={editing === "new" ? t("masters.newAgent") : t("masters.editAgent")}
      >
        {editing !== null && (
          <AgentForm
            agent={editing === "new" ? null : editing}
            companyId={companyId}
            onDone={() => {
              setEditing(null);
              void client.invalidateQueries({ queryKey: ["agents"] });
            }}
            onCancel={() => setEditing(null)}
          />
        )}
      </Modal>
    </>
  );
}

function AgentForm({
  agent,
  companyId,
  onDone,
  onCancel,
}: {
  agent: Agent | null;
  companyId: string | null;
  onDone: () => void;
  onCancel: () => void;
}) {
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
  const save = useMutation({
    mutationFn: async (v: AgentValues) => {
      const body = agentBody(v);
      if (agent)
        return unwrap(await api.PUT("/api/agents/{id}", { params: { path: { id: agent.id } }, body }));
      return unwrap(await api.POST("/api/agents", { body: { ...body, company_id: companyId ?? undefined } }));
    },
    onSuccess: (a) => {
      notifySuccess(`${t("common.saved")}: ${a.code}`);
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
      submitLabel={agent ? t("common.save") : t("common.create")}
    >
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
