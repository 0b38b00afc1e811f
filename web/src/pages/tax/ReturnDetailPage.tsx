import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  TextInput,
} from "@mantine/core";
import { IconDownload, IconLock } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api, download, unwrap } from "../../api/client";
import type { paths } from "../../api/generated/api";
import { useCan } from "../../auth/session";
import { notifyError, notifySuccess } from "../../components/notify";
import { PageHeader } from "../../components/PageHeader";
import { ErrorState, QueryState } from "../../components/states";
import { formatDate, formatMoney } from "../../i18n";
import { STATE_COLOR } from "./forms";
import { ReturnBoxes } from "./ReturnBoxes";
import { ReturnCheck } from "./ReturnCheck";
import { Records349, ReturnEvents } from "./ReturnExtras";

export type TaxReturn =
  paths["/api/tax/returns/{id}"]["get"]["responses"]["200"]["content"]["application/json"];

type Action = "recompute" | "confirm" | "settle";

export function ReturnDetailPage() {
  const { t } = useTranslation();
  const { returnId } = useParams({ from: "/app/tax/returns/$returnId" });
  const client = useQueryClient();
  const canEdit = useCan("tax:editar");
  const isAdmin = useCan("admin:editar");
  const [fileError, setFileError] = useState<unknown>(null);
  const [dialog, setDialog] = useState<"reopen" | "present" | null>(null);
  const query = useQuery({
    queryKey: ["tax-return", returnId],
    queryFn: async () =>
      unwrap(await api.GET("/api/tax/returns/{id}", { params: { path: { id: returnId } } })),
  });
  const refreshed = (r: TaxReturn) => {
    client.setQueryData(["tax-return", returnId], r);
    void client.invalidateQueries({ queryKey: ["tax-returns"] });
    void client.invalidateQueries({ queryKey: ["tax-return-check", returnId] });
    void client.invalidateQueries({ queryKey: ["tax-return-events", returnId] });
  };
  const act = useMutation({
    mutationFn: async (action: Action) => {
      const params = { params: { path: { id: returnId } } };
      if (action === "recompute") return unwrap(await api.POST("/api/tax/returns/{id}/recompute", params));
      if (action === "confirm") return unwrap(await api.POST("/api/tax/returns/{id}/confirm", params));
      return unwrap(await api.POST("/api/tax/returns/{id}/settle", params));
    },
    onSuccess: (r, action) => {
      refreshed(r);
      notifySuccess(
        t(action === "confirm" && r.model === "303" ? "tax.done.confirmLocks" : `tax.done.${action}`),
      );
    },
    onError: notifyError,
  });
  const getFile = (r: TaxReturn) => {
    setFileError(null);
    download(`/api/tax/returns/${r.id}/file`, `${r.model}_${r.year}${r.period}.txt`).catch(setFileError);
  };
  return (
    <QueryState query={query}>
      {(r) => {
        const draft = r.estado === "borrador";
        const locked = r.model === "303" && !draft;
        return (
          <>
            <PageHeader
              title={`${t("tax.modelo")} ${r.model} · ${r.year} ${r.period}`}
              subtitle={
                <>
                  <Badge color={STATE_COLOR[r.estado] ?? "gray"} mr="xs">
                    {t(`tax.states.${r.estado}`)}
                  </Badge>
                  {t(`tax.kinds.${r.declaration_kind}`)} · {formatDate(r.date_from)} – {formatDate(r.date_to)}
                </>
              }
              actions={
                <>
                  <Button variant="default" component={Link} to="/tax/returns">
                    {t("common.back")}
                  </Button>
                  {canEdit && draft && (
                    <Button
                      variant="light"
                      loading={act.isPending && act.variables === "recompute"}
                      onClick={() => act.mutate("recompute")}
                    >
                      {t("tax.recompute")}
                    </Button>
                  )}
                  {canEdit && draft && (
                    <Button
                      loading={act.isPending && act.variables === "confirm"}
                      onClick={() => act.mutate("confirm")}
                    >
                      {t("tax.confirm")}
                    </Button>
                  )}
                  {canEdit && locked && !r.entry_id && (
                    <Button
                      color="teal"
                      loading={act.isPending && act.variables === "settle"}
                      onClick={() => act.mutate("settle")}
                    >
                      {t("tax.settle")}
                    </Button>
                  )}
                  {canEdit && r.estado === "confirmada" && (
                    <Button variant="light" color="teal" onClick={() => setDialog("present")}>
                      {t("tax.present")}
                    </Button>
                  )}
                  {isAdmin && r.estado === "confirmada" && (
                    <Button variant="subtle" color="red" onClick={() => setDialog("reopen")}>
                      {t("tax.reopen")}
                    </Button>
                  )}
                  {!draft && (
                    <Button
                      variant="default"
                      leftSection={<IconDownload size={14} />}
                      onClick={() => getFile(r)}
                    >
                      {t("tax.file")}
                    </Button>
                  )}
                </>
              }
            />
            {fileError !== null && (
              <Stack mb="md">
                <ErrorState error={fileError} />
              </Stack>
            )}
            {locked && (
              <Alert color="blue" icon={<IconLock size={16} />} mb="md" title={t("tax.lockedTitle")}>
                {t("tax.lockedText", { from: formatDate(r.date_from), to: formatDate(r.date_to) })}
              </Alert>
            )}
            <Summary r={r} />
            <Tabs defaultValue="boxes" keepMounted={false}>
              <Tabs.List>
                <Tabs.Tab value="boxes">{t("tax.boxes")}</Tabs.Tab>
                {r.model === "349" && <Tabs.Tab value="records">{t("tax.records")}</Tabs.Tab>}
                {["303", "111", "115"].includes(r.model) && (
                  <Tabs.Tab value="check">{t("tax.check")}</Tabs.Tab>
                )}
                <Tabs.Tab value="events">{t("tax.events")}</Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="boxes" pt="md">
                <ReturnBoxes r={r} editable={draft && canEdit} onSaved={refreshed} />
              </Tabs.Panel>
              <Tabs.Panel value="records" pt="md">
                <Records349 records={r.records} />
              </Tabs.Panel>
              <Tabs.Panel value="check" pt="md">
                <ReturnCheck id={r.id} />
              </Tabs.Panel>
              <Tabs.Panel value="events" pt="md">
                <ReturnEvents id={r.id} />
              </Tabs.Panel>
            </Tabs>
            <Modal
              opened={dialog !== null}
              onClose={() => setDialog(null)}
              title={dialog === "reopen" ? t("tax.reopen") : t("tax.present")}
            >
              {dialog && (
                <ReasonForm
                  id={r.id}
                  kind={dialog}
                  onDone={(updated) => {
                    setDialog(null);
                    refreshed(updated);
                  }}
                />
              )}
            </Modal>
          </>
        );
      }}
    </QueryState>
  );
}

function Summary({ r }: { r: TaxReturn }) {
  const { t } = useTranslation();
  const result = r.result === null ? null : Number(r.result);
  return (
    <SimpleGrid cols={{ base: 1, sm: 4 }} mb="md">
      <Paper withBorder p="sm">
        <Text size="xs" c="dimmed">
          {result !== null && result < 0 ? t("tax.toCompensate") : t("tax.result")}
        </Text>
        <Text fw={700} fz="xl" ff="monospace" data-testid="tax-result">
          {formatMoney(r.result)}
        </Text>
      </Paper>
      <Paper withBorder p="sm">
        <Text size="xs" c="dimmed">
          {t("tax.declarationType")}
        </Text>
        <Text fw={600}>
          {r.declaration_type ? `${r.declaration_type} · ${t(`tax.types.${r.declaration_type}`)}` : "—"}
        </Text>
      </Paper>
      <Paper withBorder p="sm">
        <Text size="xs" c="dimmed">
          {t("tax.settlement")}
        </Text>
        {r.entry_id ? (
          <Link className="cell-link" to="/accounting/entries" search={{ entry: r.entry_id }}>
            {t("tax.seeEntry")}
          </Link>
        ) : (
          <Text c="dimmed">{r.model === "303" ? t("tax.notSettled") : "—"}</Text>
        )}
      </Paper>
      <Paper withBorder p="sm">
        <Text size="xs" c="dimmed">
          {t("tax.receipt")}
        </Text>
        <Text fw={600} ff="monospace">
          {r.receipt ?? "—"}
        </Text>
      </Paper>
    </SimpleGrid>
  );
}

/** Reopening needs a reason (audited); presenting takes the AEAT's 13-digit receipt. */
function ReasonForm({
  id,
  kind,
  onDone,
}: {
  id: string;
  kind: "reopen" | "present";
  onDone: (r: TaxReturn) => void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  const valid = kind === "reopen" ? text.trim().length >= 3 : /^\d{13}$/.test(text.trim()) || text === "";
  const send = useMutation({
    mutationFn: async () => {
      const path = { id };
      if (kind === "reopen")
        return unwrap(
          await api.POST("/api/tax/returns/{id}/reopen", { params: { path }, body: { reason: text.trim() } }),
        );
      return unwrap(
        await api.POST("/api/tax/returns/{id}/present", {
          params: { path },
          body: text.trim() ? { receipt: text.trim() } : {},
        }),
      );
    },
    onSuccess: (r) => {
      notifySuccess(t(`tax.done.${kind}`));
      onDone(r);
    },
    onError: notifyError,
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (valid) send.mutate();
      }}
    >
      <Stack gap="sm">
        <TextInput
          label={kind === "reopen" ? t("tax.reason") : t("tax.receipt")}
          description={kind === "present" ? t("tax.receiptHint") : undefined}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          error={text && !valid ? (kind === "reopen" ? t("tax.reasonShort") : t("tax.receiptHint")) : null}
          required={kind === "reopen"}
          data-autofocus
        />
        <Group justify="flex-end">
          <Button
            type="submit"
            color={kind === "reopen" ? "red" : "teal"}
            disabled={!valid}
            loading={send.isPending}
          >
            {kind === "reopen" ? t("tax.reopen") : t("tax.present")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
