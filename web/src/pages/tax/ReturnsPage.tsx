import { Badge, Button, Group, Modal, Paper, Select, Stack } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useDisclosure } from "@mantine/hooks";
import { IconPlus } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "../../api/client";
import { useCan, useCompany } from "../../auth/session";
import { DataTable } from "../../components/DataTable";
import { notifyError } from "../../components/notify";
import { PageHeader } from "../../components/PageHeader";
import { formatMoney } from "../../i18n";
import { PERIODS, STATE_COLOR } from "./forms";

const MODELS = ["303", "111", "115", "349", "390"] as const;
type Model = (typeof MODELS)[number];

export function ReturnsPage() {
  const { t } = useTranslation();
  const { companyId } = useCompany();
  const canCreate = useCan("tax:crear");
  const [open, modal] = useDisclosure(false);
  const [model, setModel] = useState<Model | null>(null);
  const [year, setYear] = useState<string | null>(null);
  const list = useQuery({
    queryKey: ["tax-returns", companyId, model, year],
    enabled: Boolean(companyId),
    queryFn: async () =>
      unwrap(
        await api.GET("/api/tax/returns", {
          params: {
            query: {
              company_id: companyId ?? undefined,
              model: model ?? undefined,
              year: year ? Number(year) : undefined,
              limit: 200,
            },
          },
        }),
      ),
  });
  const thisYear = new Date().getFullYear();
  const years = Array.from({ length: 6 }, (_, i) => String(thisYear - i));
  return (
    <>
      <PageHeader
        title={t("tax.returns")}
        subtitle={list.data && t("common.results", { count: list.data.total })}
        actions={
          canCreate && (
            <Button leftSection={<IconPlus size={14} />} onClick={modal.open}>
              {t("tax.newReturn")}
            </Button>
          )
        }
      />
      <Paper withBorder p="sm" mb="sm">
        <Group gap="sm">
          <Select
            aria-label={t("tax.model")}
            placeholder={t("tax.model")}
            data={MODELS.map((m) => ({ value: m, label: `${t("tax.modelo")} ${m}` }))}
            value={model}
            onChange={(v) => setModel(v as Model | null)}
            clearable
            w={180}
          />
          <Select
            aria-label={t("tax.year")}
            placeholder={t("tax.year")}
            data={years}
            value={year}
            onChange={setYear}
            clearable
            w={140}
          />
        </Group>
      </Paper>
      <DataTable
        query={list}
        columns={[
          {
            key: "model",
            header: t("tax.model"),
            render: (r) => (
              <Link to="/tax/returns/$returnId" params={{ returnId: r.id }}>
                {t("tax.modelo")} {r.model}
              </Link>
            ),
          },
          { key: "year", header: t("tax.year"), render: (r) => r.year, mono: true },
          { key: "period", header: t("tax.period"), render: (r) => r.period, mono: true },
          {
            key: "kind",
            header: t("tax.kind"),
            render: (r) => t(`tax.kinds.${r.declaration_kind}`),
          },
          {
            key: "estado",
            header: t("common.status"),
            render: (r) => (
              <Badge color={STATE_COLOR[r.estado] ?? "gray"}>{t(`tax.states.${r.estado}`)}</Badge>
            ),
          },
          {
            key: "type",
            header: t("tax.declarationType"),
            render: (r) => r.declaration_type ?? "—",
            mono: true,
          },
          {
            key: "result",
            header: t("tax.result"),
            render: (r) => formatMoney(r.result),
            align: "right",
            mono: true,
          },
        ]}
      />
      <Modal opened={open} onClose={modal.close} title={t("tax.newReturn")}>
        <NewReturnForm companyId={companyId} years={years} onCancel={modal.close} />
      </Modal>
    </>
  );
}

function NewReturnForm({
  companyId,
  years,
  onCancel,
}: {
  companyId: string | null;
  years: string[];
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const navigate = useNavigate();
  const form = useForm({
    initialValues: { model: "303" as Model, year: years[0] ?? "", period: "1T" },
    validate: {
      period: (v, values) =>
        values.model === "390" || PERIODS.quarter.includes(v) || PERIODS.month.includes(v)
          ? null
          : t("auth.required"),
    },
  });
  const create = useMutation({
    mutationFn: async (v: typeof form.values) =>
      unwrap(
        await api.POST("/api/tax/returns", {
          body: {
            company_id: companyId ?? undefined,
            model: v.model,
            year: Number(v.year),
            period: v.model === "390" ? "0A" : v.period,
          },
        }),
      ),
    onSuccess: (r) => {
      void client.invalidateQueries({ queryKey: ["tax-returns"] });
      void navigate({ to: "/tax/returns/$returnId", params: { returnId: r.id } });
    },
    onError: notifyError,
  });
  const periodOptions = [
    { group: t("tax.quarters"), items: PERIODS.quarter },
    { group: t("tax.months"), items: PERIODS.month },
  ];
  return (
    <form onSubmit={form.onSubmit((v) => create.mutate(v))}>
      <Stack gap="sm">
        <Select
          label={t("tax.model")}
          data={MODELS.map((m) => ({ value: m, label: `${t("tax.modelo")} ${m}` }))}
          allowDeselect={false}
          {...form.getInputProps("model")}
        />
        <Select label={t("tax.year")} data={years} allowDeselect={false} {...form.getInputProps("year")} />
        {form.values.model !== "390" && (
          <Select
            label={t("tax.period")}
            data={periodOptions}
            allowDeselect={false}
            {...form.getInputProps("period")}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t("common.cancel")}
          </Button>
          <Button type="submit" loading={create.isPending}>
            {t("tax.compute")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
