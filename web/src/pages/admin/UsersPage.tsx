import { Badge, Group, MultiSelect, PasswordInput, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { unwrap, v1 } from "../../api/client";
import type { User } from "../../api/types";
import { useMe } from "../../auth/session";
import { DialogForm } from "../../components/DialogForm";
import { MasterListPage } from "../../components/MasterListPage";
import { notifyError, notifySuccess } from "../../components/notify";
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
  const me = useMe();
  return (
    <MasterListPage<User>
      title={t("users.title")}
      newLabel={t("users.new")}
      permissions={{ create: "usuarios:crear", deactivate: "usuarios:eliminar" }}
      list={{
        key: ["users"],
        fetch: async () => unwrap(await v1.GET("/api/v1/users", { params: { query: { limit: 500 } } })),
      }}
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
      ]}
      rowLabel={(u) => u.email}
      deactivate={async (id) => unwrap(await v1.DELETE("/api/v1/users/{id}", { params: { path: { id } } }))}
      // Signed-in users cannot lock themselves out.
      deactivatable={(u) => u.id !== me.data?.id}
      form={({ onDone, onCancel }) => <NewUserForm onDone={onDone} onCancel={onCancel} />}
    />
  );
}

function NewUserForm({ onDone, onCancel }: { onDone: () => void; onCancel: () => void }) {
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
      onCancel={onCancel}
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
