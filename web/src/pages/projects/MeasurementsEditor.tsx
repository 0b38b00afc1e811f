import { Alert, Stack, Table, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useTranslation } from "react-i18next";
import type { BudgetItem } from "../../api/types";
import { formatNumber } from "../../i18n";
import { LinesFooter, LinesTable } from "./LineParts";
import { useItemSave } from "./refresh";
import {
  decimalRule,
  inputDecimal,
  lineProduct,
  linesTotal,
  MEASURE_FIELDS,
  type MeasurementText,
  measurementsBody,
} from "./rules";

const blankLine: MeasurementText = { label: "", units: "", length: "", width: "", height: "" };

/**
 * The item's measurement lines (~M): comment, units, length, width and height; each line's product and
 * their sum next to the quantity the item states. Saving the lines makes their sum the quantity; saving
 * none leaves the quantity to be entered by hand.
 */
export function MeasurementsEditor({ item, editable }: { item: BudgetItem; editable: boolean }) {
  const { t, i18n } = useTranslation();
  const comma = i18n.language === "es";
  const form = useForm({
    initialValues: {
      lines: item.measurements.map((m) => ({
        label: m.label,
        units: inputDecimal(m.units, comma),
        length: inputDecimal(m.length, comma),
        width: inputDecimal(m.width, comma),
        height: inputDecimal(m.height, comma),
      })),
    },
    validate: {
      lines: {
        units: decimalRule(t, 3),
        length: decimalRule(t, 3),
        width: decimalRule(t, 3),
        height: decimalRule(t, 3),
      },
    },
  });
  const save = useItemSave(
    item,
    (saved) => `${saved.code}: ${t("budgets.quantity")} ${formatNumber(saved.quantity, 3)}`,
    form.resetDirty,
  );
  const lines = form.values.lines;
  const sum = linesTotal(lines);
  const stored = item.measurements.length > 0;
  const differs = stored && !form.isDirty() && !sum.isNaN() && !sum.equals(item.quantity ?? "0");
  const label = (field: string, i: number) => `${t(`projectsEdit.measure.${field}`)} ${i + 1}`;

  return (
    <form onSubmit={form.onSubmit((v) => save.mutate({ measurements: measurementsBody(v.lines) }))}>
      <Stack gap="sm">
        <LinesTable
          minWidth={720}
          head={
            <>
              <Table.Th>{t("projectsEdit.measure.label")}</Table.Th>
              {MEASURE_FIELDS.map((f) => (
                <Table.Th key={f} w={100} ta="right">
                  {t(`projectsEdit.measure.${f}`)}
                </Table.Th>
              ))}
              <Table.Th w={110} ta="right">
                {t("projectsEdit.partial")}
              </Table.Th>
            </>
          }
          columns={6}
          lines={lines}
          cells={(line, i) => (
            <>
              <Table.Td>
                {editable ? (
                  <TextInput
                    size="xs"
                    aria-label={label("label", i)}
                    {...form.getInputProps(`lines.${i}.label`)}
                  />
                ) : (
                  line.label
                )}
              </Table.Td>
              {MEASURE_FIELDS.map((f) => (
                <Table.Td key={f} ta="right" ff="monospace">
                  {editable ? (
                    <TextInput
                      size="xs"
                      inputMode="decimal"
                      aria-label={label(f, i)}
                      styles={{ input: { textAlign: "right" } }}
                      {...form.getInputProps(`lines.${i}.${f}`)}
                    />
                  ) : (
                    line[f]
                  )}
                </Table.Td>
              ))}
              <Table.Td ta="right" ff="monospace" data-testid={`partial-${i}`}>
                {lineProduct(line).isNaN() ? "—" : formatNumber(lineProduct(line).toFixed(3), 3)}
              </Table.Td>
            </>
          )}
          emptyText={t("projectsEdit.noLines")}
          editable={editable}
          removeLabel={t("projectsEdit.removeLine")}
          onRemove={(i) => form.removeListItem("lines", i)}
        />
        <LinesFooter
          figures={[
            {
              label: t("projectsEdit.linesSum"),
              value: sum.isNaN() ? "—" : formatNumber(sum.toFixed(3), 3),
              testId: "lines-sum",
            },
            {
              label: t("projectsEdit.statedQuantity"),
              value: `${formatNumber(item.quantity, 3)} ${item.unit}`,
              testId: "stated-quantity",
            },
          ]}
          editable={editable}
          addLabel={t("projectsEdit.addLine")}
          onAdd={() => form.insertListItem("lines", { ...blankLine })}
          saveLabel={t("projectsEdit.saveMeasurements")}
          saving={save.isPending}
          dirty={form.isDirty()}
        />
        {differs && (
          <Alert color="yellow" py={6}>
            {t("projectsEdit.statedDiffers")}
          </Alert>
        )}
        {editable && lines.length === 0 && stored && (
          <Text size="xs" c="dimmed">
            {t("projectsEdit.noLinesByHand")}
          </Text>
        )}
      </Stack>
    </form>
  );
}
