import { Button, Modal, Textarea } from "@mantine/core";
import { IconCheck, IconX } from "@tabler/icons-react";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useCan } from "../../auth/session";
import { DialogForm } from "../../components/DialogForm";
import { notifyError } from "../../components/notify";
import { decidePurchaseInvoice, type Invoice } from "./invoiceApi";

/** The purchase invoice editor's approve and reject buttons (pending invoices, purchases:validar). */
export function PurchaseDecision({
  invoice,
  disabled,
  onDone,
}: {
  invoice: Invoice;
  disabled: boolean;
  onDone: (decided: Invoice, message: string) => void;
}) {
  const { t } = useTranslation();
  const canDecide = useCan("purchases:validar");
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState("");
  const decide = useMutation({
    mutationFn: (d: { reject: string } | "approve") => decidePurchaseInvoice(invoice.id, d),
    onSuccess: (decided, d) => {
      setRejecting(false);
      onDone(decided, d === "approve" ? t("invoices.approve") : t("invoices.reject"));
    },
    onError: notifyError,
  });
  if (!canDecide || invoice.estado !== "pendiente") return null;
  return (
    <>
      <Button
        color="teal"
        leftSection={<IconCheck size={14} />}
        disabled={disabled}
        loading={decide.isPending && decide.variables === "approve"}
        onClick={() => decide.mutate("approve")}
      >
        {t("invoices.approve")}
      </Button>
      <Button
        variant="light"
        color="red"
        leftSection={<IconX size={14} />}
        disabled={disabled}
        onClick={() => setRejecting(true)}
      >
        {t("invoices.reject")}
      </Button>
      <Modal
        opened={rejecting}
        onClose={() => setRejecting(false)}
        title={t("invoices.reject")}
        closeButtonProps={{ "aria-label": t("common.close") }}
      >
        <DialogForm
          onSubmit={(e) => {
            e.preventDefault();
            // The dialog is portalled, but React bubbles its submit to the editor's own form.
            e.stopPropagation();
            if (reason.trim()) decide.mutate({ reject: reason.trim() });
          }}
          onCancel={() => setRejecting(false)}
          submitting={decide.isPending}
          submitLabel={t("invoices.reject")}
        >
          <Textarea
            label={t("common.description")}
            required
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
          />
        </DialogForm>
      </Modal>
    </>
  );
}
