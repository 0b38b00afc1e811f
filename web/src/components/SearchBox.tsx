import { Group, Paper, TextInput } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";

/** A list's search box and its text, debounced 300 ms (undefined while empty); `beside` goes after it (e.g. active filters). */
export function useSearchBox(beside?: ReactNode) {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  const [debounced] = useDebouncedValue(text, 300);
  const box = (
    <Paper withBorder p="sm" mb="sm">
      <Group gap="sm">
        <TextInput
          aria-label={t("common.search")}
          placeholder={t("common.search")}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          w={280}
        />
        {beside}
      </Group>
    </Paper>
  );
  return { search: debounced || undefined, box };
}
