import {
  Badge,
  Button,
  Group,
  Paper,
  Select,
  Table,
  Text,
  TextInput,
  UnstyledButton,
  VisuallyHidden,
} from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { IconCash } from "@tabler/icons-react";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import Decimal from "decimal.js";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useCan, useCompany } from "../../auth/session";
import { PageHeader } from "../../components/PageHeader";
import { QueryState } from "../../components/states";
import { formatDate, formatMoney } from "../../i18n";
import { DueDrawer } from "./DueDrawer";
import { PayDialog } from "./PayDialog";
import {
  type Direction,
  DUE_STATUS_COLOR,
  DUE_STATUSES,
  type Due,
  type DueStatus,
  listContacts,
  listDues,
} from "./treasuryApi";

const PAGE = 100;

export function ReceiptsPage() {
  return <DuesPage direction="sale" />;
}

export function PaymentsPage() {
  return <DuesPage direction="purchase" />;
}

/**
 * Customer receipts or supplier payments: the instalments by due date, filtered as the API filters
 * them, read a page at a time by keyset (`after`), so a ledger of any size costs one page per click.
 */
function DuesPage({ direction }: { direction: Direction }) {
  const { t } = useTranslation();
  const { companyId } = useCompany();
  const canPay = useCan("treasury:crear");
  const sale = direction === "sale";
  const [status, setStatus] = useState<DueStatus | null>(null);
  const [dateFrom, setDateFrom] = useState("");
  const [dateTo, setDateTo] = useState("");
  const [contactId, setContactId] = useState<string | null>(null);
  const [text, setText] = useState("");
  const [search] = useDebouncedValue(text.trim(), 300);
  const [openId, setOpenId] = useState<string | null>(null);
  const [paying, setPaying] = useState<Due | null>(null);

  const contacts = useQuery({
    queryKey: ["contacts", companyId, sale ? "customer" : "supplier"],
    enabled: Boolean(companyId),
    queryFn: () => listContacts(companyId, sale ? "customer" : "supplier"),
  });
  const filters = {
    company_id: companyId ?? undefined,
    status: status ?? undefined,
    date_from: dateFrom || undefined,
    date_to: dateTo || undefined,
    contact_id: contactId ?? undefined,
    search: search || undefined,
    limit: PAGE,
  };
  const list = useInfiniteQuery({
    queryKey: ["dues", direction, filters],
    enabled: Boolean(companyId),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => listDues(direction, { ...filters, after: pageParam }),
    getNextPageParam: (last) => (last.data.length === PAGE ? last.data.at(-1)?.id : undefined),
  });
  const rows = list.data?.pages.flatMap((p) => p.data) ?? [];
  const first = list.data?.pages[0];
  const total = first ? `${first.total_is_estimate ? "≈ " : ""}${first.total}` : null;

  return (
    <>
      <PageHeader
        title={t(sale ? "treasuryPages.receipts" : "treasuryPages.payments")}
        subtitle={total !== null && t("treasuryPages.shown", { shown: rows.length, total })}
      />
      <Paper withBorder p="sm" mb="sm">
        <Group gap="sm" align="flex-end">
          <Select
            label={t("common.status")}
            w={160}
            clearable
            placeholder={t("common.all")}
            data={DUE_STATUSES.map((s) => ({ value: s, label: t(`treasuryPages.status.${s}`) }))}
            value={status}
            onChange={(v) => setStatus(v as DueStatus | null)}
          />
          <TextInput
            type="date"
            label={t("treasuryPages.dueFrom")}
            value={dateFrom}
            onChange={(e) => setDateFrom(e.currentTarget.value)}
          />
          <TextInput
            type="date"
            label={t("treasuryPages.dueTo")}
            value={dateTo}
            onChange={(e) => setDateTo(e.currentTarget.value)}
          />
          <Select
            label={t(sale ? "treasuryPages.customer" : "treasuryPages.supplier")}
            w={260}
            clearable
            searchable
            placeholder={t("common.all")}
            data={(contacts.data?.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
            value={contactId}
            onChange={setContactId}
          />
          <TextInput
            label={t("common.search")}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            w={220}
          />
        </Group>
      </Paper>
      <Paper withBorder>
        <QueryState query={{ ...list, data: rows }} isEmpty={(d) => d.length === 0}>
          {(data) => (
            <Table.ScrollContainer minWidth={1000}>
              <Table striped highlightOnHover data-testid="dues-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t("common.code")}</Table.Th>
                    <Table.Th>{t(sale ? "treasuryPages.customer" : "treasuryPages.supplier")}</Table.Th>
                    <Table.Th>{t("treasuryPages.invoiceDate")}</Table.Th>
                    <Table.Th>{t("treasuryPages.dueDate")}</Table.Th>
                    <Table.Th ta="right">{t("common.amount")}</Table.Th>
                    <Table.Th ta="right">{t("treasuryPages.paid")}</Table.Th>
                    <Table.Th ta="right">{t("treasuryPages.open")}</Table.Th>
                    <Table.Th>{t("common.status")}</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>{t("common.actions")}</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.map((d) => (
                    <Table.Tr key={d.id}>
                      <Table.Td ff="monospace">
                        <UnstyledButton
                          className="cell-link"
                          fz="sm"
                          ff="monospace"
                          onClick={() => setOpenId(d.id)}
                        >
                          {d.code}
                        </UnstyledButton>
                        {d.supplier_number && (
                          <Text size="xs" c="dimmed">
                            {d.supplier_number}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>{d.contact_name}</Table.Td>
                      <Table.Td>{formatDate(d.invoice_date)}</Table.Td>
                      <Table.Td>{formatDate(d.due_date)}</Table.Td>
                      <Table.Td ta="right" ff="monospace">
                        {formatMoney(d.amount)}
                      </Table.Td>
                      <Table.Td ta="right" ff="monospace">
                        {formatMoney(d.paid_amount)}
                      </Table.Td>
                      <Table.Td ta="right" ff="monospace" fw={600}>
                        {formatMoney(d.open_amount)}
                      </Table.Td>
                      <Table.Td>
                        <Badge color={DUE_STATUS_COLOR[d.status]} variant="light">
                          {t(`treasuryPages.status.${d.status}`)}
                        </Badge>
                      </Table.Td>
                      <Table.Td ta="right">
                        {canPay && !new Decimal(d.open_amount).isZero() && (
                          <Button
                            variant="light"
                            leftSection={<IconCash size={14} />}
                            onClick={() => setPaying(d)}
                            aria-label={`${t(sale ? "treasuryPages.collect" : "treasuryPages.pay")} ${d.code}`}
                          >
                            {t(sale ? "treasuryPages.collect" : "treasuryPages.pay")}
                          </Button>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </QueryState>
        {list.hasNextPage && (
          <Group justify="center" p="sm">
            <Button
              variant="default"
              loading={list.isFetchingNextPage}
              onClick={() => void list.fetchNextPage()}
            >
              {t("treasuryPages.more")}
            </Button>
          </Group>
        )}
      </Paper>
      <DueDrawer direction={direction} id={openId} onClose={() => setOpenId(null)} onPay={setPaying} />
      <PayDialog direction={direction} due={paying} onClose={() => setPaying(null)} />
    </>
  );
}
