import { Badge, Button, Group, Modal, Paper, SimpleGrid, Stack, Table, TextInput } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { IconPlus } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { unwrap, v1 } from "../../api/client";
import { type Budget, CERTIFICATION_STATE_COLOR, type ItemNode } from "../../api/types";
import { useCan } from "../../auth/session";
import { notifyError, notifySuccess } from "../../components/notify";
import { QueryState } from "../../components/states";
import { formatDate, formatNumber } from "../../i18n";
import { useItemsTree } from "./ItemsTree";

export function CertificationsTab({ budget }: { budget: Budget }) {
  const { t } = useTranslation();
  const canCreate = useCan("certifications:crear");
  const [open, modal] = useDisclosure(false);
  const list = useQuery({
    queryKey: ["certifications", { budget: budget.id }],
    queryFn: async () =>
      unwrap(
        await v1.GET("/api/v1/certifications", { params: { query: { budget_id: budget.id, limit: 200 } } }),
      ),
  });
  const certifiable = budget.estado === "en_ejecucion";
  return (
    <Stack gap="sm">
      {canCreate && certifiable && (
        <Group>
          <Button leftSection={<IconPlus size={14} />} onClick={modal.open}>
            {t("certifications.new")}
          </Button>
        </Group>
      )}
      <Paper withBorder>
        <QueryState query={list} isEmpty={(d) => d.data.length === 0}>
          {(d) => (
            <Table striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t("certifications.number")}</Table.Th>
                  <Table.Th>{t("certifications.period")}</Table.Th>
                  <Table.Th>{t("common.status")}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {d.data.map((c) => (
                  <Table.Tr key={c.id}>
                    <Table.Td>
                      <Link
                        className="cell-link"
                        to="/projects/certifications/$certificationId"
                        params={{ certificationId: c.id }}
                      >
                        {t("certifications.number")} {c.number}
                      </Link>
                    </Table.Td>
                    <Table.Td>
                      {formatDate(c.period_start)} – {formatDate(c.period_end)}
                    </Table.Td>
                    <Table.Td>
                      <Badge color={CERTIFICATION_STATE_COLOR[c.estado]}>
                        {t(`certifications.estado.${c.estado}`)}
                      </Badge>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </QueryState>
      </Paper>
      <Modal opened={open} onClose={modal.close} title={t("certifications.new")} size="xl">
        <NewCertificationForm budget={budget} onDone={modal.close} />
      </Modal>
    </Stack>
  );
}

function leaves(nodes: ItemNode[], out: ItemNode[] = []): ItemNode[] {
  for (const n of nodes) {
    if (n.kind === "item") out.push(n);
    leaves(n.children ?? [], out);
  }
  return out;
}

const today = () => new Date().toISOString().slice(0, 10);
const monthStart = () => `${today().slice(0, 8)}01`;

/** Quantities to origin per item; the server works out previous and this-period amounts. */
function NewCertificationForm({ budget, onDone }: { budget: Budget; onDone: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const navigate = useNavigate();
  const tree = useItemsTree(budget.id);
  const items = useMemo(() => leaves(tree.data ?? []), [tree.data]);
  const [period, setPeriod] = useState({ start: monthStart(), end: today() });
  const [quantities, setQuantities] = useState<Record<string, string>>({});
  const create = useMutation({
    mutationFn: async () =>
      unwrap(
        await v1.POST("/api/v1/certifications", {
          body: {
            budget_id: budget.id,
            period_start: period.start,
            period_end: period.end,
            lines: Object.entries(quantities)
              .filter(([, q]) => q.trim() !== "")
              .map(([budget_item_id, q]) => ({
                budget_item_id,
                quantity_to_origin: q.trim().replace(",", "."),
              })),
          },
        }),
      ),
    onSuccess: (c) => {
      notifySuccess(t("certifications.created"));
      void client.invalidateQueries({ queryKey: ["certifications"] });
      onDone();
      void navigate({ to: "/projects/certifications/$certificationId", params: { certificationId: c.id } });
    },
    onError: notifyError,
  });
  return (
    <Stack gap="sm">
      <SimpleGrid cols={2}>
        <TextInput
          type="date"
          label={t("certifications.periodStart")}
          value={period.start}
          onChange={(e) => setPeriod({ ...period, start: e.currentTarget.value })}
        />
        <TextInput
          type="date"
          label={t("certifications.periodEnd")}
          value={period.end}
          onChange={(e) => setPeriod({ ...period, end: e.currentTarget.value })}
        />
      </SimpleGrid>
      <QueryState query={tree} isEmpty={() => items.length === 0}>
        {() => (
          <Table.ScrollContainer minWidth={600} mah={420}>
            <Table stickyHeader>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t("common.code")}</Table.Th>
                  <Table.Th>{t("common.description")}</Table.Th>
                  <Table.Th ta="right">{t("budgets.budgeted")}</Table.Th>
                  <Table.Th w={140} ta="right">
                    {t("certifications.origin")}
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((item) => {
                  const q = quantities[item.id] ?? "";
                  const exceeds = q !== "" && Number(q.replace(",", ".")) > Number(item.quantity ?? 0);
                  return (
                    <Table.Tr key={item.id}>
                      <Table.Td ff="monospace">{item.code}</Table.Td>
                      <Table.Td>{item.summary}</Table.Td>
                      <Table.Td ta="right" ff="monospace">
                        {formatNumber(item.quantity)} {item.unit}
                      </Table.Td>
                      <Table.Td>
                        <TextInput
                          aria-label={`${t("certifications.origin")} ${item.code}`}
                          value={q}
                          onChange={(e) => setQuantities({ ...quantities, [item.id]: e.currentTarget.value })}
                          error={exceeds ? t("certifications.exceeds") : undefined}
                          styles={{ input: { textAlign: "right" } }}
                        />
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </QueryState>
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          {t("common.cancel")}
        </Button>
        <Button onClick={() => create.mutate()} loading={create.isPending}>
          {t("common.create")}
        </Button>
      </Group>
    </Stack>
  );
}
