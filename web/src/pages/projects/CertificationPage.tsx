import { Badge, Button, Group, Paper, SimpleGrid, Stack, Table, Text, Tooltip } from "@mantine/core";
import { IconAlertTriangle, IconFileTypePdf } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import { download, unwrap, v1 } from "../../api/client";
import { CERTIFICATION_STATE_COLOR, type Certification, type CertificationState } from "../../api/types";
import { useMe } from "../../auth/session";
import { notifyError, notifySuccess } from "../../components/notify";
import { PageHeader } from "../../components/PageHeader";
import { QueryState } from "../../components/states";
import { formatDate, formatMoney, formatNumber } from "../../i18n";
import { IssueData } from "./IssueData";

/** The moves the server allows (src/modules/projects/certifications/transitions.ts) and who may make them. */
const MOVES: Record<CertificationState, { to: CertificationState; label: string; permission: string }[]> = {
  borrador: [{ to: "emitida", label: "certifications.issue", permission: "certifications:editar" }],
  emitida: [
    { to: "validada", label: "certifications.validate", permission: "certifications:validar" },
    { to: "rechazada", label: "certifications.reject", permission: "certifications:validar" },
  ],
  rechazada: [{ to: "borrador", label: "certifications.backToDraft", permission: "certifications:editar" }],
  validada: [],
};

export function CertificationPage() {
  const { certificationId } = useParams({ from: "/app/projects/certifications/$certificationId" });
  const cert = useQuery({
    queryKey: ["certifications", certificationId],
    queryFn: async () =>
      unwrap(await v1.GET("/api/v1/certifications/{id}", { params: { path: { id: certificationId } } })),
  });
  return <QueryState query={cert}>{(c) => <CertificationDetail cert={c} />}</QueryState>;
}

function CertificationDetail({ cert }: { cert: Certification }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const me = useMe();
  const perms = me.data?.permissions ?? [];
  const moves = MOVES[cert.estado].filter(
    (m) => perms.includes("certifications:editar") && perms.includes(m.permission),
  );
  const move = useMutation({
    mutationFn: async (estado: CertificationState) =>
      unwrap(
        await v1.PUT("/api/v1/certifications/{id}/estado", {
          params: { path: { id: cert.id } },
          body: { estado },
        }),
      ),
    onSuccess: (c) => {
      notifySuccess(t(`certifications.estado.${c.estado}`));
      void client.invalidateQueries({ queryKey: ["certifications"] });
      void client.invalidateQueries({ queryKey: ["cost-summary"] });
    },
    onError: notifyError,
  });
  const totals = cert.totals;
  return (
    <Stack gap="md">
      <Link className="cell-link" to="/projects/budgets/$budgetId" params={{ budgetId: cert.budget_id }}>
        ← {cert.budget_code} {cert.budget_name}
      </Link>
      <PageHeader
        title={
          <Group gap="sm">
            {t("certifications.title")} {t("certifications.number")} {cert.number}
            <Badge size="md" color={CERTIFICATION_STATE_COLOR[cert.estado]}>
              {t(`certifications.estado.${cert.estado}`)}
            </Badge>
          </Group>
        }
        subtitle={`${formatDate(cert.period_start)} – ${formatDate(cert.period_end)}`}
        actions={
          <>
            <Button
              variant="default"
              leftSection={<IconFileTypePdf size={14} />}
              onClick={() =>
                download(`/api/v1/certifications/${cert.id}/pdf`, `certificacion-${cert.number}.pdf`).catch(
                  notifyError,
                )
              }
            >
              {t("certifications.pdf")}
            </Button>
            {moves.map((m) => (
              <Button
                key={m.to}
                color={m.to === "rechazada" ? "red" : undefined}
                variant={m.to === "rechazada" ? "light" : "filled"}
                loading={move.isPending}
                onClick={() => move.mutate(m.to)}
              >
                {t(m.label)}
              </Button>
            ))}
          </>
        }
      />
      <IssueData
        key={`${cert.estado}-${cert.issue_place}-${cert.issue_date}-${cert.retention_pct}`}
        cert={cert}
        canEdit={perms.includes("certifications:editar")}
      />
      <Paper withBorder>
        <Table.ScrollContainer minWidth={900}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("common.code")}</Table.Th>
                <Table.Th>{t("common.description")}</Table.Th>
                <Table.Th ta="right">{t("budgets.budgeted")}</Table.Th>
                <Table.Th ta="right">{t("certifications.origin")}</Table.Th>
                <Table.Th ta="right">{t("certifications.previous")}</Table.Th>
                <Table.Th ta="right">{t("certifications.thisPeriod")}</Table.Th>
                <Table.Th ta="right">{t("budgets.price")}</Table.Th>
                <Table.Th ta="right">{t("certifications.thisPeriod")} €</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {cert.lines.map((l) => (
                <Table.Tr key={l.budget_item_id}>
                  <Table.Td ff="monospace">{l.code}</Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      {l.summary}
                      {l.exceeds_budget && (
                        <Tooltip label={t("certifications.exceeds")}>
                          <Badge color="orange" leftSection={<IconAlertTriangle size={10} />}>
                            {t("certifications.exceeds")}
                          </Badge>
                        </Tooltip>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td ta="right" ff="monospace">
                    {formatNumber(l.budgeted_quantity)} {l.unit}
                  </Table.Td>
                  <Table.Td ta="right" ff="monospace">
                    {formatNumber(l.quantity_to_origin)}
                  </Table.Td>
                  <Table.Td ta="right" ff="monospace">
                    {formatNumber(l.quantity_previous)}
                  </Table.Td>
                  <Table.Td ta="right" ff="monospace" fw={600}>
                    {formatNumber(l.quantity_this_period)}
                  </Table.Td>
                  <Table.Td ta="right" ff="monospace">
                    {formatMoney(l.unit_price)}
                  </Table.Td>
                  <Table.Td ta="right" ff="monospace">
                    {formatMoney(l.amount_this_period)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
      <SimpleGrid cols={{ base: 2, md: 5 }} spacing="sm">
        {(
          [
            ["certifications.origin", totals.pem_to_origin],
            ["certifications.previous", totals.pem_previous],
            ["certifications.thisPeriod", totals.pem_this_period],
            ["budgets.vat", totals.vat],
            ["common.total", totals.net_payable],
          ] as const
        ).map(([label, value]) => (
          <Paper withBorder p="sm" key={label}>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              {t(label)}
            </Text>
            <Text ff="monospace" fw={600}>
              {formatMoney(value)}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
