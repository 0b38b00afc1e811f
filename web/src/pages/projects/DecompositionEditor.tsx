import { NativeSelect, Stack, Table, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useTranslation } from "react-i18next";
import type { BudgetItem } from "../../api/types";
import { formatNumber } from "../../i18n";
import { LinesFooter, LinesTable } from "./LineParts";
import { useItemSave } from "./refresh";
import {
  type ComponentText,
  componentCosts,
  DECOMPOSITION_TYPES,
  decimalRule,
  decompositionBody,
  directCost,
  inputDecimal,
} from "./rules";

const blankComponent: ComponentText = {
  type: "material",
  code: "",
  unit: "",
  summary: "",
  yield: "",
  price: "",
};

/**
 * The components of the item's unit price (its concept's decomposition): type, code, unit, summary,
 * yield and price, each line's cost and their sum live. The server adds the budget's indirect costs
 * and sets the unit price of every placement of the concept.
 */
export function DecompositionEditor({ item, editable }: { item: BudgetItem; editable: boolean }) {
  const { t, i18n } = useTranslation();
  const comma = i18n.language === "es";
  const form = useForm({
    initialValues: {
      lines: item.decomposition.map(
        (d): ComponentText => ({
          type: d.type,
          code: d.code,
          unit: d.unit,
          summary: d.summary,
          yield: inputDecimal(d.yield, comma),
          price: inputDecimal(d.price, comma),
        }),
      ),
    },
    validate: {
      lines: {
        code: (v: string) => (v.trim() ? null : t("auth.required")),
        yield: decimalRule(t, 6, true),
        price: decimalRule(t, 4, true),
      },
    },
  });
  const save = useItemSave(
    item,
    (saved) =>
      saved.concept.placements > 1
        ? t("projectsEdit.priceChangedIn", { count: saved.concept.placements })
        : `${saved.code}: ${t("budgets.price")} ${formatNumber(saved.unit_price, 4)}`,
    form.resetDirty,
  );
  const lines = form.values.lines;
  const costs = componentCosts(lines);
  const direct = directCost(lines);
  const label = (field: string, i: number) => `${t(`projectsEdit.component.${field}`)} ${i + 1}`;
  const text = (field: keyof ComponentText, i: number, width?: number) =>
    editable ? (
      <TextInput
        size="xs"
        w={width}
        aria-label={label(field, i)}
        inputMode={field === "yield" || field === "price" ? "decimal" : undefined}
        styles={field === "yield" || field === "price" ? { input: { textAlign: "right" } } : undefined}
        {...form.getInputProps(`lines.${i}.${field}`)}
      />
    ) : (
      lines[i][field]
    );

  return (
    <form onSubmit={form.onSubmit((v) => save.mutate({ decomposition: decompositionBody(v.lines) }))}>
      <Stack gap="sm">
        <LinesTable
          minWidth={860}
          head={
            <>
              <Table.Th w={150}>{t("projectsEdit.component.type")}</Table.Th>
              <Table.Th w={110}>{t("projectsEdit.component.code")}</Table.Th>
              <Table.Th w={70}>{t("projectsEdit.component.unit")}</Table.Th>
              <Table.Th>{t("projectsEdit.component.summary")}</Table.Th>
              <Table.Th w={100} ta="right">
                {t("projectsEdit.component.yield")}
              </Table.Th>
              <Table.Th w={100} ta="right">
                {t("projectsEdit.component.price")}
              </Table.Th>
              <Table.Th w={100} ta="right">
                {t("projectsEdit.component.cost")}
              </Table.Th>
            </>
          }
          columns={7}
          lines={lines}
          cells={(line, i) => (
            <>
              <Table.Td>
                {editable ? (
                  <NativeSelect
                    size="xs"
                    aria-label={label("type", i)}
                    data={DECOMPOSITION_TYPES.map((k) => ({
                      value: k,
                      label: t(`projectsEdit.componentType.${k}`),
                    }))}
                    {...form.getInputProps(`lines.${i}.type`)}
                  />
                ) : (
                  t(`projectsEdit.componentType.${line.type}`)
                )}
              </Table.Td>
              <Table.Td ff="monospace">{text("code", i)}</Table.Td>
              <Table.Td>{text("unit", i)}</Table.Td>
              <Table.Td>{text("summary", i)}</Table.Td>
              <Table.Td ta="right" ff="monospace">
                {text("yield", i)}
              </Table.Td>
              <Table.Td ta="right" ff="monospace">
                {text("price", i)}
              </Table.Td>
              <Table.Td ta="right" ff="monospace" data-testid={`cost-${i}`}>
                {costs[i].isNaN() ? "—" : formatNumber(costs[i].toFixed(4), 4)}
              </Table.Td>
            </>
          )}
          emptyText={t("projectsEdit.noComponents")}
          editable={editable}
          removeLabel={t("projectsEdit.removeComponent")}
          onRemove={(i) => form.removeListItem("lines", i)}
        />
        <LinesFooter
          figures={[
            {
              label: t("projectsEdit.directCost"),
              value: direct.isNaN() ? "—" : formatNumber(direct.toFixed(4), 4),
              testId: "direct-cost",
            },
            {
              label: t("projectsEdit.storedPrice"),
              value: formatNumber(item.unit_price, 4),
              testId: "stored-price",
            },
          ]}
          editable={editable}
          addLabel={t("projectsEdit.addComponent")}
          onAdd={() => form.insertListItem("lines", { ...blankComponent })}
          saveLabel={t("projectsEdit.saveDecomposition")}
          saving={save.isPending}
          dirty={form.isDirty()}
        />
      </Stack>
    </form>
  );
}
