import { ActionIcon, Button, Select, Table, Text, TextInput } from "@mantine/core";
import { IconPlus, IconTrash } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { blankLine, errorText, type FieldErrors, type InvoiceLineForm } from "../../forms/invoice";
import { formatMoney } from "../../i18n";
import type { Direction } from "./invoiceApi";
import type { Product, TaxCode } from "./invoiceReferences";

/** What the server resolved for a line (its defaults and net), shown as placeholders and in the last column. */
export interface ResolvedLine {
  description: string;
  unit_price: string;
  tax_code: string | null;
  net: string;
}

/** The lines of the invoice editor: product, text, quantity, price, discount, VAT and IRPF codes. */
export function InvoiceLinesTable({
  direction,
  lines,
  onChange,
  products,
  taxes,
  resolved,
  errors,
  readOnly,
}: {
  direction: Direction;
  lines: InvoiceLineForm[];
  onChange: (lines: InvoiceLineForm[]) => void;
  products: Product[];
  taxes: TaxCode[];
  /** By form row; undefined while not computed. */
  resolved: (ResolvedLine | undefined)[];
  errors: FieldErrors;
  readOnly: boolean;
}) {
  const { t } = useTranslation();
  const productOptions = products
    .filter((p) => p.is_active || lines.some((l) => l.product_id === p.id))
    .map((p) => ({ value: p.id, label: `${p.reference} · ${p.description}` }));
  const codes = (kind: "vat" | "irpf") =>
    taxes
      .filter(
        (c) =>
          c.kind === kind && (c.is_active || lines.some((l) => [l.tax_code, l.irpf_code].includes(c.code))),
      )
      .map((c) => ({ value: c.code, label: `${c.code} · ${c.name}` }));
  const vatOptions = codes("vat");
  const irpfOptions = codes("irpf");
  const update = (i: number, patch: Partial<InvoiceLineForm>) =>
    onChange(lines.map((l, j) => (j === i ? { ...l, ...patch } : l)));
  const pickProduct = (i: number, id: string | null) => {
    const product = products.find((p) => p.id === id);
    update(
      i,
      product
        ? {
            product_id: product.id,
            description: product.description,
            unit_price: direction === "sale" ? product.sale_price : product.cost_price,
          }
        : { product_id: null },
    );
  };
  const err = (i: number, field: string) => errorText(t, errors[`lines.${i}.${field}`]);
  const label = (key: string, i: number) => `${t(key)} ${i + 1}`;

  return (
    <Table.ScrollContainer minWidth={1160}>
      <Table verticalSpacing={4} data-testid="invoice-lines">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={36}>#</Table.Th>
            <Table.Th w={190}>{t("invoiceEditor.product")}</Table.Th>
            <Table.Th>{t("common.description")}</Table.Th>
            <Table.Th w={90} ta="right">
              {t("invoiceEditor.quantity")}
            </Table.Th>
            <Table.Th w={110} ta="right">
              {t("invoiceEditor.price")}
            </Table.Th>
            <Table.Th w={76} ta="right">
              {t("invoiceEditor.discount")}
            </Table.Th>
            <Table.Th w={150}>{t("invoiceEditor.vat")}</Table.Th>
            <Table.Th w={150}>{t("invoiceEditor.irpf")}</Table.Th>
            <Table.Th w={110} ta="right">
              {t("common.amount")}
            </Table.Th>
            <Table.Th w={40} />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {lines.map((l, i) => (
            <Table.Tr key={l.key}>
              <Table.Td c="dimmed">{i + 1}</Table.Td>
              <Table.Td>
                <Select
                  size="xs"
                  aria-label={label("invoiceEditor.product", i)}
                  data={productOptions}
                  value={l.product_id}
                  onChange={(v) => pickProduct(i, v)}
                  searchable
                  clearable
                  limit={50}
                  readOnly={readOnly}
                  error={err(i, "product_id")}
                  nothingFoundMessage={t("common.empty")}
                />
              </Table.Td>
              <Table.Td>
                <TextInput
                  size="xs"
                  aria-label={label("common.description", i)}
                  value={l.description}
                  placeholder={resolved[i]?.description}
                  onChange={(e) => update(i, { description: e.currentTarget.value })}
                  readOnly={readOnly}
                  error={err(i, "description")}
                />
              </Table.Td>
              <Table.Td>
                <TextInput
                  size="xs"
                  aria-label={label("invoiceEditor.quantity", i)}
                  value={l.quantity}
                  onChange={(e) => update(i, { quantity: e.currentTarget.value })}
                  readOnly={readOnly}
                  inputMode="decimal"
                  styles={{ input: { textAlign: "right" } }}
                  error={err(i, "quantity")}
                />
              </Table.Td>
              <Table.Td>
                <TextInput
                  size="xs"
                  aria-label={label("invoiceEditor.price", i)}
                  value={l.unit_price}
                  placeholder={resolved[i]?.unit_price}
                  onChange={(e) => update(i, { unit_price: e.currentTarget.value })}
                  readOnly={readOnly}
                  inputMode="decimal"
                  styles={{ input: { textAlign: "right" } }}
                  error={err(i, "unit_price")}
                />
              </Table.Td>
              <Table.Td>
                <TextInput
                  size="xs"
                  aria-label={label("invoiceEditor.discount", i)}
                  value={l.discount}
                  placeholder="0"
                  onChange={(e) => update(i, { discount: e.currentTarget.value })}
                  readOnly={readOnly}
                  inputMode="decimal"
                  styles={{ input: { textAlign: "right" } }}
                  error={err(i, "discount1")}
                />
              </Table.Td>
              <Table.Td>
                <Select
                  size="xs"
                  aria-label={label("invoiceEditor.vat", i)}
                  data={vatOptions}
                  value={l.tax_code}
                  placeholder={resolved[i]?.tax_code ?? t("invoiceEditor.byDefault")}
                  onChange={(v) => update(i, { tax_code: v })}
                  searchable
                  clearable
                  readOnly={readOnly}
                  error={err(i, "tax_code")}
                />
              </Table.Td>
              <Table.Td>
                <Select
                  size="xs"
                  aria-label={label("invoiceEditor.irpf", i)}
                  data={irpfOptions}
                  value={l.irpf_code}
                  placeholder={t("invoiceEditor.none")}
                  onChange={(v) => update(i, { irpf_code: v })}
                  searchable
                  clearable
                  readOnly={readOnly}
                  error={err(i, "irpf_code")}
                />
              </Table.Td>
              <Table.Td ta="right" ff="monospace" data-testid={`line-net-${i + 1}`}>
                <Text size="sm" ff="monospace">
                  {resolved[i] ? formatMoney(resolved[i].net) : "—"}
                </Text>
              </Table.Td>
              <Table.Td>
                {!readOnly && (
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    aria-label={label("invoiceEditor.removeLine", i)}
                    disabled={lines.length <= 1}
                    onClick={() => onChange(lines.filter((_, j) => j !== i))}
                  >
                    <IconTrash size={14} />
                  </ActionIcon>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
        {!readOnly && (
          <Table.Tfoot>
            <Table.Tr>
              <Table.Td colSpan={10}>
                <Button
                  variant="subtle"
                  size="xs"
                  leftSection={<IconPlus size={14} />}
                  onClick={() => onChange([...lines, blankLine()])}
                >
                  {t("invoiceEditor.addLine")}
                </Button>
              </Table.Td>
            </Table.Tr>
          </Table.Tfoot>
        )}
      </Table>
    </Table.ScrollContainer>
  );
}
