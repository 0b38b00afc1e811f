import { Paper, Text } from "@mantine/core";

/** A key figure in a small box: an uppercase label over a monospaced value. */
export function Figure({
  label,
  value,
  strong,
  testId,
}: {
  label: string;
  value: string;
  strong?: boolean;
  testId?: string;
}) {
  return (
    <Paper withBorder p="sm">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz={strong ? "lg" : "md"} fw={strong ? 700 : 600} ff="monospace" data-testid={testId}>
        {value}
      </Text>
    </Paper>
  );
}
