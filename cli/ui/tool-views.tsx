import { Box, Text } from 'ink';
import type { Schemas } from '../../openapi/client/index.ts';
import { formatTime } from '../output.ts';
import { Fields } from './fields.tsx';
import { Table, type Column } from './table.tsx';

/** What `mediaplane tools` and `mediaplane timers` show when not asked for --json. */

const ms = (value: number | null) => (value === null ? '' : value.toFixed(1));

const hopColumns: Column<Schemas['MtrHop']>[] = [
  { header: 'HOP', value: (h) => `${h.hop}.`, align: 'right' },
  { header: 'HOST', value: (h) => h.host ?? '???' },
  { header: 'LOSS%', value: (h) => `${h.lossPercent.toFixed(1)}%`, align: 'right', color: (h) => (h.lossPercent > 0 ? 'yellow' : undefined) },
  { header: 'SNT', value: (h) => String(h.sent), align: 'right' },
  { header: 'LAST', value: (h) => ms(h.lastMs), align: 'right' },
  { header: 'AVG', value: (h) => ms(h.avgMs), align: 'right' },
  { header: 'BEST', value: (h) => ms(h.bestMs), align: 'right' },
  { header: 'WRST', value: (h) => ms(h.worstMs), align: 'right' },
  { header: 'STDEV', value: (h) => ms(h.stdevMs), align: 'right' },
];

export function MtrHopsView({ hops, maxWidth }: { hops: Schemas['MtrHop'][]; maxWidth?: number }) {
  return <Table columns={hopColumns} rows={hops} empty="No hops yet" maxWidth={maxWidth} />;
}

const dash = (value: string | number | null | undefined) => (value === null || value === undefined || value === '' ? '-' : String(value));

const streamColumns: Column<Schemas['MediaStreamInfo']>[] = [
  { header: '#', value: (s) => String(s.index), align: 'right' },
  { header: 'ID', value: (s) => dash(s.id) },
  { header: 'TYPE', value: (s) => s.type },
  { header: 'CODEC', value: (s) => dash(s.codec) },
  { header: 'PROFILE', value: (s) => dash(s.profile) },
  { header: 'RESOLUTION', value: (s) => (s.width && s.height ? `${s.width}x${s.height}` : '-') },
  { header: 'FPS', value: (s) => dash(s.frameRate), align: 'right' },
  { header: 'AUDIO', value: (s) => (s.sampleRate ? `${s.sampleRate} Hz ${dash(s.channelLayout ?? s.channels)}` : '-') },
  { header: 'LANG', value: (s) => dash(s.language) },
  { header: 'BITRATE', value: (s) => (s.bitrate ? `${Math.round(s.bitrate / 1000)} kbit/s` : '-'), align: 'right' },
];

export function MediaInfoView({ info, maxWidth }: { info: Schemas['MediaInfo']; maxWidth?: number }) {
  return (
    <Box flexDirection="column" rowGap={1}>
      <Text>Format: {dash(info.format.longName ?? info.format.name)}</Text>
      <Table columns={streamColumns} rows={info.streams} empty="No streams" maxWidth={maxWidth} />
      {info.programs.length > 1 &&
        info.programs.map((program) => (
          <Box key={program.number} flexDirection="column">
            <Text bold>
              Program {program.number}
              {program.name ? `: ${program.name}` : ''}
            </Text>
            <Table columns={streamColumns} rows={program.streams} empty="No streams" maxWidth={maxWidth} />
          </Box>
        ))}
    </Box>
  );
}

const timerTime = (t: Schemas['Timer']) => {
  const when = t.type.value === 'HOURLY' ? `:${t.time} hourly` : t.type.value === 'WEEKLY' ? `${t.daysOfWeek.join(',')} ${t.time}` : t.type.value === 'ONCE' ? `${t.date} ${t.time}` : t.time;
  return `${when} ${t.utcOffset}`;
};
const timerTasks = (t: Schemas['Timer']) => (t.allJobs ? 'ALL' : `${t.jobs.length}${t.jobs.length ? ` (${t.jobs.map((j) => j.id).join(',')})` : ''}`);

const timerColumns: Column<Schemas['Timer']>[] = [
  { header: 'ID', value: (t) => String(t.id), align: 'right' },
  { header: 'NAME', value: (t) => t.name },
  { header: 'ACTION', value: (t) => t.action.name },
  { header: 'TIMER TYPE', value: (t) => t.type.name },
  { header: 'TIME', value: timerTime },
  { header: 'TASKS TYPE', value: (t) => t.taskType.name },
  { header: 'TASKS', value: timerTasks },
  { header: 'ENABLED', value: (t) => (t.actived ? 'yes' : 'no'), color: (t) => (t.actived ? 'green' : 'gray') },
  { header: 'NEXT RUN', value: (t) => formatTime(t.nextRunAt) },
];

export function TimerListView({ list, maxWidth }: { list: Schemas['TimerList']; maxWidth?: number }) {
  return <Table columns={timerColumns} rows={list.items} empty="No timers" footer={`Total timers: ${list.total}   Server time zone: ${list.timeZone} (${list.utcOffset})`} maxWidth={maxWidth} />;
}

export function TimerView({ timer }: { timer: Schemas['Timer'] }) {
  return (
    <Fields
      fields={[
        ['ID', String(timer.id)],
        ['Name', timer.name],
        ['Action', timer.action.name],
        ['Timer type', timer.type.name],
        ['Time', timerTime(timer)],
        ['Time zone', timer.timeZone],
        ['Tasks type', timer.taskType.name],
        ['Tasks', timer.allJobs ? 'ALL' : timer.jobs.map((j) => `${j.name} (${j.id})`).join(', ') || 'none left'],
        ['Enabled', timer.actived ? 'yes' : 'no'],
        ['Next run', formatTime(timer.nextRunAt)],
        ['Last fired', formatTime(timer.lastFiredAt)],
        ['Created', formatTime(timer.createdAt)],
        ['Updated', formatTime(timer.updatedAt)],
      ]}
    />
  );
}

const firingColumns: Column<Schemas['TimerFiring']>[] = [
  { header: 'DUE', value: (f) => formatTime(f.dueAt) },
  { header: 'FIRED', value: (f) => formatTime(f.firedAt) },
  { header: 'BY', value: (f) => f.firedBy },
  { header: 'ACTION', value: (f) => f.action },
  { header: 'TASKS', value: (f) => f.jobs.join(',') || '-' },
];

export function TimerFiringsView({ firings, maxWidth }: { firings: Schemas['TimerFiring'][]; maxWidth?: number }) {
  return <Table columns={firingColumns} rows={firings} empty="Not fired yet" maxWidth={maxWidth} />;
}
