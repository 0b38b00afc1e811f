import "@mantine/dropzone/styles.css";
import { Alert, Group, List, Progress, Stack, Text } from "@mantine/core";
import { Dropzone } from "@mantine/dropzone";
import { IconFileUpload } from "@tabler/icons-react";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { upload } from "../../api/client";
import { isProblem, type Problem } from "../../api/problem";
import { notifySuccess } from "../../components/notify";

/** Drag-and-drop BC3 upload with progress; a rejected file lists the parser's line errors. */
export function Bc3ImportModal({ url, onImported }: { url: string; onImported: (budgetId: string) => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);

  const send = async (file: File) => {
    setProblem(null);
    setProgress(0);
    const form = new FormData();
    form.append("file", file, file.name);
    try {
      const res = await upload(url, form, setProgress);
      if (res.status >= 200 && res.status < 300) {
        const budget = res.body as { id: string; name: string };
        notifySuccess(t("budgets.imported", { name: budget.name }));
        void client.invalidateQueries({ queryKey: ["budgets"] });
        void client.invalidateQueries({ queryKey: ["budget-items"] });
        onImported(budget.id);
      } else {
        setProblem(isProblem(res.body) ? res.body : { title: `HTTP ${res.status}` });
      }
    } catch (err) {
      setProblem({ title: (err as Error).message });
    } finally {
      setProgress(null);
    }
  };

  return (
    <Stack gap="sm">
      <Dropzone
        onDrop={(files) => files[0] && void send(files[0])}
        multiple={false}
        loading={progress !== null}
        aria-label={t("budgets.dropBc3")}
      >
        <Group justify="center" gap="md" mih={120} style={{ pointerEvents: "none" }}>
          <IconFileUpload size={36} stroke={1.3} />
          <Text size="sm">{t("budgets.dropBc3")}</Text>
        </Group>
      </Dropzone>
      {progress !== null && <Progress value={progress * 100} animated aria-label={t("budgets.uploading")} />}
      {problem && (
        <Alert color="red" title={t("budgets.bc3Errors")} role="alert">
          <Text size="sm">{problem.detail ?? problem.title}</Text>
          {problem.errors && problem.errors.length > 0 && (
            <List size="xs" mt="xs" spacing={2} data-testid="bc3-errors">
              {problem.errors.map((e) => (
                <List.Item key={`${e.path}:${e.message}`}>
                  <Text span fw={600} size="xs">
                    {e.path}
                  </Text>
                  : {e.message}
                </List.Item>
              ))}
            </List>
          )}
        </Alert>
      )}
    </Stack>
  );
}
