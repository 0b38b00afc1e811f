import { Paper, Stack, Table } from "@mantine/core";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { formatMoney } from "../i18n";

export interface MoneySeries {
  key: string;
  name: string;
  color: string;
  /** Bars by default; a line suits running balances. */
  kind?: "bar" | "line";
}

/** One category of the chart (a chapter, a week...): its amounts by series key, as the API's decimal strings. */
export interface MoneyRow {
  id: string;
  /** The axis label (short: a code, a period). */
  category: string;
  /** The table's first cell; the category when left out. */
  label?: ReactNode;
  values: Record<string, string>;
}

const compact = (v: number) => new Intl.NumberFormat("es-ES", { notation: "compact" }).format(v);

/**
 * Amounts per category as a chart and, below it, the same figures as a table (the table is what the
 * figures are read from: exact decimal strings, also for a screen reader). The chart only plots.
 */
export function MoneyChart({
  rows,
  series,
  categoryHeader,
  totals,
  height = 300,
}: {
  rows: MoneyRow[];
  series: MoneySeries[];
  categoryHeader: ReactNode;
  /** A last, bold row with these amounts by series key (a series left out shows nothing). */
  totals?: Record<string, string>;
  height?: number;
}) {
  const { t } = useTranslation();
  const points = rows.map((r) => ({
    category: r.category,
    ...Object.fromEntries(series.map((s) => [s.key, Number(r.values[s.key] ?? 0)])),
  }));
  return (
    <Stack gap="sm">
      <Paper withBorder p="sm" h={height}>
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={points} margin={{ left: 24 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="category" fontSize={11} />
            <YAxis fontSize={11} tickFormatter={compact} />
            <Tooltip formatter={(v) => formatMoney(Number(v))} />
            <Legend />
            {series.map((s) =>
              s.kind === "line" ? (
                <Line
                  key={s.key}
                  isAnimationActive={false}
                  dataKey={s.key}
                  name={s.name}
                  stroke={s.color}
                  strokeWidth={2}
                  dot={false}
                />
              ) : (
                <Bar key={s.key} isAnimationActive={false} dataKey={s.key} name={s.name} fill={s.color} />
              ),
            )}
          </ComposedChart>
        </ResponsiveContainer>
      </Paper>
      <Paper withBorder>
        <Table.ScrollContainer minWidth={520}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{categoryHeader}</Table.Th>
                {series.map((s) => (
                  <Table.Th key={s.key} ta="right">
                    {s.name}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={r.id}>
                  <Table.Td>{r.label ?? r.category}</Table.Td>
                  {series.map((s) => (
                    <Table.Td key={s.key} ta="right" ff="monospace">
                      {formatMoney(r.values[s.key])}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
              {totals && (
                <Table.Tr fw={700}>
                  <Table.Td>{t("common.total")}</Table.Td>
                  {series.map((s) => (
                    <Table.Td key={s.key} ta="right" ff="monospace">
                      {totals[s.key] === undefined ? "" : formatMoney(totals[s.key])}
                    </Table.Td>
                  ))}
                </Table.Tr>
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
    </Stack>
  );
}
