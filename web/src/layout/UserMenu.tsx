import {
  Avatar,
  Button,
  Group,
  Menu,
  Modal,
  PasswordInput,
  Stack,
  Text,
  UnstyledButton,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { useDisclosure } from "@mantine/hooks";
import { IconKey, IconLanguage, IconLogout, IconPlugConnected } from "@tabler/icons-react";
import { Link } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import { unwrap, v1 } from "../api/client";
import { useMe, useSignOut } from "../auth/session";
import { notifyError, notifySuccess } from "../components/notify";
import { passwordChangeRules } from "../forms/validation";
import { type Language, setLanguage } from "../i18n";

export function UserMenu() {
  const { t, i18n } = useTranslation();
  const me = useMe();
  const signOut = useSignOut();
  const [open, modal] = useDisclosure(false);
  const name = me.data?.full_name || me.data?.email || "";
  const initials = name
    .split(/\s+/)
    .map((w) => w[0])
    .slice(0, 2)
    .join("")
    .toUpperCase();
  const other: Language = i18n.language === "en" ? "es" : "en";
  return (
    <>
      <Menu position="bottom-end" width={220} withinPortal>
        <Menu.Target>
          <UnstyledButton aria-label={t("shell.userMenu")}>
            <Group gap={8} wrap="nowrap">
              <Avatar size={28} color="indigo" radius="xl">
                {initials}
              </Avatar>
              <Text size="sm" visibleFrom="sm" maw={180} truncate>
                {name}
              </Text>
            </Group>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>{me.data?.email}</Menu.Label>
          <Menu.Item leftSection={<IconKey size={14} />} onClick={modal.open}>
            {t("auth.changePassword")}
          </Menu.Item>
          <Menu.Item component={Link} to="/account/assistants" leftSection={<IconPlugConnected size={14} />}>
            {t("assistants.title")}
          </Menu.Item>
          <Menu.Item leftSection={<IconLanguage size={14} />} onClick={() => setLanguage(other)}>
            {other === "en" ? "English" : "Español"}
          </Menu.Item>
          <Menu.Divider />
          <Menu.Item leftSection={<IconLogout size={14} />} color="red" onClick={() => void signOut()}>
            {t("auth.signOut")}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <Modal opened={open} onClose={modal.close} title={t("auth.changePassword")} size="sm">
        <PasswordChangeForm onDone={modal.close} />
      </Modal>
    </>
  );
}

function PasswordChangeForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const form = useForm({
    initialValues: { current_password: "", new_password: "", confirm: "" },
    validate: passwordChangeRules((k, o) => t(k, o)),
  });
  const submit = form.onSubmit(async ({ current_password, new_password }) => {
    try {
      unwrap(await v1.PUT("/api/v1/users/me/password", { body: { current_password, new_password } }));
      notifySuccess(t("auth.passwordChanged"));
      onDone();
    } catch (err) {
      notifyError(err);
    }
  });
  return (
    <form onSubmit={submit}>
      <Stack gap="sm">
        <PasswordInput
          label={t("auth.currentPassword")}
          autoComplete="current-password"
          {...form.getInputProps("current_password")}
        />
        <PasswordInput
          label={t("auth.newPassword")}
          autoComplete="new-password"
          {...form.getInputProps("new_password")}
        />
        <PasswordInput
          label={t("auth.confirmPassword")}
          autoComplete="new-password"
          {...form.getInputProps("confirm")}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t("common.cancel")}
          </Button>
          <Button type="submit" loading={form.submitting}>
            {t("common.save")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
