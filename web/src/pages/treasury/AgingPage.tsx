import { Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import dayjs from "dayjs";
import Decimal from "decimal.js";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "../../api/client";
import { useCompany } from "../../auth/session";
import { Figure } from "../../components/Figure";
import { PageHeader } from "../../components/PageHeader";
import { Empty, QueryState } from "../../components/states";
import { formatMoney } from "../../i18n";
import type { Aging } from "./treasuryApi";

const BUCKETS = ["not_due", "days_0_30", "days_31_60", "days_61_90", "over_90", "total"] as const;

/** Open receivables and payables per contact at a date, by days past due. */
export function AgingPage() {
  const { t } = useTranslation();
  const { companyId } = useCompany();
  const [asOf, setAsOf] = useState(dayjs().format("YYYY-MM-DD"));
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(asOf);
  const aging = useQuery({
    queryKey: ["aging", companyId, asOf],
    enabled: Boolean(companyId) && valid,
    queryFn: async () =>
      unwrap(
        await api.GET("/api/treasury/aging", {
          params: { query: { company_id: companyId ?? undefined, as_of: asOf } },
        }),
      ),
  });
  return (
    <>
      <PageHeader
        title={t("treasuryPages.aging")}
        subtitle={t("treasuryPages.agingHint")}
        actions={
          <TextInput
            type="date"
            label={t("treasuryPages.asOf")}
            value={asOf}
            onChange={(e) => setAsOf(e.currentTarget.value)}
          />
        }
      />
      <QueryState query={aging}>
        {(a) => (
          <Stack gap="lg">
            <SimpleGrid cols={{ base: 2, md: 4 }}>
              <Figure
                label={t("treasuryPages.receivables")}
                value={formatMoney(a.receivables.totals.total)}
                strong
              />
              <Figure
                label={`${t("treasuryPages.receivables")} > 90`}
                value={formatMoney(a.receivables.totals.over_90)}
              />
              <Figure
                label={t("treasuryPages.payables")}
                value={formatMoney(a.payables.totals.total)}
                strong
              />
              <Figure
                label={`${t("treasuryPages.payables")} > 90`}
                value={formatMoney(a.payables.totals.over_90)}
              />
            </SimpleGrid>
            <AgingTable
              title={t("treasuryPages.receivables")}
              side={a.receivables}
              testId="aging-receivables"
            />
            <AgingTable title={t("treasuryPages.payables")} side={a.payables} testId="aging-payables" />
          </Stack>
        )}
      </QueryState>
    </>
  );
}

function AgingTable({ title, side, testId }: { title: string; side: Aging["receivables"]; testId: string }) {
  const { t } = useTranslation();
  const header = (b: (typeof BUCKETS)[number]) => t(`treasuryPages.bucket.${b}`);
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        {title}
      </Title>
      <Paper withBorder>
        {side.contacts.length === 0 ? (
          <Empty />
        ) : (
          <Table.ScrollContainer minWidth={900}>
            <Table striped highlightOnHover data-testid={testId}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t("treasuryPages.contact")}</Table.Th>
                  {BUCKETS.map((b) => (
                    <Table.Th key={b} ta="right">
                      {header(b)}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {side.contacts.map((c) => (
                  <Table.Tr key={c.contact_id}>
                    <Table.Td>
                      <Text size="sm">{c.contact_name}</Text>
                      {c.contact_tax_id && (
                        <Text size="xs" c="dimmed" ff="monospace">
                          {c.contact_tax_id}
                        </Text>
                      )}
                    </Table.Td>
                    {BUCKETS.map((b) => (
                      <Table.Td
                        key={b}
                        ta="right"
                        ff="monospace"
                        fw={b === "total" ? 600 : undefined}
                        c={b === "over_90" && !new Decimal(c[b]).isZero() ? "red.9" : undefined}
                      >
                        {formatMoney(c[b])}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
                <Table.Tr fw={700}>
                  <Table.Td>{t("common.total")}</Table.Td>
                  {BUCKETS.map((b) => (
                    <Table.Td key={b} ta="right" ff="monospace">
                      {formatMoney(side.totals[b])}
                    </Table.Td>
                  ))}
                </Table.Tr>
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
    </Stack>
  );
}
