import { Alert, Button, FileButton, Group, Image, Paper, Stack, Text } from "@mantine/core";
import { IconPhotoUp, IconTrash } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { api, fetchBinary, unwrap, upload } from "../../api/client";
import { ApiError, isProblem, problemMessage } from "../../api/problem";
import { notifySuccess } from "../../components/notify";
import { ErrorState, Loading } from "../../components/states";

/** The logo as a Blob, or null when the company has none (404). */
async function fetchLogo(companyId: string): Promise<Blob | null> {
  try {
    return await (await fetchBinary(`/api/companies/${companyId}/logo`)).blob();
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/**
 * The letterhead logo of a company: preview (an authenticated image, fetched with the session's
 * Bearer and shown from an object URL), upload (PNG or JPEG, 1 MB at most: the server's 413/415
 * reason is shown) and removal.
 */
export function CompanyLogo({ companyId, canEdit }: { companyId: string; canEdit: boolean }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const logo = useQuery({ queryKey: ["company-logo", companyId], queryFn: () => fetchLogo(companyId) });
  const url = useMemo(() => (logo.data ? URL.createObjectURL(logo.data) : null), [logo.data]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  const [progress, setProgress] = useState<number | null>(null);
  const [failure, setFailure] = useState<unknown>(null);

  const send = async (file: File | null) => {
    if (!file) return;
    const form = new FormData();
    form.append("file", file, file.name);
    setFailure(null);
    setProgress(0);
    try {
      const res = await upload(`/api/companies/${companyId}/logo`, form, setProgress, "PUT");
      if (res.status >= 300)
        throw new ApiError(res.status, isProblem(res.body) ? res.body : { title: `HTTP ${res.status}` });
      notifySuccess(t("companies.logoSaved"));
      await client.invalidateQueries({ queryKey: ["company-logo", companyId] });
    } catch (error) {
      setFailure(error);
    } finally {
      setProgress(null);
    }
  };
  const remove = useMutation({
    mutationFn: async () =>
      unwrap(await api.DELETE("/api/companies/{id}/logo", { params: { path: { id: companyId } } })),
    onMutate: () => setFailure(null),
    onSuccess: () => {
      notifySuccess(t("companies.logoRemoved"));
      void client.invalidateQueries({ queryKey: ["company-logo", companyId] });
    },
    onError: setFailure,
  });

  return (
    <Paper withBorder p="sm">
      <Stack gap="sm">
        <Text fw={600} size="sm">
          {t("companies.logo")}
        </Text>
        {logo.isPending ? (
          <Loading />
        ) : logo.error ? (
          <ErrorState error={logo.error} onRetry={() => void logo.refetch()} />
        ) : url ? (
          <Image
            src={url}
            alt={t("companies.logoAlt")}
            h={80}
            w="auto"
            fit="contain"
            data-testid="company-logo"
          />
        ) : (
          <Text size="sm" c="dimmed">
            {t("companies.noLogo")}
          </Text>
        )}
        <Text size="xs" c="dimmed">
          {t("companies.logoHint")}
        </Text>
        {failure !== null && (
          <Alert color="red" title={t("common.error")} role="alert">
            <Text size="sm" style={{ whiteSpace: "pre-line" }}>
              {problemMessage(failure)}
            </Text>
          </Alert>
        )}
        {canEdit && (
          <Group>
            <FileButton onChange={(f) => void send(f)} accept="image/png,image/jpeg">
              {(props) => (
                <Button
                  {...props}
                  variant="light"
                  leftSection={<IconPhotoUp size={14} />}
                  loading={progress !== null}
                >
                  {url ? t("companies.replaceLogo") : t("companies.uploadLogo")}
                </Button>
              )}
            </FileButton>
            {url && (
              <Button
                variant="subtle"
                color="red"
                leftSection={<IconTrash size={14} />}
                loading={remove.isPending}
                onClick={() => remove.mutate()}
              >
                {t("companies.removeLogo")}
              </Button>
            )}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
