import { Alert, Badge, Button, Group, Stack, Text } from "@mantine/core";
import { IconPlugConnectedX } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "../../api/client";
import { useCompany, useMe } from "../../auth/session";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { DataTable } from "../../components/DataTable";
import { notifyError, notifySuccess } from "../../components/notify";
import { PageHeader } from "../../components/PageHeader";
import { formatDate } from "../../i18n";
import type { Grant } from "../treasury/treasuryApi";

/**
 * The assistants connected by OAuth sign-in (MCP): the user's own, or every user's for an admin
 * with api_tokens:leer (the API decides which). Revoking one ends its access at once.
 */
export function AssistantsPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const me = useMe();
  const { companies } = useCompany();
  const [revoking, setRevoking] = useState<Grant | null>(null);
  const grants = useQuery({
    queryKey: ["oauth-grants"],
    queryFn: async () => unwrap(await api.GET("/api/oauth/grants", { params: { query: { limit: 200 } } })),
  });
  const revoke = useMutation({
    mutationFn: async (id: string) =>
      unwrap(await api.DELETE("/api/oauth/grants/{id}", { params: { path: { id } } })),
    onSuccess: () => {
      notifySuccess(t("assistants.revoked", { name: revoking?.client_name ?? "" }));
      setRevoking(null);
      void client.invalidateQueries({ queryKey: ["oauth-grants"] });
    },
    onError: (err) => {
      setRevoking(null);
      notifyError(err);
    },
  });
  const companyName = (id: string | null) =>
    id === null ? t("assistants.allCompanies") : (companies.find((c) => c.id === id)?.name ?? id);
  const others = grants.data?.data.some((g) => g.user_id !== me.data?.id);
  return (
    <>
      <PageHeader title={t("assistants.title")} subtitle={t("assistants.subtitle")} />
      {others && (
        <Alert color="blue" mb="sm">
          {t("assistants.allUsers")}
        </Alert>
      )}
      <DataTable
        query={grants}
        minWidth={1000}
        columns={[
          {
            key: "client",
            header: t("assistants.client"),
            render: (g) => (
              <Stack gap={0}>
                <Text size="sm" fw={600}>
                  {g.client_name}
                </Text>
                <Text size="xs" c="dimmed" ff="monospace" style={{ wordBreak: "break-all" }}>
                  {g.client_id}
                </Text>
              </Stack>
            ),
          },
          { key: "host", header: t("assistants.redirectHost"), mono: true, render: (g) => g.redirect_host },
          { key: "company", header: t("shell.company"), render: (g) => companyName(g.company_id) },
          {
            key: "scopes",
            header: t("assistants.scopes"),
            render: (g) => (
              <Group gap={4}>
                {g.scopes.map((s) => (
                  <Badge key={s} variant="light" tt="none">
                    {s}
                  </Badge>
                ))}
              </Group>
            ),
          },
          { key: "created", header: t("assistants.connected"), render: (g) => formatDate(g.created_at) },
          { key: "used", header: t("assistants.lastUsed"), render: (g) => formatDate(g.last_used_at) },
          {
            key: "actions",
            header: "",
            align: "right",
            render: (g) => (
              <Button
                variant="subtle"
                color="red"
                leftSection={<IconPlugConnectedX size={14} />}
                aria-label={`${t("assistants.revoke")} ${g.client_name}`}
                onClick={() => setRevoking(g)}
              >
                {t("assistants.revoke")}
              </Button>
            ),
          },
        ]}
      />
      <Text size="xs" c="dimmed" mt="sm">
        {t("assistants.howTo")}
      </Text>
      <ConfirmDialog
        opened={revoking !== null}
        title={t("assistants.revoke")}
        confirmLabel={t("assistants.revoke")}
        busy={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate(revoking.id)}
        onClose={() => setRevoking(null)}
      >
        {revoking &&
          t("assistants.revokeConfirm", { name: revoking.client_name, host: revoking.redirect_host })}
      </ConfirmDialog>
    </>
  );
}
