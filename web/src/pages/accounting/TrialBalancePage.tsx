import { Group, Paper, Table, TextInput } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "../../api/client";
import { useCompany } from "../../auth/session";
import { PageHeader } from "../../components/PageHeader";
import { QueryState } from "../../components/states";
import { formatMoney } from "../../i18n";

/** Sums and balances per subaccount; each code opens the journal filtered on it. */
export function TrialBalancePage() {
  const { t } = useTranslation();
  const { companyId } = useCompany();
  const [range, setRange] = useState({ from: "", to: "" });
  const tb = useQuery({
    queryKey: ["trial-balance", companyId, range],
    enabled: Boolean(companyId),
    queryFn: async () =>
      unwrap(
        await api.GET("/api/accounting/trial-balance", {
          params: {
            query: {
              company_id: companyId ?? undefined,
              date_from: range.from || undefined,
              date_to: range.to || undefined,
            },
          },
        }),
      ),
  });
  return (
    <>
      <PageHeader
        title={t("trialBalance.title")}
        subtitle={tb.data && `${tb.data.fiscal_year_code} · ${tb.data.date_from} – ${tb.data.date_to}`}
      />
      <Paper withBorder p="sm" mb="sm">
        <Group gap="sm">
          <TextInput
            type="date"
            label={t("trialBalance.from")}
            value={range.from}
            onChange={(e) => setRange({ ...range, from: e.currentTarget.value })}
          />
          <TextInput
            type="date"
            label={t("trialBalance.to")}
            value={range.to}
            onChange={(e) => setRange({ ...range, to: e.currentTarget.value })}
          />
        </Group>
      </Paper>
      <Paper withBorder>
        <QueryState query={tb} isEmpty={(d) => d.rows.length === 0}>
          {(d) => (
            <Table.ScrollContainer minWidth={800}>
              <Table striped highlightOnHover data-testid="trial-balance">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t("entries.account")}</Table.Th>
                    <Table.Th>{t("common.name")}</Table.Th>
                    <Table.Th ta="right">{t("entries.debit")}</Table.Th>
                    <Table.Th ta="right">{t("entries.credit")}</Table.Th>
                    <Table.Th ta="right">{t("trialBalance.balance")}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {d.rows.map((r) => (
                    <Table.Tr key={r.code}>
                      <Table.Td ff="monospace">
                        <Link
                          className="cell-link"
                          to="/accounting/entries"
                          search={{ subaccount: r.code }}
                          aria-label={t("trialBalance.drill", { code: r.code })}
                        >
                          {r.code}
                        </Link>
                      </Table.Td>
                      <Table.Td>{r.name}</Table.Td>
                      <Table.Td ta="right" ff="monospace">
                        {formatMoney(r.period_debit)}
                      </Table.Td>
                      <Table.Td ta="right" ff="monospace">
                        {formatMoney(r.period_credit)}
                      </Table.Td>
                      <Table.Td
                        ta="right"
                        ff="monospace"
                        c={Number(r.closing_balance) < 0 ? "red.9" : undefined}
                      >
                        {formatMoney(r.closing_balance)}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
                <Table.Tfoot>
                  <Table.Tr fw={700}>
                    <Table.Td colSpan={2}>{t("common.total")}</Table.Td>
                    <Table.Td ta="right" ff="monospace" data-testid="tb-total-debit">
                      {formatMoney(d.totals.period_debit)}
                    </Table.Td>
                    <Table.Td ta="right" ff="monospace">
                      {formatMoney(d.totals.period_credit)}
                    </Table.Td>
                    <Table.Td ta="right" ff="monospace">
                      {formatMoney(d.totals.closing_balance)}
                    </Table.Td>
                  </Table.Tr>
                </Table.Tfoot>
              </Table>
            </Table.ScrollContainer>
          )}
        </QueryState>
      </Paper>
    </>
  );
}
