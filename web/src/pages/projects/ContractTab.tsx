import { Alert, Paper, SimpleGrid, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { unwrap, v1 } from "../../api/client";
import type { Budget } from "../../api/types";
import { DialogForm } from "../../components/DialogForm";
import { notifySuccess } from "../../components/notify";
import { useFormSave } from "../../components/useFormSave";
import { type ContractValues, contractBody, contractRules } from "../../forms/contract";
import { decimalForInput } from "../../forms/products";

/**
 * The contract data of the works (ADR 021): owner's and site addresses, contract amount, file number
 * and signatories, printed on every certification. Saved with the budget's partial PUT, which the
 * server allows in every state but finalizado and cancelado.
 */
export function ContractTab({ budget, canEdit }: { budget: Budget; canEdit: boolean }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const closed = budget.estado === "finalizado" || budget.estado === "cancelado";
  const editable = canEdit && !closed;
  const form = useForm<ContractValues>({
    initialValues: {
      owner_address: budget.owner_address,
      site_address: budget.site_address,
      contract_amount: decimalForInput(budget.contract_amount),
      file_number: budget.file_number,
      site_manager_name: budget.site_manager_name,
      contractor_signatory: budget.contractor_signatory,
      owner_signatory: budget.owner_signatory,
    },
    validate: contractRules(t),
  });
  const save = useFormSave(
    form,
    async (v) =>
      unwrap(
        await v1.PUT("/api/v1/budgets/{budget_id}", {
          params: { path: { budget_id: budget.id } },
          body: contractBody(v),
        }),
      ),
    () => {
      notifySuccess(`${t("common.saved")}: ${t("contract.title")}`);
      void client.invalidateQueries({ queryKey: ["budgets"] });
    },
  );
  const fields = (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label={t("contract.fileNumber")}
          readOnly={!editable}
          {...form.getInputProps("file_number")}
        />
        <TextInput
          label={t("contract.contractAmount")}
          description={t("contract.contractAmountHint")}
          inputMode="decimal"
          placeholder="0,00"
          readOnly={!editable}
          {...form.getInputProps("contract_amount")}
        />
        <TextInput
          label={t("contract.ownerAddress")}
          readOnly={!editable}
          {...form.getInputProps("owner_address")}
        />
        <TextInput
          label={t("contract.siteAddress")}
          readOnly={!editable}
          {...form.getInputProps("site_address")}
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <TextInput
          label={t("contract.siteManager")}
          readOnly={!editable}
          {...form.getInputProps("site_manager_name")}
        />
        <TextInput
          label={t("contract.contractorSignatory")}
          readOnly={!editable}
          {...form.getInputProps("contractor_signatory")}
        />
        <TextInput
          label={t("contract.ownerSignatory")}
          readOnly={!editable}
          {...form.getInputProps("owner_signatory")}
        />
      </SimpleGrid>
    </>
  );
  return (
    <Paper withBorder p="md">
      <Text size="sm" c="dimmed" mb="sm">
        {t("contract.hint")}
      </Text>
      {closed && (
        <Alert color="gray" mb="sm">
          {t("contract.readOnly")}
        </Alert>
      )}
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
