import { Badge, Button, Group, Modal, MultiSelect, PasswordInput, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useDisclosure } from "@mantine/hooks";
import { IconPlus } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { unwrap, v1 } from "../../api/client";
import { useCan, useMe } from "../../auth/session";
import { DataTable } from "../../components/DataTable";
import { DialogForm } from "../../components/DialogForm";
import { notifyError, notifySuccess } from "../../components/notify";
import { PageHeader } from "../../components/PageHeader";
import { MIN_PASSWORD } from "../../forms/validation";

export function useRoles(enabled = true) {
  return useQuery({
    queryKey: ["roles"],
    enabled,
    queryFn: async () => unwrap(await v1.GET("/api/v1/roles", { params: { query: { limit: 200 } } })),
  });
}

export function UsersPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const me = useMe();
  const canCreate = useCan("usuarios:crear");
  const canDelete = useCan("usuarios:eliminar");
  const [open, modal] = useDisclosure(false);
  const users = useQuery({
    queryKey: ["users"],
    queryFn: async () => unwrap(await v1.GET("/api/v1/users", { params: { query: { limit: 500 } } })),
  });
  const deactivate = useMutation({
    mutationFn: async (id: string) =>
      unwrap(await v1.DELETE("/api/v1/users/{id}", { params: { path: { id } } })),
    onSuccess: () => void client.invalidateQueries({ queryKey: ["users"] }),
    onError: notifyError,
  });
  return (
    <>
      <PageHeader
        title={t("users.title")}
        subtitle={users.data && t("common.results", { count: users.data.total })}
        actions={
          canCreate && (
            <Button leftSection={<IconPlus size={14} />} onClick={modal.open}>
              {t("users.new")}
            </Button>
          )
        }
      />
      <DataTable
        query={users}
        columns={[
          { key: "email", header: t("auth.email"), render: (u) => u.email },
          { key: "name", header: t("users.fullName"), render: (u) => u.full_name },
          {
            key: "roles",
            header: t("users.roles"),
            render: (u) => (
              <Group gap={4}>
                {u.roles.map((r) => (
                  <Badge key={r.id}>{r.name}</Badge>
                ))}
              </Group>
            ),
          },
          {
            key: "active",
            header: t("common.status"),
            render: (u) => (
              <Badge color={u.is_active ? "teal" : "gray"}>
                {u.is_active ? t("common.active") : t("common.inactive")}
              </Badge>
            ),
          },
          {
            key: "actions",
            header: "",
            align: "right",
            render: (u) =>
              canDelete &&
              u.is_active &&
              u.id !== me.data?.id && (
                <Button variant="subtle" color="red" onClick={() => deactivate.mutate(u.id)}>
                  {t("users.deactivate")}
                </Button>
              ),
          },
        ]}
      />
      <Modal opened={open} onClose={modal.close} title={t("users.new")}>
        <NewUserForm
          onDone={() => {
            modal.close();
            void client.invalidateQueries({ queryKey: ["users"] });
          }}
        />
      </Modal>
    </>
  );
}

function NewUserForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const roles = useRoles();
  const form = useForm({
    initialValues: { email: "", full_name: "", password: "", role_ids: [] as string[] },
    validate: {
      email: (v) => (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.trim()) ? null : t("auth.invalidEmail")),
      password: (v) => (v.length >= MIN_PASSWORD ? null : t("auth.passwordTooShort", { min: MIN_PASSWORD })),
    },
  });
  const create = useMutation({
    mutationFn: async (v: typeof form.values) =>
      unwrap(await v1.POST("/api/v1/users", { body: { ...v, email: v.email.trim() } })),
    onSuccess: () => {
      notifySuccess(t("users.created"));
      onDone();
    },
    onError: notifyError,
  });
  return (
    <DialogForm
      onSubmit={form.onSubmit((v) => create.mutate(v))}
      onCancel={onDone}
      submitting={create.isPending}
    >
      <TextInput label={t("auth.email")} required {...form.getInputProps("email")} />
      <TextInput label={t("users.fullName")} {...form.getInputProps("full_name")} />
      <PasswordInput
        label={t("auth.password")}
        required
        autoComplete="new-password"
        {...form.getInputProps("password")}
      />
      <MultiSelect
        label={t("users.roles")}
        data={(roles.data?.data ?? []).map((r) => ({ value: r.id, label: r.name }))}
        {...form.getInputProps("role_ids")}
      />
    </DialogForm>
  );
}
