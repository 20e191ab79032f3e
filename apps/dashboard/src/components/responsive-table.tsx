import { Card, Stack, Table, type TableProps } from '@mantine/core';
import type { ReactNode } from 'react';

/** One column of the wide table: its heading and what a row shows in it. */
export interface Column<T> {
  header: ReactNode;
  cell: (row: T) => ReactNode;
  align?: 'right';
  maxWidth?: number;
}

/**
 * A list as a table where there is room, and as one card per row at phone width (below the `sm`
 * breakpoint), where a table would hide its columns behind a sideways scroll.
 */
export function ResponsiveTable<T>({
  label,
  rows,
  rowKey,
  columns,
  card,
  minWidth,
  testId,
  tableProps,
}: {
  /** The table's accessible name. */
  label: string;
  rows: readonly T[];
  rowKey: (row: T) => string;
  columns: readonly Column<T>[];
  /** What one row's card shows at phone width. */
  card: (row: T) => ReactNode;
  /** Below this width the wide table scrolls sideways rather than squeezing its columns. */
  minWidth: number;
  /** `data-testid` of each row (`<testId>-row`) and each card (`<testId>-card`). */
  testId?: string;
  tableProps?: TableProps;
}) {
  return (
    <>
      <Table.ScrollContainer minWidth={minWidth} visibleFrom="sm">
        <Table striped aria-label={label} {...tableProps}>
          <Table.Thead>
            <Table.Tr>
              {columns.map((column, i) => (
                <Table.Th key={i} ta={column.align}>
                  {column.header}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={rowKey(row)} data-testid={testId ? `${testId}-row` : undefined}>
                {columns.map((column, i) => (
                  <Table.Td key={i} ta={column.align} maw={column.maxWidth}>
                    {column.cell(row)}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Stack gap="xs" hiddenFrom="sm">
        {rows.map((row) => (
          <Card key={rowKey(row)} withBorder padding="sm" data-testid={testId ? `${testId}-card` : undefined}>
            {card(row)}
          </Card>
        ))}
      </Stack>
    </>
  );
}
