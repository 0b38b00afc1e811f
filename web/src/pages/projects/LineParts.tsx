import { ActionIcon, Button, Group, Stack, Table, Text } from "@mantine/core";
import { IconPlus, IconTrash } from "@tabler/icons-react";
import type { ReactNode } from "react";

/** The pieces the measurement and decomposition editors share. */

/**
 * The lines as a table: the header cells given, one row per line (its cells from `cells`) with a
 * remove button when editable, and a row saying there are none when empty.
 */
export function LinesTable<L>(props: {
  minWidth: number;
  head: ReactNode;
  columns: number;
  lines: L[];
  cells: (line: L, index: number) => ReactNode;
  emptyText: string;
  editable: boolean;
  removeLabel: string;
  onRemove: (index: number) => void;
}) {
  const { editable } = props;
  return (
    <Table.ScrollContainer minWidth={props.minWidth}>
      <Table striped withTableBorder>
        <Table.Thead>
          <Table.Tr>
            {props.head}
            {editable && <Table.Th w={40} />}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {props.lines.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={editable ? props.columns + 1 : props.columns}>
                <Text size="sm" c="dimmed">
                  {props.emptyText}
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
          {props.lines.map((line, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the lines have no id; their order is their identity
            <Table.Tr key={i}>
              {props.cells(line, i)}
              {editable && (
                <Table.Td>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`${props.removeLabel} ${i + 1}`}
                    onClick={() => props.onRemove(i)}
                  >
                    <IconTrash size={14} />
                  </ActionIcon>
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
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
