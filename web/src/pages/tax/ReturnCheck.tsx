import { Alert, Badge, Paper, ScrollArea, SimpleGrid, Table, Text, Title } from "@mantine/core";
import { IconCircleCheck } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import Decimal from "decimal.js";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "../../api/client";
import { QueryState } from "../../components/states";
import { formatDate, formatMoney } from "../../i18n";

/** The boxes against the ledger's 477/472 (4751) movements, and every entry or invoice behind a difference. */
export function ReturnCheck({ id }: { id: string }) {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: ["tax-return-check", id],
    queryFn: async () => unwrap(await api.GET("/api/tax/returns/{id}/check", { params: { path: { id } } })),
  });
  return (
    <QueryState query={query}>
      {(c) => (
        <>
          {c.balanced ? (
            <Alert color="teal" icon={<IconCircleCheck size={16} />} mb="md" title={t("tax.balanced")}>
              {t("tax.balancedText")}
            </Alert>
          ) : (
            <Alert color="orange" mb="md" title={t("tax.unbalanced")}>
              {t("tax.unbalancedText", { count: c.differences.length })}
            </Alert>
          )}
          <SimpleGrid cols={{ base: 1, sm: c.totals.length }} mb="md">
            {c.totals.map((row) => (
              <Paper withBorder p="sm" key={row.account}>
                <Title order={2} size="h5" mb={4}>
                  {t("tax.account")} {row.account}
                </Title>
                <Text size="sm">
                  {t("tax.inBoxes")}: <b>{formatMoney(row.boxes)}</b>
                </Text>
                <Text size="sm">
                  {t("tax.inLedger")}: <b>{formatMoney(row.ledger)}</b>
                </Text>
                <Text size="sm" c={Number(row.difference) === 0 ? "teal.8" : "red.8"}>
                  {t("tax.difference")}: <b>{formatMoney(row.difference)}</b>
                </Text>
              </Paper>
            ))}
          </SimpleGrid>
          {c.differences.length > 0 && (
            <Paper withBorder>
              <ScrollArea.Autosize mah={520}>
                <Table striped stickyHeader>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t("tax.account")}</Table.Th>
                      <Table.Th>{t("tax.entry")}</Table.Th>
                      <Table.Th>{t("common.date")}</Table.Th>
                      <Table.Th>{t("tax.concept")}</Table.Th>
                      <Table.Th>{t("tax.invoice")}</Table.Th>
                      <Table.Th ta="right">{t("tax.expected")}</Table.Th>
                      <Table.Th ta="right">{t("tax.posted")}</Table.Th>
                      <Table.Th ta="right">{t("tax.difference")}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {c.differences.map((d) => (
                      <Table.Tr key={`${d.account}-${d.entry_id}-${d.document_id}`}>
                        <Table.Td ff="monospace">{d.account}</Table.Td>
                        <Table.Td ff="monospace">
                          {d.entry_id ? (
                            <Link
                              className="cell-link"
                              to="/accounting/entries"
                              search={{ entry: d.entry_id }}
                            >
                              {d.entry_number}
                            </Link>
                          ) : (
                            <Badge color="red" variant="light">
                              {t("tax.noEntry")}
                            </Badge>
                          )}
                        </Table.Td>
                        <Table.Td>{formatDate(d.entry_date)}</Table.Td>
                        <Table.Td>{d.concept ?? "—"}</Table.Td>
                        <Table.Td ff="monospace">
                          {d.document_code ?? (
                            <Badge color="orange" variant="light">
                              {t("tax.noInvoice")}
                            </Badge>
                          )}
                        </Table.Td>
                        <Table.Td ta="right" ff="monospace">
                          {formatMoney(d.expected)}
                        </Table.Td>
                        <Table.Td ta="right" ff="monospace">
                          {formatMoney(d.posted)}
                        </Table.Td>
                        <Table.Td ta="right" ff="monospace">
                          {formatMoney(new Decimal(d.posted).minus(d.expected).toFixed(2))}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </ScrollArea.Autosize>
            </Paper>
          )}
        </>
      )}
    </QueryState>
  );
}
