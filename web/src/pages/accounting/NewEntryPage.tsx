import {
  ActionIcon,
  Alert,
  Autocomplete,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
} from "@mantine/core";
import { IconPlus, IconTrash } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "../../api/client";
import { useCompany } from "../../auth/session";
import { notifyError, notifySuccess } from "../../components/notify";
import { PageHeader } from "../../components/PageHeader";
import { type EntryLineInput, entryProblems, entryTotals } from "../../forms/validation";
import { formatMoney } from "../../i18n";

const blank = (): EntryLineInput => ({ subaccount_code: "", debit: "", credit: "" });

/** A journal entry typed line by line; the running difference is shown and an unbalanced entry cannot be posted. */
export function NewEntryPage() {
  const { t } = useTranslation();
  const { companyId } = useCompany();
  const client = useQueryClient();
  const navigate = useNavigate();
  const [date, setDate] = useState(new Date().toISOString().slice(0, 10));
  const [concept, setConcept] = useState("");
  const [lines, setLines] = useState<EntryLineInput[]>([blank(), blank()]);
  const [tried, setTried] = useState(false);
  const subaccounts = useQuery({
    queryKey: ["subaccounts", companyId, "all"],
    enabled: Boolean(companyId),
    queryFn: async () =>
      unwrap(
        await api.GET("/api/accounting/subaccounts", {
          params: { query: { company_id: companyId ?? undefined, limit: 5000 } },
        }),
      ),
    staleTime: 300_000,
  });
  const options = (subaccounts.data?.data ?? []).map((s) => `${s.code} ${s.name}`);
  const totals = entryTotals(lines);
  const problems = entryProblems(lines);
  const conceptMissing = !concept.trim();

  const post = useMutation({
    mutationFn: async () =>
      unwrap(
        await api.POST("/api/accounting/entries", {
          body: {
            company_id: companyId ?? undefined,
            date,
            concept: concept.trim(),
            lines: lines
              .filter((l) => l.subaccount_code.trim())
              .map((l) => ({
                subaccount_code: l.subaccount_code.trim().split(/\s+/)[0],
                debit: entryTotals([{ ...l, credit: "" }]).debit.toFixed(2),
                credit: entryTotals([{ ...l, debit: "" }]).credit.toFixed(2),
              })),
          },
        }),
      ),
    onSuccess: (e) => {
      notifySuccess(t("entries.posted", { number: e.number }));
      void client.invalidateQueries({ queryKey: ["entries"] });
      void client.invalidateQueries({ queryKey: ["trial-balance"] });
      void navigate({ to: "/accounting/entries" });
    },
    onError: notifyError,
  });

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (problems.length || conceptMissing) return;
    post.mutate();
  };
  const update = (i: number, patch: Partial<EntryLineInput>) =>
    setLines(lines.map((l, j) => (j === i ? { ...l, ...patch } : l)));
  const difference = totals.difference.isNaN() ? "—" : formatMoney(totals.difference.toFixed(2));

  return (
    <form onSubmit={submit} noValidate>
      <PageHeader title={t("entries.new")} />
      <Stack gap="sm">
        <Paper withBorder p="sm">
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <TextInput
              type="date"
              label={t("common.date")}
              value={date}
              onChange={(e) => setDate(e.currentTarget.value)}
              required
            />
            <TextInput
              label={t("entries.concept")}
              value={concept}
              onChange={(e) => setConcept(e.currentTarget.value)}
              required
              error={tried && conceptMissing ? t("auth.required") : undefined}
              style={{ gridColumn: "span 2" }}
            />
          </SimpleGrid>
        </Paper>
        <Paper withBorder>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("entries.account")}</Table.Th>
                <Table.Th w={160} ta="right">
                  {t("entries.debit")}
                </Table.Th>
                <Table.Th w={160} ta="right">
                  {t("entries.credit")}
                </Table.Th>
                <Table.Th w={40} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {lines.map((l, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: lines have no identity until posted
                <Table.Tr key={i}>
                  <Table.Td>
                    <Autocomplete
                      size="xs"
                      aria-label={`${t("entries.account")} ${i + 1}`}
                      data={options}
                      limit={20}
                      value={l.subaccount_code}
                      onChange={(v) => update(i, { subaccount_code: v })}
                    />
                  </Table.Td>
                  <Table.Td>
                    <TextInput
                      aria-label={`${t("entries.debit")} ${i + 1}`}
                      value={l.debit}
                      onChange={(e) => update(i, { debit: e.currentTarget.value })}
                      styles={{ input: { textAlign: "right" } }}
                      inputMode="decimal"
                    />
                  </Table.Td>
                  <Table.Td>
                    <TextInput
                      aria-label={`${t("entries.credit")} ${i + 1}`}
                      value={l.credit}
                      onChange={(e) => update(i, { credit: e.currentTarget.value })}
                      styles={{ input: { textAlign: "right" } }}
                      inputMode="decimal"
                    />
                  </Table.Td>
                  <Table.Td>
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      aria-label={`${t("common.delete")} ${i + 1}`}
                      disabled={lines.length <= 2}
                      onClick={() => setLines(lines.filter((_, j) => j !== i))}
                    >
                      <IconTrash size={14} />
                    </ActionIcon>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
            <Table.Tfoot>
              <Table.Tr fw={700}>
                <Table.Td>
                  <Button
                    variant="subtle"
                    leftSection={<IconPlus size={14} />}
                    onClick={() => setLines([...lines, blank()])}
                  >
                    {t("entries.addLine")}
                  </Button>
                </Table.Td>
                <Table.Td ta="right" ff="monospace">
                  {totals.debit.isNaN() ? "—" : formatMoney(totals.debit.toFixed(2))}
                </Table.Td>
                <Table.Td ta="right" ff="monospace">
                  {totals.credit.isNaN() ? "—" : formatMoney(totals.credit.toFixed(2))}
                </Table.Td>
                <Table.Td />
              </Table.Tr>
            </Table.Tfoot>
          </Table>
        </Paper>
        <Group justify="space-between">
          <Text
            size="sm"
            fw={600}
            c={totals.balanced ? "teal.9" : "red.9"}
            aria-live="polite"
            data-testid="entry-difference"
          >
            {t("entries.difference")}: {difference} {totals.balanced ? `· ${t("entries.balanced")}` : ""}
          </Text>
          <Group gap="xs">
            <Button variant="default" onClick={() => void navigate({ to: "/accounting/entries" })}>
              {t("common.cancel")}
            </Button>
            <Button type="submit" loading={post.isPending}>
              {t("entries.post")}
            </Button>
          </Group>
        </Group>
        {tried && problems.length > 0 && (
          <Alert color="red" role="alert">
            {problems.map((p) => (
              <Text size="sm" key={p}>
                {t(p, { difference })}
              </Text>
            ))}
          </Alert>
        )}
      </Stack>
    </form>
  );
}
