import { Alert, Button, Center, Loader, Stack, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { ApiError, problemMessage } from "../api/problem";

export function Loading() {
  const { t } = useTranslation();
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Loader size="sm" />
      <Text ml="sm" c="dimmed" size="sm">
        {t("common.loading")}
      </Text>
    </Center>
  );
}

export function Empty({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Center py="xl">
      <Text c="dimmed" size="sm">
        {children ?? t("common.empty")}
      </Text>
    </Center>
  );
}

/** The problem body's detail, as the server wrote it; a 403 says so plainly. */
export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useTranslation();
  const forbidden = error instanceof ApiError && error.status === 403;
  return (
    <Alert
      color={forbidden ? "orange" : "red"}
      title={forbidden ? t("common.forbidden") : t("common.error")}
      role="alert"
    >
      <Stack gap="xs">
        <Text size="sm" style={{ whiteSpace: "pre-line" }}>
          {problemMessage(error)}
        </Text>
        {onRetry && (
          <Button size="xs" variant="light" w="fit-content" onClick={onRetry}>
            {t("common.retry")}
          </Button>
        )}
      </Stack>
    </Alert>
  );
}

/** Renders a query's loading, error and empty states, or its content. */
export function QueryState<T>({
  query,
  isEmpty,
  children,
}: {
  query: { isPending: boolean; error: unknown; data: T | undefined; refetch: () => unknown };
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Loading />;
  if (query.error) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  const data = query.data as T;
  if (isEmpty?.(data)) return <Empty />;
  return <>{children(data)}</>;
}
