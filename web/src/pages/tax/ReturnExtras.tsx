import { Badge, Paper, Table } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "../../api/client";
import { Empty, QueryState } from "../../components/states";
import { formatMoney } from "../../i18n";
import type { TaxReturn } from "./ReturnDetailPage";

/** The 349's operator and rectification records, one per counterparty and key. */
export function Records349({ records }: { records: TaxReturn["records"] }) {
  const { t } = useTranslation();
  if (!records.length) return <Empty />;
  return (
    <Paper withBorder>
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t("tax.key")}</Table.Th>
            <Table.Th>{t("tax.counterparty")}</Table.Th>
            <Table.Th>{t("tax.vatNumber")}</Table.Th>
            <Table.Th>{t("tax.correctedPeriod")}</Table.Th>
            <Table.Th ta="right">{t("tax.base")}</Table.Th>
            <Table.Th ta="right">{t("tax.previousBase")}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {records.map((rec) => (
            <Table.Tr key={`${rec.kind}-${rec.key}-${rec.country}${rec.vat_number}-${rec.year}${rec.period}`}>
              <Table.Td>
                <Badge variant="light" color={rec.kind === "operator" ? "indigo" : "orange"}>
                  {rec.key}
                </Badge>
              </Table.Td>
              <Table.Td>{rec.name}</Table.Td>
              <Table.Td ff="monospace">
                {rec.country}
                {rec.vat_number}
              </Table.Td>
              <Table.Td ff="monospace">{rec.year ? `${rec.year} ${rec.period ?? ""}` : "—"}</Table.Td>
              <Table.Td ta="right" ff="monospace">
                {formatMoney(rec.base ?? rec.new_base)}
              </Table.Td>
              <Table.Td ta="right" ff="monospace">
                {formatMoney(rec.previous_base)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

/** Confirm, settle, present, reopen and corrections: who, when and why. */
export function ReturnEvents({ id }: { id: string }) {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: ["tax-return-events", id],
    queryFn: async () => unwrap(await api.GET("/api/tax/returns/{id}/events", { params: { path: { id } } })),
  });
  return (
    <Paper withBorder>
      <QueryState query={query} isEmpty={(d) => d.length === 0}>
        {(events) => (
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("common.date")}</Table.Th>
                <Table.Th>{t("tax.action")}</Table.Th>
                <Table.Th>{t("tax.reason")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {events.map((e) => (
                <Table.Tr key={`${e.created_at}-${e.action}`}>
                  <Table.Td>{new Date(e.created_at).toLocaleString()}</Table.Td>
                  <Table.Td>{t(`tax.actions.${e.action}`, { defaultValue: e.action })}</Table.Td>
                  <Table.Td>{e.reason || "—"}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </QueryState>
    </Paper>
  );
}
