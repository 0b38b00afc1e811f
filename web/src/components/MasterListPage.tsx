import { Badge, Button, Group, Modal } from "@mantine/core";
import type { UseFormReturnType } from "@mantine/form";
import { IconPlus } from "@tabler/icons-react";
import { type QueryKey, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { useCan } from "../auth/session";
import { type Column, DataTable } from "./DataTable";
import { notifyError, notifySuccess } from "./notify";
import { PageHeader } from "./PageHeader";
import { useSearchBox } from "./SearchBox";
import { useFormSave } from "./useFormSave";

interface MasterRecord {
  id: string;
  is_active: boolean;
}

/** What the page's create/edit form receives: the record (null for a new one) and how to leave. */
export interface MasterFormProps<T> {
  record: T | null;
  /** Closes the dialog and refreshes the lists the record appears in. */
  onDone: () => void;
  onCancel: () => void;
}

export interface MasterListProps<T extends MasterRecord> {
  title: string;
  newLabel: string;
  /** The edit dialog's title; without it (and the edit permission) the rows have no Edit button. */
  editLabel?: string;
  permissions: { create: string; edit?: string; deactivate?: string };
  list: {
    /** The query key; the search text is appended when the list is searchable. */
    key: QueryKey;
    fetch: (search: string | undefined) => Promise<{ data: T[]; total: number }>;
    enabled?: boolean;
    searchable?: boolean;
  };
  /** The record's own columns; the status badge and the row's buttons follow them. */
  columns: Column<T>[];
  statusWidth?: number;
  /** Names the row in its buttons' accessible names ("Editar C0001"). */
  rowLabel: (row: T) => string;
  /** The API's DELETE, which deactivates; without it the rows have no Deactivate button. */
  deactivate?: (id: string) => Promise<unknown>;
  /** Whether an active row may be deactivated (default: every one). */
  deactivatable?: (row: T) => boolean;
  /** The query keys' first parts to refresh after a save or a deactivation (default: the list's). */
  refreshes?: string[];
  dialogSize?: "lg";
  form: (props: MasterFormProps<T>) => ReactNode;
}

/**
 * A master data page (contacts, products, agents, ...): title with the count and New, the search box,
 * the table with each row's status, Edit and Deactivate (each shown only with its permission), and
 * the create/edit dialog.
 */
export function MasterListPage<T extends MasterRecord>(props: MasterListProps<T>) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const canCreate = useCan(props.permissions.create);
  const canEdit = useCan(props.permissions.edit ?? "") && Boolean(props.editLabel);
  const canDeactivate = useCan(props.permissions.deactivate ?? "") && Boolean(props.deactivate);
  const { search, box } = useSearchBox();
  const [editing, setEditing] = useState<T | "new" | null>(null);
  const { list } = props;
  const query = useQuery({
    queryKey: list.searchable ? [...list.key, search] : list.key,
    enabled: list.enabled ?? true,
    queryFn: () => list.fetch(list.searchable ? search : undefined),
  });
  const refresh = () => {
    for (const root of props.refreshes ?? [String(list.key[0])])
      void client.invalidateQueries({ queryKey: [root] });
  };
  const deactivate = useMutation({
    mutationFn: async (id: string) => props.deactivate?.(id),
    onSuccess: () => {
      notifySuccess(t("masters.deactivated"));
      refresh();
    },
    onError: notifyError,
  });
  const status: Column<T> = {
    key: "active",
    header: t("common.status"),
    width: props.statusWidth,
    render: (r) => (
      <Badge color={r.is_active ? "teal" : "gray"}>
        {r.is_active ? t("common.active") : t("common.inactive")}
      </Badge>
    ),
  };
  const actions: Column<T> = {
    key: "actions",
    header: "",
    align: "right",
    render: (r) => (
      <Group gap={4} justify="flex-end" wrap="nowrap">
        {canEdit && (
          <Button
            variant="subtle"
            onClick={() => setEditing(r)}
            aria-label={`${t("common.edit")} ${props.rowLabel(r)}`}
          >
            {t("common.edit")}
          </Button>
        )}
        {canDeactivate && r.is_active && (props.deactivatable?.(r) ?? true) && (
          <Button
            variant="subtle"
            color="red"
            loading={deactivate.isPending && deactivate.variables === r.id}
            onClick={() => deactivate.mutate(r.id)}
            aria-label={`${t("users.deactivate")} ${props.rowLabel(r)}`}
          >
            {t("users.deactivate")}
          </Button>
        )}
      </Group>
    ),
  };
  const close = () => setEditing(null);
  return (
    <>
      <PageHeader
        title={props.title}
        subtitle={query.data && t("common.results", { count: query.data.total })}
        actions={
          canCreate && (
            <Button leftSection={<IconPlus size={14} />} onClick={() => setEditing("new")}>
              {props.newLabel}
            </Button>
          )
        }
      />
      {list.searchable && box}
      <DataTable query={query} columns={[...props.columns, status, actions]} />
      <Modal
        opened={editing !== null}
        onClose={close}
        closeButtonProps={{ "aria-label": t("common.close") }}
        title={editing === "new" ? props.newLabel : props.editLabel}
        size={props.dialogSize}
      >
        {editing !== null &&
          props.form({
            record: editing === "new" ? null : editing,
            onDone: () => {
              close();
              refresh();
            },
            onCancel: close,
          })}
      </Modal>
    </>
  );
}

/** The list request of a company's master records: the inactive ones too, the search when typed. */
export function masterListQuery(companyId: string | null, search: string | undefined) {
  return { company_id: companyId ?? undefined, search, include_inactive: "true" as const, limit: 500 };
}

/**
 * The save of a master record's dialog: PUT or POST as `save` decides, "Saved: <label>" and the dialog
 * closed on success; the props of its `DialogForm`.
 */
export function useMasterSave<T, V, R>(
  { record, onDone, onCancel }: MasterFormProps<T>,
  form: UseFormReturnType<V>,
  save: (values: V) => Promise<R>,
  savedLabel: (saved: R) => string,
) {
  const { t } = useTranslation();
  const mutation = useFormSave(form, save, (saved) => {
    notifySuccess(`${t("common.saved")}: ${savedLabel(saved)}`);
    onDone();
  });
  return {
    onSubmit: form.onSubmit((values) => mutation.mutate(values)),
    onCancel,
    submitting: mutation.isPending,
    submitLabel: record ? t("common.save") : t("common.create"),
  };
}
