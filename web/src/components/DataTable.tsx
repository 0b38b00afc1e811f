import { Paper, Table } from "@mantine/core";
import type { ReactNode } from "react";
import { QueryState } from "./states";

export interface Column<T> {
  key: string;
  header: ReactNode;
  render: (row: T) => ReactNode;
  align?: "left" | "right";
  mono?: boolean;
  width?: number;
}

type ListQuery<T> = {
  isPending: boolean;
  error: unknown;
  data: { data: T[] } | undefined;
  refetch: () => unknown;
};

/** A dense striped table over a list answer ({data: [...]}) with its loading, error and empty states. */
export function DataTable<T extends { id: string }>({
  query,
  columns,
  minWidth = 700,
}: {
  query: ListQuery<T>;
  columns: Column<T>[];
  minWidth?: number;
}) {
  return (
    <Paper withBorder>
      <QueryState query={query} isEmpty={(d) => d.data.length === 0}>
        {(d) => (
          <Table.ScrollContainer minWidth={minWidth}>
            <Table striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  {columns.map((c) => (
                    <Table.Th key={c.key} ta={c.align} w={c.width}>
                      {c.header}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {d.data.map((row) => (
                  <Table.Tr key={row.id}>
                    {columns.map((c) => (
                      <Table.Td key={c.key} ta={c.align} ff={c.mono ? "monospace" : undefined}>
                        {c.render(row)}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </QueryState>
    </Paper>
  );
}
