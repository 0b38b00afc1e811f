import {
  Alert,
  Badge,
  Button,
  Code,
  CopyButton,
  Group,
  Modal,
  MultiSelect,
  Select,
  TextInput,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { useDisclosure } from "@mantine/hooks";
import { IconCopy, IconPlus } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "../../api/client";
import { useCan, useCompany } from "../../auth/session";
import { DataTable } from "../../components/DataTable";
import { DialogForm } from "../../components/DialogForm";
import { notifyError } from "../../components/notify";
import { PageHeader } from "../../components/PageHeader";
import { formatDate } from "../../i18n";

const SCOPES = [
  "api_access",
  "mcp",
  "mcp:invoices",
  "mcp:purchase_invoices",
  "mcp:contacts",
  "mcp:products",
  "mcp:accounting",
  "mcp:treasury",
  "mcp:banking",
  "mcp:tax",
  "mcp:projects",
  "api_tokens",
  "*",
];

export function ApiTokensPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const canCreate = useCan("api_tokens:crear");
  const canRevoke = useCan("api_tokens:eliminar");
  const [open, modal] = useDisclosure(false);
  const [secret, setSecret] = useState<string | null>(null);
  const list = useQuery({
    queryKey: ["api-tokens"],
    queryFn: async () => unwrap(await api.GET("/api/api-tokens", { params: { query: { limit: 200 } } })),
  });
  const revoke = useMutation({
    mutationFn: async (id: string) =>
      unwrap(await api.DELETE("/api/api-tokens/{id}", { params: { path: { id } } })),
    onSuccess: () => void client.invalidateQueries({ queryKey: ["api-tokens"] }),
    onError: notifyError,
  });
  return (
    <>
      <PageHeader
        title={t("apiTokens.title")}
        actions={
          canCreate && (
            <Button leftSection={<IconPlus size={14} />} onClick={modal.open}>
              {t("apiTokens.new")}
            </Button>
          )
        }
      />
      {secret && (
        <Alert
          color="yellow"
          mb="sm"
          title={t("apiTokens.secretOnce")}
          withCloseButton
          onClose={() => setSecret(null)}
        >
          <Group gap="xs" wrap="nowrap">
            <Code data-testid="api-token-secret" style={{ wordBreak: "break-all" }}>
              {secret}
            </Code>
            <CopyButton value={secret}>
              {({ copied, copy }) => (
                <Button
                  size="xs"
                  variant="light"
                  color={copied ? "teal" : "indigo"}
                  leftSection={<IconCopy size={12} />}
                  onClick={copy}
                >
                  {copied ? t("common.copied") : t("common.copy")}
                </Button>
              )}
            </CopyButton>
          </Group>
        </Alert>
      )}
      <DataTable
        query={list}
        columns={[
          { key: "name", header: t("common.name"), render: (r) => r.name },
          { key: "prefix", header: "Prefijo", render: (r) => r.prefix, mono: true },
          {
            key: "scopes",
            header: t("apiTokens.scopes"),
            render: (r) => (
              <Group gap={4}>
                {r.scopes.map((s) => (
                  <Badge key={s}>{s}</Badge>
                ))}
              </Group>
            ),
          },
          { key: "expires", header: t("apiTokens.expires"), render: (r) => formatDate(r.expires_at) },
          { key: "used", header: t("apiTokens.lastUsed"), render: (r) => formatDate(r.last_used_at) },
          {
            key: "active",
            header: t("common.status"),
            render: (r) => (
              <Badge color={r.active ? "teal" : "gray"}>
                {r.active ? t("common.active") : t("common.inactive")}
              </Badge>
            ),
          },
          {
            key: "actions",
            header: "",
            align: "right",
            render: (r) =>
              canRevoke &&
              r.active && (
                <Button variant="subtle" color="red" onClick={() => revoke.mutate(r.id)}>
                  {t("apiTokens.revoke")}
                </Button>
              ),
          },
        ]}
      />
      <Modal opened={open} onClose={modal.close} title={t("apiTokens.new")}>
        <NewTokenForm
          onCancel={modal.close}
          onCreated={(token) => {
            setSecret(token);
            modal.close();
            void client.invalidateQueries({ queryKey: ["api-tokens"] });
          }}
        />
      </Modal>
    </>
  );
}

function NewTokenForm({
  onCreated,
  onCancel,
}: {
  onCreated: (secret: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const { companies } = useCompany();
  const form = useForm({
    initialValues: { name: "", scopes: ["api_access"], company_id: null as string | null, expires_at: "" },
    validate: {
      name: (v) => (v.trim() ? null : t("auth.required")),
      scopes: (v) => (v.length ? null : t("auth.required")),
    },
  });
  const create = useMutation({
    mutationFn: async (v: typeof form.values) =>
      unwrap(
        await api.POST("/api/api-tokens", {
          body: {
            name: v.name.trim(),
            scopes: v.scopes,
            company_id: v.company_id,
            expires_at: v.expires_at ? new Date(`${v.expires_at}T23:59:59Z`).toISOString() : null,
          },
        }),
      ),
    onSuccess: (r) => onCreated(r.token),
    onError: notifyError,
  });
  return (
    <DialogForm
      onSubmit={form.onSubmit((v) => create.mutate(v))}
      onCancel={onCancel}
      submitting={create.isPending}
    >
      <TextInput label={t("common.name")} required {...form.getInputProps("name")} />
      <MultiSelect label={t("apiTokens.scopes")} data={SCOPES} {...form.getInputProps("scopes")} />
      <Select
        label={t("shell.company")}
        clearable
        data={companies.map((c) => ({ value: c.id, label: c.name }))}
        {...form.getInputProps("company_id")}
      />
      <TextInput type="date" label={t("apiTokens.expires")} {...form.getInputProps("expires_at")} />
    </DialogForm>
  );
}
