import { Paper, SimpleGrid, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { unwrap, v1 } from "../../api/client";
import type { Certification } from "../../api/types";
import { DialogForm } from "../../components/DialogForm";
import { notifySuccess } from "../../components/notify";
import { useFormSave } from "../../components/useFormSave";
import { type IssueValues, issueBody, issueRules } from "../../forms/contract";
import { decimalForInput } from "../../forms/products";
import { formatNumber } from "../../i18n";

/**
 * Where and when a certification is issued, and its own retention (PATCH /api/v1/certifications/{id},
 * ADR 021): nothing changes once validada; the retention, a figure, only in borrador.
 */
export function IssueData({ cert, canEdit }: { cert: Certification; canEdit: boolean }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const editable = canEdit && cert.estado !== "validada";
  const draft = cert.estado === "borrador";
  const form = useForm<IssueValues>({
    initialValues: {
      issue_place: cert.issue_place,
      issue_date: cert.issue_date ?? "",
      retention_pct: decimalForInput(cert.retention_pct),
    },
    validate: issueRules(t, cert.period_start),
  });
  const save = useFormSave(
    form,
    async (v) =>
      unwrap(
        await v1.PATCH("/api/v1/certifications/{id}", {
          params: { path: { id: cert.id } },
          body: issueBody(v, draft),
        }),
      ),
    () => {
      notifySuccess(`${t("common.saved")}: ${t("contract.issueTitle")}`);
      void client.invalidateQueries({ queryKey: ["certifications"] });
    },
  );
  const fields = (
    <SimpleGrid cols={{ base: 1, sm: 3 }}>
      <TextInput
        label={t("contract.issuePlace")}
        readOnly={!editable}
        {...form.getInputProps("issue_place")}
      />
      <TextInput
        label={t("contract.issueDate")}
        type="date"
        readOnly={!editable}
        {...form.getInputProps("issue_date")}
      />
      <TextInput
        label={t("contract.retention")}
        description={draft ? t("contract.retentionHint") : t("contract.retentionLocked")}
        inputMode="decimal"
        placeholder={cert.retention_pct === null ? formatNumber(cert.totals.retention_pct) : undefined}
        readOnly={!editable || !draft}
        {...form.getInputProps("retention_pct")}
      />
    </SimpleGrid>
  );
  return (
    <Paper withBorder p="md">
      <Text fw={600} size="sm" mb="sm">
        {t("contract.issueTitle")}
      </Text>
      {editable ? (
        <DialogForm
          onSubmit={form.onSubmit((v) => save.mutate(v))}
          submitting={save.isPending}
          submitLabel={t("common.save")}
        >
          {fields}
        </DialogForm>
      ) : (
        fields
      )}
    </Paper>
  );
}
