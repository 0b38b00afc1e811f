import {
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Textarea,
  TextInput,
} from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { IconFileTypePdf, IconSend } from "@tabler/icons-react";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate, useParams } from "@tanstack/react-router";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { download } from "../../api/client";
import { ApiError } from "../../api/problem";
import { useCan, useCompany, useMe } from "../../auth/session";
import { notifyError, notifySuccess } from "../../components/notify";
import { PageHeader } from "../../components/PageHeader";
import { QueryState } from "../../components/states";
import {
  blankLine,
  errorText,
  type FieldErrors,
  formFieldErrors,
  type InvoiceForm,
  invoiceLinesBody,
  invoiceProblems,
  trimZeros,
} from "../../forms/invoice";
import i18n from "../../i18n";
import { InvoiceLinesTable, type ResolvedLine } from "./InvoiceLinesTable";
import { InvoiceTotals } from "./InvoiceTotals";
import {
  contactField,
  type Direction,
  getInvoice,
  type Invoice,
  invoiceCode,
  invoiceListPath,
  issueSalesInvoice,
  previewInvoice,
  saveInvoice,
} from "./invoiceApi";
import { INVOICE_STATE_COLOR } from "./invoiceColumns";
import { type InvoiceReferences, type TaxCode, useInvoiceReferences } from "./invoiceReferences";
import { PurchaseDecision } from "./PurchaseDecision";

export const SalesInvoiceEditorPage = () => <InvoiceEditorPage direction="sale" />;
export const PurchaseInvoiceEditorPage = () => <InvoiceEditorPage direction="purchase" />;

/** /sales/invoices/new, /sales/invoices/$invoiceId and the same under /purchases. */
function InvoiceEditorPage({ direction }: { direction: Direction }) {
  const { invoiceId } = useParams({ strict: false }) as { invoiceId?: string };
  const { companyId } = useCompany();
  const refs = useInvoiceReferences(direction, companyId);
  const invoice = useQuery({
    queryKey: ["invoice", direction, invoiceId],
    enabled: Boolean(invoiceId),
    queryFn: () => getInvoice(direction, invoiceId as string),
  });
  // The editor needs the tax codes to show a stored line's codes, and the invoice when editing one.
  const { t } = useTranslation();
  const me = useMe();
  const canCreate = useCan(`${direction === "sale" ? "sales" : "purchases"}:crear`);
  // A new invoice without the permission: the server would refuse it, say so before any typing.
  const refused =
    !invoiceId && me.data && !canCreate
      ? new ApiError(403, { detail: t("invoiceEditor.cannotCreate"), status: 403 })
      : null;
  const failed = refused ?? refs.taxes.error ?? invoice.error;
  const data =
    refs.taxes.data && (!invoiceId || invoice.data)
      ? { taxes: refs.taxes.data, invoice: invoice.data ?? null }
      : undefined;
  return (
    <QueryState
      query={{
        isPending: !failed && !data,
        error: failed,
        data,
        refetch: () => {
          void refs.taxes.refetch();
          void invoice.refetch();
        },
      }}
    >
      {(d) => (
        <InvoiceEditor
          key={`${d.invoice?.id ?? "new"}-${d.invoice?.updated_at ?? ""}`}
          direction={direction}
          invoice={d.invoice}
          taxes={d.taxes}
          refs={refs}
        />
      )}
    </QueryState>
  );
}

/** A stored decimal as the user would type it: no padding zeros, a decimal comma in Spanish. */
const typed = (value: string) => {
  const plain = trimZeros(value);
  return i18n.language === "en" ? plain : plain.replace(".", ",");
};

function formOf(invoice: Invoice | null, taxes: TaxCode[]): InvoiceForm {
  const code = (id: string | null) => taxes.find((c) => c.id === id)?.code ?? null;
  if (!invoice)
    return {
      contact_id: null,
      series: null,
      date: new Date().toISOString().slice(0, 10),
      operation_date: "",
      supplier_number: "",
      notes: "",
      lines: [blankLine()],
    };
  return {
    contact_id: invoice.contact_id,
    series: invoice.series,
    date: invoice.date,
    operation_date: invoice.operation_date ?? "",
    supplier_number: invoice.supplier_number ?? "",
    notes: invoice.notes,
    lines: invoice.lines.map((l) => ({
      ...blankLine(),
      id: l.id,
      product_id: l.product_id,
      description: l.description,
      quantity: typed(l.quantity),
      unit_price: typed(l.unit_price),
      discount: /^0+(\.0+)?$/.test(l.discount1) ? "" : typed(l.discount1),
      tax_code: code(l.tax_code_id),
      irpf_code: code(l.irpf_code_id),
    })),
  };
}

function InvoiceEditor({
  direction,
  invoice,
  taxes,
  refs,
}: {
  direction: Direction;
  invoice: Invoice | null;
  taxes: TaxCode[];
  refs: InvoiceReferences;
}) {
  const { t } = useTranslation();
  const { companyId } = useCompany();
  const client = useQueryClient();
  const navigate = useNavigate();
  const sale = direction === "sale";
  const module = sale ? "sales" : "purchases";
  const canCreate = useCan(`${module}:crear`);
  const canEdit = useCan(`${module}:editar`);
  const initial = useMemo(() => formOf(invoice, taxes), [invoice, taxes]);
  const [form, setForm] = useState<InvoiceForm>(initial);
  const [tried, setTried] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const editableState = sale ? "borrador" : "pendiente";
  const editable = invoice
    ? canEdit && invoice.estado === editableState && !invoice.corrects_invoice_id
    : canCreate;
  const dirty = JSON.stringify(form) !== JSON.stringify(initial);

  const problems = invoiceProblems(form, { supplierNumber: !sale });
  const lineProblems = Object.keys(problems).some((k) => k.startsWith("lines") || k === "contact");
  const body = invoiceLinesBody(form);
  const previewInput =
    editable && !lineProblems && form.contact_id
      ? JSON.stringify({ contact_id: form.contact_id, lines: body.lines, indexMap: body.indexMap })
      : null;
  const [debounced] = useDebouncedValue(previewInput, 350);
  const preview = useQuery({
    queryKey: ["invoice-preview", direction, companyId, debounced],
    enabled: Boolean(debounced),
    placeholderData: keepPreviousData,
    retry: false,
    queryFn: () => {
      const input = JSON.parse(debounced as string);
      return previewInvoice(direction, { company_id: companyId ?? undefined, ...input });
    },
  });
  const previewMap: number[] = debounced ? JSON.parse(debounced).indexMap : [];
  const previewErrors =
    preview.error instanceof ApiError && previewInput === debounced
      ? formFieldErrors(preview.error.problem.errors, previewMap, contactField(direction))
      : {};

  const resolved: (ResolvedLine | undefined)[] = form.lines.map((_, row) => {
    if (!editable && invoice) return invoice.lines[row] && { ...invoice.lines[row], tax_code: null };
    const at = previewMap.indexOf(row);
    return at >= 0 && preview.data && !preview.isPlaceholderData ? preview.data.lines[at] : undefined;
  });
  const shown = !editable && invoice ? invoice : preview.error ? undefined : preview.data;
  const stale = editable && (preview.isFetching || previewInput !== debounced);
  const errors: FieldErrors = {
    ...previewErrors,
    ...serverErrors,
    ...(tried ? problems : {}),
  };

  const persist = async () => {
    const sent = invoiceLinesBody(form);
    try {
      return await saveInvoice(direction, invoice?.id ?? null, {
        company_id: invoice ? undefined : (companyId ?? undefined),
        contact_id: form.contact_id as string,
        ...(form.series ? { series: form.series } : {}),
        date: form.date,
        operation_date: form.operation_date || null,
        ...(sale ? {} : { supplier_number: form.supplier_number.trim() }),
        notes: form.notes,
        lines: sent.lines,
      });
    } catch (err) {
      if (err instanceof ApiError)
        setServerErrors(formFieldErrors(err.problem.errors, sent.indexMap, contactField(direction)));
      throw err;
    }
  };
  const done = (saved: Invoice, message: string) => {
    notifySuccess(message);
    setServerErrors({});
    client.setQueryData(["invoice", direction, saved.id], saved);
    void client.invalidateQueries({ queryKey: [sale ? "sales-invoices" : "purchase-invoices"] });
    void navigate({
      to: sale ? "/sales/invoices/$invoiceId" : "/purchases/invoices/$invoiceId",
      params: { invoiceId: saved.id },
      replace: !invoice,
    });
  };
  const checked = () => {
    setTried(true);
    return Object.keys(problems).length === 0;
  };
  const save = useMutation({
    mutationFn: persist,
    onSuccess: (saved) => done(saved, t("common.saved")),
    onError: notifyError,
  });
  const issue = useMutation({
    mutationFn: async () => issueSalesInvoice(dirty || !invoice ? (await persist()).id : invoice.id),
    onSuccess: (issued) => done(issued, `${t("invoices.issue")}: ${invoiceCode(issued)}`),
    onError: notifyError,
  });

  const contactOptions = (refs.contacts.data ?? [])
    .filter((c) => c.is_active || c.id === form.contact_id)
    .map((c) => ({ value: c.id, label: c.tax_id ? `${c.name} · ${c.tax_id}` : c.name }));
  if (invoice && !contactOptions.some((o) => o.value === invoice.contact_id))
    contactOptions.push({ value: invoice.contact_id, label: invoice.contact.name });
  const seriesOptions = (refs.series.data ?? [])
    .filter((s) => s.is_active || s.code === form.series)
    .map((s) => ({ value: s.code, label: `${s.code} · ${s.name}` }));
  const set = (patch: Partial<InvoiceForm>) => setForm({ ...form, ...patch });
  const fieldError = (key: string) => errorText(t, errors[key]);
  const title = invoice
    ? `${sale ? t("invoiceEditor.saleTitle") : t("invoiceEditor.purchaseTitle")} ${
        sale ? invoiceCode(invoice) : (invoice.supplier_number ?? invoiceCode(invoice))
      }`
    : sale
      ? t("invoiceEditor.newSale")
      : t("invoiceEditor.newPurchase");
  const busy = save.isPending || issue.isPending;
  const general = errorText(t, errors.lines);

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (checked()) save.mutate();
      }}
    >
      <PageHeader
        title={title}
        subtitle={
          invoice && (
            <Badge color={INVOICE_STATE_COLOR[invoice.estado] ?? "gray"} data-testid="invoice-state">
              {invoice.estado}
            </Badge>
          )
        }
        actions={
          <>
            <Button variant="default" onClick={() => void navigate({ to: invoiceListPath(direction) })}>
              {t("common.back")}
            </Button>
            {invoice && (
              <Button
                variant="default"
                leftSection={<IconFileTypePdf size={14} />}
                onClick={() =>
                  download(`/api/${module}/invoices/${invoice.id}/pdf`, `${invoiceCode(invoice)}.pdf`).catch(
                    notifyError,
                  )
                }
              >
                PDF
              </Button>
            )}
            {editable && (
              <Button
                type="submit"
                variant={sale ? "light" : "filled"}
                loading={save.isPending}
                disabled={busy}
              >
                {t("common.save")}
              </Button>
            )}
            {!sale && invoice && (
              <PurchaseDecision invoice={invoice} disabled={busy || dirty} onDone={done} />
            )}
            {sale && editable && canCreate && (
              <Button
                leftSection={<IconSend size={14} />}
                loading={issue.isPending}
                disabled={busy}
                onClick={() => checked() && issue.mutate()}
              >
                {t("invoices.issue")}
              </Button>
            )}
          </>
        }
      />
      <Stack gap="sm">
        {invoice?.rejection_reason && (
          <Alert color="red" title={t("invoices.reject")}>
            {invoice.rejection_reason}
          </Alert>
        )}
        <Paper withBorder p="sm">
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
            <Select
              label={sale ? t("invoices.client") : t("invoices.supplier")}
              data={contactOptions}
              value={form.contact_id}
              onChange={(v) => set({ contact_id: v })}
              searchable
              required
              readOnly={!editable}
              error={fieldError("contact")}
              nothingFoundMessage={t("common.empty")}
              style={{ gridColumn: "span 2" }}
            />
            {!sale && (
              <TextInput
                label={t("invoiceEditor.supplierNumber")}
                value={form.supplier_number}
                onChange={(e) => set({ supplier_number: e.currentTarget.value })}
                required
                readOnly={!editable}
                error={fieldError("supplier_number")}
              />
            )}
            <Select
              label={t("invoiceEditor.series")}
              data={seriesOptions}
              value={form.series}
              onChange={(v) => set({ series: v })}
              placeholder={t("invoiceEditor.byDefault")}
              clearable
              readOnly={!editable || Boolean(invoice?.number)}
              error={fieldError("series")}
            />
            <TextInput
              type="date"
              label={t("common.date")}
              value={form.date}
              onChange={(e) => set({ date: e.currentTarget.value })}
              readOnly={!editable}
              error={fieldError("date")}
            />
            <TextInput
              type="date"
              label={t("invoiceEditor.operationDate")}
              value={form.operation_date}
              onChange={(e) => set({ operation_date: e.currentTarget.value })}
              readOnly={!editable}
              error={fieldError("operation_date")}
            />
            <Textarea
              size="xs"
              label={t("invoiceEditor.notes")}
              value={form.notes}
              onChange={(e) => set({ notes: e.currentTarget.value })}
              readOnly={!editable}
              autosize
              minRows={1}
              style={{ gridColumn: sale ? "span 2" : "span 1" }}
            />
          </SimpleGrid>
        </Paper>
        <Paper withBorder>
          <InvoiceLinesTable
            direction={direction}
            lines={form.lines}
            onChange={(lines) => set({ lines })}
            products={refs.products.data ?? []}
            taxes={taxes}
            resolved={resolved}
            errors={errors}
            readOnly={!editable}
          />
        </Paper>
        {general && (
          <Alert color="red" role="alert">
            {general}
          </Alert>
        )}
        <Group justify="flex-end" align="flex-start">
          <InvoiceTotals totals={shown?.totals} taxes={shown?.taxes ?? []} computing={stale} />
        </Group>
      </Stack>
    </form>
  );
}
