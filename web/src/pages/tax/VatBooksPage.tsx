import { Badge, Button, Group, Paper, SegmentedControl, TextInput } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { IconFileSpreadsheet, IconFileTypeCsv } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api, download, unwrap } from "../../api/client";
import { useCompany } from "../../auth/session";
import { type Column, DataTable } from "../../components/DataTable";
import { notifyError } from "../../components/notify";
import { PageHeader } from "../../components/PageHeader";
import { formatDate, formatMoney, formatNumber } from "../../i18n";

type Book = "issued" | "received";
/**
 * The JSON page of a VAT book. The route also answers csv/xlsx, so its generated 200 type is
 * `page | unknown` (= unknown): the columns this screen reads are typed here.
 */
interface BookPage {
  total: number;
  data: {
    document_id: string;
    ejercicio: number;
    periodo: string;
    tipo_factura: string;
    fecha_expedicion: string;
    fecha_recepcion: string | null;
    numero: string;
    codigo_pais: string | null;
    nif: string | null;
    nombre: string;
    clave_operacion: string;
    calificacion: string | null;
    exenta: string | null;
    total: string;
    base: string;
    tipo_iva: string;
    cuota_iva: string;
    cuota_re: string;
    irpf_importe: string | null;
  }[];
}
type BookRow = BookPage["data"][number] & { id: string };
const PAGE = 1000;
const EXPORT_LIMIT = 10000;

function quarterBounds(today = new Date()) {
  const q = Math.floor(today.getMonth() / 3);
  const pad = (n: number) => String(n).padStart(2, "0");
  const y = today.getFullYear();
  const last = new Date(y, q * 3 + 3, 0).getDate();
  return { from: `${y}-${pad(q * 3 + 1)}-01`, to: `${y}-${pad(q * 3 + 3)}-${pad(last)}` };
}

/** Libros registro de IVA: issued and received invoices by accrual date, exported in the AEAT format. */
export function VatBooksPage() {
  const { t } = useTranslation();
  const { companyId } = useCompany();
  const [book, setBook] = useState<Book>("issued");
  const initial = quarterBounds();
  const [from, setFrom] = useState(initial.from);
  const [to, setTo] = useState(initial.to);
  const [text, setText] = useState("");
  const [search] = useDebouncedValue(text, 300);
  const badRange = Boolean(from && to && from > to);
  const filters = {
    company_id: companyId ?? undefined,
    date_from: from || undefined,
    date_to: to || undefined,
    search: search || undefined,
  };
  const list = useQuery({
    queryKey: ["vat-book", book, companyId, from, to, search],
    enabled: Boolean(companyId) && !badRange,
    queryFn: async () => {
      const params = { params: { query: { ...filters, limit: PAGE } } };
      const page = unwrap(
        book === "issued"
          ? await api.GET("/api/tax/vat-books/issued", params)
          : await api.GET("/api/tax/vat-books/received", params),
      ) as BookPage;
      // One row per invoice and VAT rate: the invoice alone does not name a row.
      return {
        ...page,
        data: page.data.map((row, i): BookRow => ({ ...row, id: `${row.document_id}-${i}` })),
      };
    },
  });
  const exportAs = (format: "csv" | "xlsx") => {
    const query = new URLSearchParams({ format, limit: String(EXPORT_LIMIT) });
    for (const [k, v] of Object.entries(filters)) if (v) query.set(k, v);
    download(`/api/tax/vat-books/${book}?${query}`, `libro-${book}.${format}`).catch(notifyError);
  };
  const received = book === "received";
  const columns: Column<BookRow>[] = [
    {
      key: "period",
      header: t("tax.period"),
      render: (r) => `${r.ejercicio} ${r.periodo}`,
      mono: true,
    },
    {
      key: "type",
      header: t("tax.invoiceType"),
      render: (r) => <Badge variant="light">{r.tipo_factura}</Badge>,
    },
    { key: "date", header: t("tax.issueDate"), render: (r) => formatDate(r.fecha_expedicion) },
    ...(received
      ? [
          {
            key: "received",
            header: t("tax.receivedDate"),
            render: (r: BookRow) => formatDate(r.fecha_recepcion),
          },
        ]
      : []),
    { key: "number", header: t("invoices.number"), render: (r) => r.numero, mono: true },
    {
      key: "nif",
      header: t("contacts.taxId"),
      render: (r) => `${r.codigo_pais ?? ""}${r.nif ?? "—"}`,
      mono: true,
    },
    { key: "name", header: t("tax.counterparty"), render: (r) => r.nombre },
    {
      key: "key",
      header: t("tax.operationKey"),
      render: (r) => `${r.clave_operacion} ${r.calificacion ?? r.exenta ?? ""}`,
      mono: true,
    },
    {
      key: "base",
      header: t("tax.base"),
      render: (r) => formatMoney(r.base),
      align: "right",
      mono: true,
    },
    {
      key: "rate",
      header: "%",
      render: (r) => formatNumber(r.tipo_iva),
      align: "right",
      mono: true,
    },
    {
      key: "quota",
      header: t("tax.quota"),
      render: (r) => formatMoney(r.cuota_iva),
      align: "right",
      mono: true,
    },
    {
      key: "re",
      header: t("tax.re"),
      render: (r) => (Number(r.cuota_re) ? formatMoney(r.cuota_re) : "—"),
      align: "right",
      mono: true,
    },
    {
      key: "irpf",
      header: "IRPF",
      render: (r) => (r.irpf_importe ? formatMoney(r.irpf_importe) : "—"),
      align: "right",
      mono: true,
    },
    {
      key: "total",
      header: t("common.total"),
      render: (r) => formatMoney(r.total),
      align: "right",
      mono: true,
    },
  ];
  return (
    <>
      <PageHeader
        title={t("tax.vatBooks")}
        subtitle={
          list.data &&
          (list.data.total > PAGE
            ? t("tax.showing", { shown: PAGE, count: list.data.total })
            : t("common.results", { count: list.data.total }))
        }
        actions={
          <>
            <Button
              variant="default"
              leftSection={<IconFileTypeCsv size={14} />}
              disabled={badRange}
              onClick={() => exportAs("csv")}
            >
              CSV
            </Button>
            <Button
              variant="default"
              leftSection={<IconFileSpreadsheet size={14} />}
              disabled={badRange}
              onClick={() => exportAs("xlsx")}
            >
              Excel
            </Button>
          </>
        }
      />
      <Paper withBorder p="sm" mb="sm">
        <Group gap="sm" align="flex-end">
          <SegmentedControl
            aria-label={t("tax.book")}
            value={book}
            onChange={(v) => setBook(v as Book)}
            data={[
              { value: "issued", label: t("tax.issuedBook") },
              { value: "received", label: t("tax.receivedBook") },
            ]}
          />
          <TextInput
            type="date"
            label={t("tax.dateFrom")}
            value={from}
            onChange={(e) => setFrom(e.currentTarget.value)}
            error={badRange ? t("tax.badRange") : null}
          />
          <TextInput
            type="date"
            label={t("tax.dateTo")}
            value={to}
            onChange={(e) => setTo(e.currentTarget.value)}
          />
          <TextInput
            label={t("common.search")}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            w={240}
          />
        </Group>
      </Paper>
      <DataTable query={list} minWidth={1100} columns={columns} />
    </>
  );
}
