import { ActionIcon, Button, Group, Stack, Table, Text } from "@mantine/core";
import { IconPlus, IconTrash } from "@tabler/icons-react";

/** The pieces the measurement and decomposition editors share. */

export function EmptyLinesRow({ colSpan, text }: { colSpan: number; text: string }) {
  return (
    <Table.Tr>
      <Table.Td colSpan={colSpan}>
        <Text size="sm" c="dimmed">
          {text}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}

export function RemoveLineCell({ label, onRemove }: { label: string; onRemove: () => void }) {
  return (
    <Table.Td>
      <ActionIcon variant="subtle" color="red" aria-label={label} onClick={onRemove}>
        <IconTrash size={14} />
      </ActionIcon>
    </Table.Td>
  );
}

/** The figures under the lines (label: value) and, when editable, Add line and Save. */
export function LinesFooter(props: {
  figures: { label: string; value: string; testId: string }[];
  editable: boolean;
  addLabel: string;
  onAdd: () => void;
  saveLabel: string;
  saving: boolean;
  dirty: boolean;
}) {
  return (
    <Group justify="space-between" align="flex-start">
      <Stack gap={2}>
        {props.figures.map((f) => (
          <Text size="sm" key={f.testId}>
            {f.label}:{" "}
            <Text span ff="monospace" fw={600} data-testid={f.testId}>
              {f.value}
            </Text>
          </Text>
        ))}
      </Stack>
      {props.editable && (
        <Group gap="xs">
          <Button variant="default" leftSection={<IconPlus size={14} />} onClick={props.onAdd}>
            {props.addLabel}
          </Button>
          <Button type="submit" loading={props.saving} disabled={!props.dirty}>
            {props.saveLabel}
          </Button>
        </Group>
      )}
    </Group>
  );
}
