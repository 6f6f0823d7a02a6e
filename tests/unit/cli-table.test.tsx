import { renderToString } from 'ink';
import { describe, expect, it } from 'vitest';
import { fitWidths, Table, type Column } from '../../cli/ui/table.tsx';

interface Row {
  id: number;
  name: string;
}
const columns: Column<Row>[] = [
  { header: 'ID', value: (r) => String(r.id), align: 'right' },
  { header: 'NAME', value: (r) => r.name },
];
const render = (element: React.ReactElement, columnsWide = 200) =>
  renderToString(element, { columns: columnsWide })
    .split('\n')
    .map((line) => line.trimEnd());

describe('<Table>', () => {
  it('sizes columns to their content, right-aligns numbers and prints the footer', () => {
    const lines = render(<Table columns={columns} rows={[{ id: 7, name: 'alice' }, { id: 12, name: 'bob' }]} footer="Total: 2" />);
    expect(lines).toEqual(['ID  NAME', ' 7  alice', '12  bob', '', 'Total: 2']);
  });

  it('shows the empty text when there are no rows', () => {
    expect(render(<Table columns={columns} rows={[]} empty="No users" />)).toEqual(['ID  NAME', 'No users']);
  });

  it('cuts the widest column with an ellipsis to fit the width', () => {
    const lines = render(<Table columns={columns} rows={[{ id: 1, name: 'a-very-long-name-indeed' }]} maxWidth={16} />, 16);
    expect(lines[1]).toBe(' 1  a-very-long…');
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(16);
  });
});

describe('fitWidths', () => {
  it('keeps natural widths without a bound and takes from the widest first', () => {
    expect(fitWidths([2, 30, 10], [2, 4, 4])).toEqual([2, 30, 10]);
    expect(fitWidths([2, 30, 10], [2, 4, 4], 30)).toEqual([2, 14, 10]);
    expect(fitWidths([2, 30, 10], [2, 4, 4], 20)).toEqual([2, 7, 7]);
    expect(fitWidths([2, 30, 10], [2, 4, 4], 5)).toEqual([2, 4, 4]);
  });
});
