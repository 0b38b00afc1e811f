import { Divider, Group, Loader, Paper, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { formatMoney, formatNumber } from "../../i18n";
import type { InvoicePreview } from "./invoiceApi";

type Totals = InvoicePreview["totals"];
type Tax = Pick<
  InvoicePreview["taxes"][number],
  "kind" | "rate" | "re_rate" | "base" | "amount" | "re_amount"
>;

function Row({
  label,
  value,
  strong,
  testId,
}: {
  label: string;
  value: string;
  strong?: boolean;
  testId?: string;
}) {
  return (
    <Group justify="space-between" gap="xl" wrap="nowrap">
      <Text size={strong ? "md" : "sm"} fw={strong ? 700 : 400}>
        {label}
      </Text>
      <Text size={strong ? "lg" : "sm"} fw={strong ? 700 : 500} ff="monospace" data-testid={testId}>
        {formatMoney(value)}
      </Text>
    </Group>
  );
}

/** The figures the server computed (preview while editing, the stored ones once saved): nothing summed here. */
export function InvoiceTotals({
  totals,
  taxes,
  computing,
}: {
  totals: Totals | undefined;
  taxes: Tax[];
  computing: boolean;
}) {
  const { t } = useTranslation();
  const rate = (r: string) => `${formatNumber(r, Number.isInteger(Number(r)) ? 0 : 2)} %`;
  return (
    <Paper withBorder p="md" w={380} aria-live="polite" aria-busy={computing} data-testid="invoice-totals">
      <Group justify="space-between" mb="xs">
        <Text fw={600}>{t("invoiceEditor.totals")}</Text>
        {computing && (
          <Group gap={6}>
            <Loader size={12} />
            <Text size="xs" c="dimmed">
              {t("invoiceEditor.computing")}
            </Text>
          </Group>
        )}
      </Group>
      {totals ? (
        <Stack gap={4} opacity={computing ? 0.55 : 1}>
          {totals.gross_net !== totals.net && (
            <Row label={t("invoiceEditor.grossNet")} value={totals.gross_net} />
          )}
          <Row label={t("invoices.base")} value={totals.net} testId="invoice-net" />
          {taxes
            .filter((x) => x.kind === "vat")
            .map((x) => (
              <Stack gap={2} key={`vat-${x.rate}-${x.re_rate}-${x.base}`}>
                <Row
                  label={`${t("invoiceEditor.vat")} ${rate(x.rate)} · ${formatMoney(x.base)}`}
                  value={x.amount}
                />
                {Number(x.re_rate) > 0 && (
                  <Row label={`${t("invoiceEditor.re")} ${rate(x.re_rate)}`} value={x.re_amount} />
                )}
              </Stack>
            ))}
          {taxes
            .filter((x) => x.kind === "irpf")
            .map((x) => (
              <Row
                key={`irpf-${x.rate}-${x.base}`}
                label={`${t("invoiceEditor.irpf")} ${rate(x.rate)} · ${formatMoney(x.base)}`}
                value={`-${x.amount}`}
              />
            ))}
          {Number(totals.supplied) !== 0 && (
            <Row label={t("invoiceEditor.supplied")} value={totals.supplied} />
          )}
          <Divider my={4} />
          <Row label={t("common.total")} value={totals.total} strong testId="invoice-total" />
        </Stack>
      ) : (
        <Text size="sm" c="dimmed">
          {t("invoiceEditor.totalsHint")}
        </Text>
      )}
    </Paper>
  );
}
