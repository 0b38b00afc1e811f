import {
  Alert,
  Box,
  Button,
  Center,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { problemMessage } from "../api/problem";
import { signIn } from "../auth/session";
import { signInRules } from "../forms/validation";

export function LoginPage() {
  const { t } = useTranslation();
  const search = useSearch({ from: "/login" });
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const form = useForm({
    initialValues: { email: "", password: "" },
    validate: signInRules((key) => t(key)),
  });

  const submit = form.onSubmit(async ({ email, password }) => {
    setError(null);
    try {
      await signIn(email.trim(), password);
      // performance.mark lets the E2E suite time sign-in to dashboard.
      performance.mark("cuadra:signed-in");
      await navigate({ to: search.redirect ?? "/" });
    } catch (err) {
      setError(problemMessage(err));
    }
  });

  return (
    <Box bg="gray.1" mih="100vh">
      <Center mih="100vh" p="md">
        <Paper withBorder shadow="sm" p="xl" w={380} radius="md">
          <form onSubmit={submit} noValidate>
            <Stack gap="sm">
              <div>
                <Title order={1} c="indigo.8">
                  Cuadra
                </Title>
                <Text size="sm" c="dimmed">
                  {t("app.tagline")}
                </Text>
              </div>
              <Title order={2} size="h4" mt="sm">
                {t("auth.welcome")}
              </Title>
              {error && (
                <Alert color="red" role="alert">
                  {error}
                </Alert>
              )}
              <TextInput
                size="sm"
                label={t("auth.email")}
                autoComplete="username"
                type="email"
                autoFocus
                {...form.getInputProps("email")}
              />
              <PasswordInput
                size="sm"
                label={t("auth.password")}
                autoComplete="current-password"
                {...form.getInputProps("password")}
              />
              <Button type="submit" size="sm" loading={form.submitting} fullWidth mt="xs">
                {t("auth.signIn")}
              </Button>
            </Stack>
          </form>
        </Paper>
      </Center>
    </Box>
  );
}
