import { Anchor, Center, Stack, Text, Title } from "@mantine/core";
import { Link } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";

export function NotFound() {
  const { t } = useTranslation();
  return (
    <Center py={80}>
      <Stack align="center" gap="xs">
        <Title order={1}>404</Title>
        <Text c="dimmed">{t("common.notFound")}</Text>
        <Anchor component={Link} to="/">
          {t("shell.dashboard")}
        </Anchor>
      </Stack>
    </Center>
  );
}
