import { Button, Group, Stack } from "@mantine/core";
import type { FormEventHandler, ReactNode } from "react";
import { useTranslation } from "react-i18next";

/**
 * The body of a create/edit dialog: its fields stacked, then Cancel (when `onCancel` is given) and the
 * submit button, which shows the request in flight.
 */
export function DialogForm({
  onSubmit,
  onCancel,
  submitting,
  submitLabel,
  children,
}: {
  onSubmit: FormEventHandler<HTMLFormElement>;
  onCancel?: () => void;
  submitting: boolean;
  submitLabel?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <form onSubmit={onSubmit}>
      <Stack gap="sm">
        {children}
        <Group justify="flex-end">
          {onCancel && (
            <Button variant="default" onClick={onCancel}>
              {t("common.cancel")}
            </Button>
          )}
          <Button type="submit" loading={submitting}>
            {submitLabel ?? t("common.create")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
