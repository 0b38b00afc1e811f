import { Badge, Button, Drawer, Group, Paper, Stack, Table, Text, UnstyledButton } from "@mantine/core";
import { IconArrowBackUp, IconPlus } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "../../api/client";
import { useCan, useCompany } from "../../auth/session";
import { notifyError, notifySuccess } from "../../components/notify";
import { PageHeader } from "../../components/PageHeader";
import { useSearchBox } from "../../components/SearchBox";
import { QueryState } from "../../components/states";
import { formatDate, formatMoney } from "../../i18n";

const ROW = 32;

/** The journal: up to 10,000 entries in one virtualised list (only the visible rows are in the DOM). */
export function EntriesPage() {
  const { t } = useTranslation();
  const { companyId } = useCompany();
  const { subaccount, entry } = useSearch({ from: "/app/accounting/entries" });
  const navigate = useNavigate({ from: "/accounting/entries" });
  const canCreate = useCan("accounting:crear");
  const { search, box: searchBox } = useSearchBox(
    subaccount && (
      <Badge
        size="lg"
        variant="outline"
        rightSection={
          <Text
            component="button"
            type="button"
            aria-label={t("common.close")}
            onClick={() => void navigate({ search: {} })}
            style={{ all: "unset", cursor: "pointer" }}
          >
            ×
          </Text>
        }
      >
        {t("entries.account")}: {subaccount}
      </Badge>
    ),
  );
  // ?entry= opens that entry (links from other screens, e.g. a tax settlement).
  const [openId, setOpenId] = useState<string | null>(entry ?? null);
  const entries = useQuery({
    queryKey: ["entries", companyId, search, subaccount],
    enabled: Boolean(companyId),
    queryFn: async () =>
      unwrap(
        await api.GET("/api/accounting/entries", {
          params: {
            query: {
              company_id: companyId ?? undefined,
              search: search || undefined,
              subaccount_code: subaccount,
              limit: 10000,
              sort: "newest",
            },
          },
        }),
      ),
  });
  const parent = useRef<HTMLDivElement>(null);
  const rows = entries.data?.data ?? [];
  const virtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => parent.current,
    estimateSize: () => ROW,
    overscan: 20,
  });

  return (
    <>
      <PageHeader
        title={t("entries.title")}
        subtitle={entries.data && t("common.results", { count: entries.data.total })}
        actions={
          canCreate && (
            <Button component={Link} to="/accounting/entries/new" leftSection={<IconPlus size={14} />}>
              {t("entries.new")}
            </Button>
          )
        }
      />
      {searchBox}
      <Paper withBorder>
        <QueryState query={entries} isEmpty={(d) => d.data.length === 0}>
          {() => {
            const visible = virtual.getVirtualItems();
            const top = visible[0]?.start ?? 0;
            const bottom = virtual.getTotalSize() - (visible.at(-1)?.end ?? 0);
            return (
              <div
                ref={parent}
                style={{ height: "calc(100vh - 250px)", minHeight: 320, overflow: "auto" }}
                data-testid="entries-scroller"
              >
                <Table striped highlightOnHover stickyHeader layout="fixed" aria-rowcount={rows.length + 1}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th w={110}>{t("entries.number")}</Table.Th>
                      <Table.Th w={110}>{t("common.date")}</Table.Th>
                      <Table.Th w={80}>{t("entries.journal")}</Table.Th>
                      <Table.Th>{t("entries.concept")}</Table.Th>
                      <Table.Th w={140} ta="right">
                        {t("common.total")}
                      </Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {top > 0 && (
                      <tr>
                        <td colSpan={5} style={{ height: top, padding: 0, border: 0 }} />
                      </tr>
                    )}
                    {visible.map((v) => {
                      const e = rows[v.index];
                      return (
                        <Table.Tr key={e.id} h={ROW} aria-rowindex={v.index + 2}>
                          <Table.Td ff="monospace">
                            <UnstyledButton
                              className="cell-link"
                              fz="xs"
                              ff="monospace"
                              onClick={() => setOpenId(e.id)}
                            >
                              {e.fiscal_year_code}/{e.number}
                            </UnstyledButton>
                            {e.reversed_by && (
                              <Badge ml={4} color="gray" size="xs">
                                ↺
                              </Badge>
                            )}
                          </Table.Td>
                          <Table.Td>{formatDate(e.date)}</Table.Td>
                          <Table.Td>{e.journal_code}</Table.Td>
                          <Table.Td
                            style={{ overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }}
                          >
                            {e.concept}
                          </Table.Td>
                          <Table.Td ta="right" ff="monospace">
                            {formatMoney(e.total)}
                          </Table.Td>
                        </Table.Tr>
                      );
                    })}
                    {bottom > 0 && (
                      <tr>
                        <td colSpan={5} style={{ height: bottom, padding: 0, border: 0 }} />
                      </tr>
                    )}
                  </Table.Tbody>
                </Table>
              </div>
            );
          }}
        </QueryState>
      </Paper>
      <Drawer
        opened={openId !== null}
        onClose={() => setOpenId(null)}
        position="right"
        size="xl"
        title={t("entries.title")}
      >
        {openId && <EntryDetail id={openId} onReversed={() => setOpenId(null)} />}
      </Drawer>
    </>
  );
}

function EntryDetail({ id, onReversed }: { id: string; onReversed: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const canReverse = useCan("accounting:crear");
  const entry = useQuery({
    queryKey: ["entries", "detail", id],
    queryFn: async () => unwrap(await api.GET("/api/accounting/entries/{id}", { params: { path: { id } } })),
  });
  const reverse = useMutation({
    mutationFn: async () =>
      unwrap(await api.POST("/api/accounting/entries/{id}/reverse", { params: { path: { id } }, body: {} })),
    onSuccess: () => {
      notifySuccess(t("entries.reversed"));
      void client.invalidateQueries({ queryKey: ["entries"] });
      void client.invalidateQueries({ queryKey: ["trial-balance"] });
      onReversed();
    },
    onError: notifyError,
  });
  return (
    <QueryState query={entry}>
      {(e) => (
        <Stack gap="sm">
          <Group justify="space-between">
            <div>
              <Text fw={600}>
                {e.fiscal_year_code}/{e.number} · {formatDate(e.date)} · {e.journal_code}
              </Text>
              <Text size="sm" c="dimmed">
                {e.concept}
              </Text>
            </div>
            {canReverse && !e.reversed_by && !e.reversal_of && (
              <Button
                variant="light"
                color="red"
                leftSection={<IconArrowBackUp size={14} />}
                loading={reverse.isPending}
                onClick={() => reverse.mutate()}
              >
                {t("entries.reverse")}
              </Button>
            )}
          </Group>
          <Table striped withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("entries.account")}</Table.Th>
                <Table.Th>{t("common.description")}</Table.Th>
                <Table.Th ta="right">{t("entries.debit")}</Table.Th>
                <Table.Th ta="right">{t("entries.credit")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {e.lines.map((l) => (
                <Table.Tr key={l.id}>
                  <Table.Td ff="monospace">{l.subaccount_code}</Table.Td>
                  <Table.Td>{l.description}</Table.Td>
                  <Table.Td ta="right" ff="monospace">
                    {Number(l.debit) ? formatMoney(l.debit) : ""}
                  </Table.Td>
                  <Table.Td ta="right" ff="monospace">
                    {Number(l.credit) ? formatMoney(l.credit) : ""}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      )}
    </QueryState>
  );
}
