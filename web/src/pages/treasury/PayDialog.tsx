import { Alert, Modal, Select, SimpleGrid, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import dayjs from "dayjs";
import Decimal from "decimal.js";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { problemMessage } from "../../api/problem";
import { useCompany } from "../../auth/session";
import { DialogForm } from "../../components/DialogForm";
import { Figure } from "../../components/Figure";
import { notifySuccess } from "../../components/notify";
import { type PayValues, payBody, payRules } from "../../forms/treasury";
import { formatMoney } from "../../i18n";
import { type Direction, type Due, listBankAccounts, payDue, TREASURY_KEYS } from "./treasuryApi";

/** Pays (or collects) an instalment, fully or partly, into one of the company's bank accounts. */
export function PayDialog({
  direction,
  due,
  onClose,
}: {
  direction: Direction;
  due: Due | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const title = t(direction === "sale" ? "treasuryPages.collect" : "treasuryPages.pay");
  return (
    <Modal
      opened={due !== null}
      onClose={onClose}
      title={due ? `${title} ${due.code}` : title}
      closeButtonProps={{ "aria-label": t("common.close") }}
    >
      {due && <PayForm key={due.id} direction={direction} due={due} onDone={onClose} />}
    </Modal>
  );
}

function PayForm({ direction, due, onDone }: { direction: Direction; due: Due; onDone: () => void }) {
  const { t } = useTranslation();
  const { companyId } = useCompany();
  const client = useQueryClient();
  const accounts = useQuery({
    queryKey: ["bank-accounts", companyId],
    enabled: Boolean(companyId),
    queryFn: () => listBankAccounts(companyId),
  });
  const firstAccount = accounts.data?.data[0]?.id ?? null;
  const form = useForm<PayValues>({
    initialValues: {
      date: dayjs().format("YYYY-MM-DD"),
      // The API's decimal string as it is: the field reads both "1234.56" and "1.234,56".
      amount: due.open_amount,
      bank_account_id: null,
      fees: "",
    },
    validate: payRules((k, o) => t(k, o), new Decimal(due.amount).isNegative()),
  });
  const chosen = form.values.bank_account_id;
  // The first account is the default once they have loaded.
  useEffect(() => {
    if (!chosen && firstAccount) form.setFieldValue("bank_account_id", firstAccount);
  }, [chosen, firstAccount, form.setFieldValue]);
  const pay = useMutation({
    mutationFn: (v: PayValues) => payDue(direction, due.id, payBody(v)),
    onSuccess: (p) => {
      notifySuccess(t("treasuryPages.paidNotice", { amount: formatMoney(p.amount), code: due.code }));
      for (const queryKey of TREASURY_KEYS) void client.invalidateQueries({ queryKey });
      onDone();
    },
  });
  return (
    <DialogForm
      onSubmit={form.onSubmit((v) => pay.mutate(v))}
      onCancel={onDone}
      submitting={pay.isPending}
      submitLabel={t(direction === "sale" ? "treasuryPages.collect" : "treasuryPages.pay")}
    >
      <SimpleGrid cols={3}>
        <Figure label={t("common.amount")} value={formatMoney(due.amount)} />
        <Figure label={t("treasuryPages.paid")} value={formatMoney(due.paid_amount)} />
        <Figure label={t("treasuryPages.open")} value={formatMoney(due.open_amount)} strong />
      </SimpleGrid>
      <Text size="sm">{due.contact_name}</Text>
      <TextInput type="date" label={t("common.date")} required {...form.getInputProps("date")} />
      <TextInput
        label={t("treasuryPages.amountToPay")}
        required
        inputMode="decimal"
        {...form.getInputProps("amount")}
      />
      <Select
        label={t("treasuryPages.bankAccount")}
        required
        data={(accounts.data?.data ?? []).map((a) => ({ value: a.id, label: `${a.name} · ${a.iban}` }))}
        {...form.getInputProps("bank_account_id")}
        comboboxProps={{ withinPortal: true }}
      />
      <TextInput
        label={t("treasuryPages.fees")}
        inputMode="decimal"
        description={t("treasuryPages.feesHint")}
        {...form.getInputProps("fees")}
      />
      {pay.error && (
        <Alert color="red" role="alert" title={t("common.error")}>
          <Text size="sm" style={{ whiteSpace: "pre-line" }}>
            {problemMessage(pay.error)}
          </Text>
        </Alert>
      )}
    </DialogForm>
  );
}
