import { Box, Text, useApp, useInput, useStdin, useStdout } from 'ink';
import { useEffect, useState } from 'react';
import { sortRows, uptimeAt, type TopFeed, type TopRow, type TopSnapshot, type TopSort } from '../top-feed.ts';
import { displayStatus, formatBps, formatBytes, formatCpu, formatUptime, statusColor } from './job-views.tsx';
import { Table, type Column } from './table.tsx';

/** `mediaplane top`: the jobs that are on, live; c / m / n sort by CPU / RSS / name, q quits. */

const SORT_NAMES: Record<TopSort, string> = { cpu: 'CPU', rss: 'RSS', name: 'name' };

/** The figures of a process, while there is one. */
const whenRunning = (row: TopRow, text: string) => (row.state === 'running' ? text : '--');

export function topColumns(now: number): Column<TopRow>[] {
  return [
    { header: 'KIND', value: (r) => r.kind },
    { header: 'ID', value: (r) => String(r.id), align: 'right' },
    { header: 'NAME', value: (r) => r.name },
    { header: 'STATUS', value: (r) => displayStatus(r.kind, r.workStatus), color: (r) => statusColor(r.workStatus) },
    { header: 'CPU', value: (r) => formatCpu(r.cpu), align: 'right' },
    { header: 'RSS', value: (r) => whenRunning(r, formatBytes(r.rss)), align: 'right' },
    { header: 'IN', value: (r) => whenRunning(r, formatBps(r.inputBps)), align: 'right' },
    { header: 'OUT', value: (r) => whenRunning(r, formatBps(r.outputBps)), align: 'right' },
    { header: 'RESTARTS', value: (r) => String(r.restarts), align: 'right' },
    { header: 'UPTIME', value: (r) => formatUptime(uptimeAt(r, now)), align: 'right' },
    { header: 'NODE', value: (r) => r.node },
    { header: 'REASON', value: (r) => (r.state === 'running' ? '' : (r.reason ?? '')) },
  ];
}

/** "Relays on: 3 (2 streaming, 1 waiting, 0 failed)   Encodings on: ..." */
export function countsLine(snapshot: TopSnapshot): string {
  const parts: string[] = [];
  for (const kind of ['relay', 'encoding'] as const) {
    const counts = snapshot.counts[kind];
    if (!counts) continue;
    const streaming = snapshot.rows.filter((r) => r.kind === kind && r.state === 'running').length;
    parts.push(`${kind === 'relay' ? 'Relays' : 'Encodings'} on: ${counts.active} (${streaming} ${kind === 'relay' ? 'streaming' : 'transcoding'}, ${counts.waiting} waiting, ${counts.failed} failed)`);
  }
  return parts.join('   ');
}

/** The table of one moment: what `top --once` prints and each frame of the live view shows. */
export function TopTable({ snapshot, sort, now, maxWidth, maxRows }: { snapshot: TopSnapshot; sort: TopSort; now: number; maxWidth?: number; maxRows?: number }) {
  const sorted = sortRows(snapshot.rows, sort);
  const shown = maxRows !== undefined && sorted.length > maxRows ? sorted.slice(0, Math.max(0, maxRows)) : sorted;
  const more = sorted.length - shown.length + snapshot.hidden;
  return (
    <Box flexDirection="column">
      <Text>{countsLine(snapshot)}</Text>
      <Box marginTop={1}>
        <Table columns={topColumns(now)} rows={shown} empty="No relays or encodings are on" maxWidth={maxWidth} />
      </Box>
      {more > 0 ? <Text dimColor>{`… and ${more} more`}</Text> : null}
    </Box>
  );
}

function clock(now: number): string {
  const d = new Date(now);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

const CONNECTION_TEXT = { connecting: ['connecting …', 'yellow'], live: ['● live', 'green'], reconnecting: ['reconnecting …', 'yellow'] } as const;

export function TopView({ feed, url, initialSort = 'cpu' }: { feed: TopFeed; url: string; initialSort?: TopSort }) {
  const { exit } = useApp();
  const { stdout } = useStdout();
  const { isRawModeSupported } = useStdin();
  const [snapshot, setSnapshot] = useState(() => feed.snapshot());
  const [sort, setSort] = useState<TopSort>(initialSort);
  const [now, setNow] = useState(() => Date.now());
  const [size, setSize] = useState({ columns: stdout.columns || 120, rows: stdout.rows || 30 });

  useEffect(
    () =>
      feed.subscribe(() => {
        if (feed.fatal) exit(feed.fatal);
        setSnapshot(feed.snapshot());
      }),
    [feed, exit],
  );
  // Uptimes and the clock move on between events.
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  useEffect(() => {
    const onResize = () => setSize({ columns: stdout.columns || 120, rows: stdout.rows || 30 });
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  useInput(
    (input, key) => {
      if (input === 'q' || key.escape) exit();
      else if (input === 'c') setSort('cpu');
      else if (input === 'm') setSort('rss');
      else if (input === 'n') setSort('name');
    },
    { isActive: isRawModeSupported },
  );

  const [connectionText, connectionColor] = CONNECTION_TEXT[snapshot.connection];
  // Title, counts, a blank line and the header above the rows; a blank line and the keys below.
  const maxRows = Math.max(1, size.rows - 8);
  return (
    <Box flexDirection="column" width={size.columns}>
      <Box flexDirection="row" columnGap={2}>
        <Text bold>mediaplane top</Text>
        <Text>{url}</Text>
        <Text>{clock(now)}</Text>
        <Text color={connectionColor}>{connectionText}</Text>
      </Box>
      <TopTable snapshot={snapshot} sort={sort} now={now} maxWidth={size.columns - 1} maxRows={maxRows} />
      <Box marginTop={1}>
        <Text dimColor>{`Sorted by ${SORT_NAMES[sort]}   c CPU   m RSS   n name   q quit`}</Text>
      </Box>
    </Box>
  );
}
