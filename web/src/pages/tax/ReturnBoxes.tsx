import {
  Button,
  Drawer,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from "@mantine/core";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "../../api/client";
import { notifyError, notifySuccess } from "../../components/notify";
import { QueryState } from "../../components/states";
import { parseAmount } from "../../forms/validation";
import { formatDate, formatMoney, formatNumber } from "../../i18n";
import { groupBoxes } from "./forms";
import type { TaxReturn } from "./ReturnDetailPage";

const TYPES = ["I", "U", "G", "D", "X", "V", "C", "N"] as const;
type DeclarationType = (typeof TYPES)[number];
type Box = TaxReturn["box_list"][number];

/** The return's boxes by form section; manual boxes are inputs while the return is a draft. */
export function ReturnBoxes({
  r,
  editable,
  onSaved,
}: {
  r: TaxReturn;
  editable: boolean;
  onSaved: (r: TaxReturn) => void;
}) {
  const { t } = useTranslation();
  const [hideZero, setHideZero] = useState(true);
  const [typed, setTyped] = useState<Record<string, string>>({});
  const [type, setType] = useState<DeclarationType | null>(null);
  const [iban, setIban] = useState<string | null>(null);
  const [shown, setShown] = useState<string | null>(null);
  const invalid = Object.entries(typed).filter(([, v]) => parseAmount(v).isNaN());
  const changed = Object.keys(typed).length > 0 || type !== null || iban !== null;
  const save = useMutation({
    mutationFn: async () => {
      const manual_boxes = Object.fromEntries(
        Object.entries(typed).map(([box, v]) => [box, v.trim() ? parseAmount(v).toFixed(2) : null]),
      );
      return unwrap(
        await api.PATCH("/api/tax/returns/{id}", {
          params: { path: { id: r.id } },
          body: {
            ...(Object.keys(manual_boxes).length ? { manual_boxes } : {}),
            ...(type !== null ? { declaration_type: type } : {}),
            ...(iban !== null ? { iban: iban.trim() || null } : {}),
          },
        }),
      );
    },
    onSuccess: (updated) => {
      setTyped({});
      setType(null);
      setIban(null);
      notifySuccess(t("common.saved"));
      onSaved(updated);
    },
    onError: notifyError,
  });
  const value = (b: Box) => (b.unit === "count" ? formatNumber(b.value, 0) : formatMoney(b.value));
  const groups = groupBoxes(r.box_list).map((g) => ({
    ...g,
    boxes: g.boxes.filter((b) => !hideZero || Number(b.value) !== 0 || (editable && b.manual) || b.formula),
  }));
  return (
    <>
      <Group justify="space-between" mb="sm">
        <Switch
          label={t("tax.hideZero")}
          checked={hideZero}
          onChange={(e) => setHideZero(e.currentTarget.checked)}
        />
        {editable && (
          <Button
            disabled={!changed || invalid.length > 0}
            loading={save.isPending}
            onClick={() => save.mutate()}
          >
            {t("tax.saveManual")}
          </Button>
        )}
      </Group>
      {editable && ["303", "111", "115"].includes(r.model) && (
        <Paper withBorder p="sm" mb="md">
          <Group gap="sm" align="flex-end">
            <Select
              label={t("tax.declarationType")}
              data={TYPES.map((v) => ({ value: v, label: `${v} · ${t(`tax.types.${v}`)}` }))}
              value={type ?? r.declaration_type}
              onChange={(v) => setType(v as DeclarationType | null)}
              allowDeselect={false}
              w={300}
            />
            <TextInput
              label="IBAN"
              value={iban ?? r.iban ?? ""}
              onChange={(e) => setIban(e.currentTarget.value)}
              w={320}
              ff="monospace"
            />
          </Group>
        </Paper>
      )}
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        {groups.map((g) => (
          <Paper withBorder key={g.key} p="sm">
            <Title order={2} size="h5" mb="xs">
              {t(`tax.sections.${g.key}`)}
            </Title>
            <Table striped withRowBorders={false} verticalSpacing={4}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={60}>{t("tax.box")}</Table.Th>
                  <Table.Th>{t("common.description")}</Table.Th>
                  <Table.Th ta="right">{t("common.amount")}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {g.boxes.map((b) => {
                  const traceable = !b.manual && !b.formula && Number(b.value) !== 0;
                  const typedValue = typed[b.box];
                  return (
                    <Table.Tr key={b.box} fw={b.formula ? 600 : undefined}>
                      <Table.Td ff="monospace">
                        {traceable ? (
                          <UnstyledButton
                            c="indigo.7"
                            ff="monospace"
                            fz="sm"
                            td="underline"
                            aria-label={t("tax.invoicesOf", { box: b.box })}
                            onClick={() => setShown(b.box)}
                          >
                            {b.box}
                          </UnstyledButton>
                        ) : (
                          b.box
                        )}
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{b.label}</Text>
                      </Table.Td>
                      <Table.Td ta="right" ff="monospace" style={{ whiteSpace: "nowrap" }}>
                        {editable && b.manual ? (
                          <TextInput
                            size="xs"
                            w={130}
                            ml="auto"
                            aria-label={`${t("tax.box")} ${b.box}`}
                            value={typedValue ?? r.manual_boxes[b.box] ?? ""}
                            placeholder={b.value}
                            error={typedValue !== undefined && parseAmount(typedValue).isNaN()}
                            onChange={(e) => {
                              const v = e.currentTarget.value;
                              setTyped((prev) => ({ ...prev, [b.box]: v }));
                            }}
                            styles={{ input: { textAlign: "right", fontFamily: "monospace" } }}
                          />
                        ) : (
                          value(b)
                        )}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Paper>
        ))}
      </SimpleGrid>
      <Drawer
        opened={shown !== null}
        onClose={() => setShown(null)}
        position="right"
        size="xl"
        title={shown ? t("tax.invoicesOf", { box: shown }) : ""}
        closeButtonProps={{ "aria-label": t("common.close") }}
      >
        {shown && <BoxInvoices id={r.id} box={shown} />}
      </Drawer>
    </>
  );
}

function BoxInvoices({ id, box }: { id: string; box: string }) {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: ["tax-return-box", id, box],
    queryFn: async () =>
      unwrap(await api.GET("/api/tax/returns/{id}/boxes/{box}", { params: { path: { id, box } } })),
  });
  return (
    <QueryState query={query} isEmpty={(d) => d.invoices.length === 0}>
      {(d) => (
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t("invoices.number")}</Table.Th>
              <Table.Th>{t("common.date")}</Table.Th>
              <Table.Th>{t("tax.counterparty")}</Table.Th>
              <Table.Th>{t("tax.taxCode")}</Table.Th>
              <Table.Th ta="right">{t("common.amount")}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {d.invoices.map((i) => (
              <Table.Tr key={`${i.document_id}-${i.tax_code}`}>
                <Table.Td ff="monospace">{i.code}</Table.Td>
                <Table.Td>{formatDate(i.date)}</Table.Td>
                <Table.Td>{i.contact_name}</Table.Td>
                <Table.Td ff="monospace">{i.tax_code}</Table.Td>
                <Table.Td ta="right" ff="monospace">
                  {formatMoney(i.amount)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </QueryState>
  );
}
