import { Box, Text } from 'ink';

export interface Column<Row> {
  header: string;
  /** The cell's text. */
  value: (row: Row) => string;
  align?: 'left' | 'right';
  /** Colour of the cell, e.g. green for "yes". */
  color?: (row: Row) => string | undefined;
}

export interface TableProps<Row> {
  columns: Column<Row>[];
  rows: Row[];
  /** Shown instead of the rows when there are none (the spec's empty texts: "No users", ...). */
  empty?: string;
  /** A line under the table, e.g. "Total: 3  Active: 2  Failed: 1". */
  footer?: string;
  /** The width to fit in; columns wider than their share are cut with an ellipsis. Unbounded when absent. */
  maxWidth?: number;
}

const GAP = 2;

/** Widths that fit `maxWidth`: the widest columns give up space first, none below its header. */
export function fitWidths(natural: number[], minimum: number[], maxWidth?: number): number[] {
  const widths = [...natural];
  if (maxWidth === undefined) return widths;
  const budget = maxWidth - GAP * (widths.length - 1);
  let excess = widths.reduce((sum, w) => sum + w, 0) - budget;
  while (excess > 0) {
    let widest = -1;
    for (let i = 0; i < widths.length; i += 1) if (widths[i] > minimum[i] && (widest < 0 || widths[i] > widths[widest])) widest = i;
    if (widest < 0) break;
    widths[widest] -= 1;
    excess -= 1;
  }
  return widths;
}

/** A plain table: bold headers, columns sized to their content, an optional footer line. */
export function Table<Row>({ columns, rows, empty = 'No entries', footer, maxWidth }: TableProps<Row>) {
  const cells = rows.map((row) => columns.map((column) => column.value(row)));
  const natural = columns.map((column, i) => Math.max(column.header.length, ...cells.map((r) => r[i].length)));
  const widths = fitWidths(natural, columns.map((c) => Math.min(c.header.length, 12)), maxWidth);
  const line = (key: string, texts: string[], style: (i: number) => { bold?: boolean; color?: string }) => (
    <Box key={key} flexDirection="row" columnGap={GAP}>
      {texts.map((text, i) => (
        <Box key={columns[i].header} width={widths[i]} flexShrink={0} justifyContent={columns[i].align === 'right' ? 'flex-end' : 'flex-start'}>
          <Text wrap="truncate-end" {...style(i)}>
            {text}
          </Text>
        </Box>
      ))}
    </Box>
  );
  return (
    <Box flexDirection="column">
      {line('header', columns.map((c) => c.header), () => ({ bold: true }))}
      {rows.length === 0 ? <Text dimColor>{empty}</Text> : null}
      {rows.map((row, r) => line(`row-${r}`, cells[r], (i) => ({ color: columns[i].color?.(row) })))}
      {footer ? (
        <Box marginTop={1}>
          <Text>{footer}</Text>
        </Box>
      ) : null}
    </Box>
  );
}
