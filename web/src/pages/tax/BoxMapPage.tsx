import {
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  TextInput,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { useDebouncedValue } from "@mantine/hooks";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "../../api/client";
import type { paths } from "../../api/generated/api";
import { useCan, useCompany } from "../../auth/session";
import { DataTable } from "../../components/DataTable";
import { notifySuccess } from "../../components/notify";
import { PageHeader } from "../../components/PageHeader";
import { useFormSave } from "../../components/useFormSave";

type Model = "303" | "111" | "115" | "349";
type BoxRow =
  paths["/api/tax/box-map"]["get"]["responses"]["200"]["content"]["application/json"]["data"][number];
const FIELDS = ["base_box", "quota_box", "re_base_box", "re_quota_box"] as const;
const BOX = /^([0-9]{2,3}|[A-Za-z])$/;

/** Where each tax code's amounts land in the forms: read by tax:leer, pointed elsewhere by tax:editar. */
export function BoxMapPage() {
  const { t } = useTranslation();
  const { companyId } = useCompany();
  const canEdit = useCan("tax:editar");
  const [model, setModel] = useState<Model>("303");
  const [text, setText] = useState("");
  const [code] = useDebouncedValue(text.trim(), 300);
  const [editing, setEditing] = useState<BoxRow | null>(null);
  const query = useQuery({
    queryKey: ["tax-box-map", companyId, model, code],
    enabled: Boolean(companyId),
    queryFn: async () =>
      unwrap(
        await api.GET("/api/tax/box-map", {
          params: {
            query: { company_id: companyId ?? undefined, model, tax_code: code || undefined, limit: 1000 },
          },
        }),
      ),
  });
  const box = (v: string | null) => v ?? "—";
  return (
    <>
      <PageHeader
        title={t("tax.boxMap")}
        subtitle={query.data && t("common.results", { count: query.data.total })}
      />
      <Paper withBorder p="sm" mb="sm">
        <Group gap="sm">
          <SegmentedControl
            aria-label={t("tax.model")}
            value={model}
            onChange={(v) => setModel(v as Model)}
            data={["303", "111", "115", "349"]}
          />
          <TextInput
            aria-label={t("tax.taxCode")}
            placeholder={t("tax.taxCode")}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            w={200}
          />
        </Group>
      </Paper>
      <DataTable
        query={query}
        columns={[
          { key: "code", header: t("tax.taxCode"), render: (r) => r.tax_code, mono: true },
          { key: "dir", header: t("tax.direction"), render: (r) => t(`tax.directions.${r.direction}`) },
          {
            key: "rect",
            header: t("tax.invoiceType"),
            render: (r) =>
              r.rectifying ? <Badge color="orange">{t("tax.rectifying")}</Badge> : t("tax.ordinary"),
          },
          { key: "side", header: t("tax.side"), render: (r) => t(`tax.sides.${r.side}`) },
          {
            key: "base",
            header: model === "349" ? t("tax.key") : t("tax.baseBox"),
            render: (r) => box(r.base_box),
            mono: true,
          },
          { key: "quota", header: t("tax.quotaBox"), render: (r) => box(r.quota_box), mono: true },
          { key: "reb", header: t("tax.reBaseBox"), render: (r) => box(r.re_base_box), mono: true },
          { key: "req", header: t("tax.reQuotaBox"), render: (r) => box(r.re_quota_box), mono: true },
          {
            key: "actions",
            header: "",
            align: "right",
            render: (r) =>
              canEdit && (
                <Button
                  variant="subtle"
                  onClick={() => setEditing(r)}
                  aria-label={`${t("common.edit")} ${r.tax_code}`}
                >
                  {t("common.edit")}
                </Button>
              ),
          },
        ]}
      />
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing ? `${t("tax.boxMap")} · ${editing.tax_code}` : ""}
      >
        {editing && <BoxRowForm row={editing} onDone={() => setEditing(null)} />}
      </Modal>
    </>
  );
}

function BoxRowForm({ row, onDone }: { row: BoxRow; onDone: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const initial = Object.fromEntries(FIELDS.map((f) => [f, row[f] ?? ""])) as Record<
    (typeof FIELDS)[number],
    string
  >;
  const form = useForm({
    initialValues: initial,
    validate: Object.fromEntries(
      FIELDS.map((f) => [f, (v: string) => (!v.trim() || BOX.test(v.trim()) ? null : t("tax.badBox"))]),
    ),
  });
  const save = useFormSave(
    form,
    async (v) => {
      const body = Object.fromEntries(
        FIELDS.filter((f) => v[f].trim() !== initial[f]).map((f) => [f, v[f].trim() || null]),
      );
      return unwrap(await api.PATCH("/api/tax/box-map/{id}", { params: { path: { id: row.id } }, body }));
    },
    () => {
      notifySuccess(t("common.saved"));
      void client.invalidateQueries({ queryKey: ["tax-box-map"] });
      onDone();
    },
  );
  const labels: Record<(typeof FIELDS)[number], string> = {
    base_box: row.model === "349" ? t("tax.key") : t("tax.baseBox"),
    quota_box: t("tax.quotaBox"),
    re_base_box: t("tax.reBaseBox"),
    re_quota_box: t("tax.reQuotaBox"),
  };
  return (
    <form onSubmit={form.onSubmit((v) => save.mutate(v))}>
      <Stack gap="sm">
        <SimpleGrid cols={2}>
          {FIELDS.map((f) => (
            <TextInput key={f} label={labels[f]} ff="monospace" {...form.getInputProps(f)} />
          ))}
        </SimpleGrid>
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t("common.cancel")}
          </Button>
          <Button type="submit" loading={save.isPending} disabled={!form.isDirty()}>
            {t("common.save")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
