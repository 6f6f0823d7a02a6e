import type { JobLogsFollowQuery, JobLogsQuery, LogEntry } from '../../../data/job-insights/queries.ts';

/** What the log viewer shows (spec 01 §2.9): the controls and the filters, as the operator set them. */
export type LogLevel = NonNullable<JobLogsQuery['level']>;
export type LogLines = NonNullable<JobLogsQuery['lines']>;
export type LogDirection = NonNullable<JobLogsQuery['direction']>;
export type FilterType = 'contains' | 'startsWith' | 'endsWith' | 'exact';

export const LOG_LEVELS: readonly LogLevel[] = ['TRACE', 'DEBUG', 'VERBOSE', 'INFO', 'NOTICE', 'WARNING', 'ERROR', 'FATAL'];
/** Spec 01 §9: the last-lines choices. */
export const LOG_LINE_CHOICES: readonly LogLines[] = [30, 50, 100, 500, 1000];
/** Spec 01 §9: the log filter text is applied 800 ms after the last keystroke. */
export const LOG_FILTER_DEBOUNCE_MS = 800;
export const EMPTY_LOG_TEXT = 'No log entries';

/** How the filter text is matched against a line's text. */
export const FILTER_TYPES: readonly { value: FilterType; label: string }[] = [
  { value: 'contains', label: 'Contains' },
  { value: 'startsWith', label: 'Starts with' },
  { value: 'endsWith', label: 'Ends with' },
  { value: 'exact', label: 'Exact match' },
];

/** The quick ranges: the start set this far back from now, the end left open. */
export const QUICK_RANGES: readonly { label: string; minutes: number }[] = [
  { label: 'Last 5 min', minutes: 5 },
  { label: 'Last 15 min', minutes: 15 },
  { label: 'Last 1 h', minutes: 60 },
  { label: 'Last 24 h', minutes: 24 * 60 },
];

export interface LogView {
  /** Minimum level; '' shows every level. */
  level: LogLevel | '';
  direction: LogDirection;
  lines: LogLines;
  /** The applied filter text (the box applies it after the debounce). */
  text: string;
  filterType: FilterType;
  caseSensitive: boolean;
  regex: boolean;
  fromEnabled: boolean;
  /** As the picker shows it: dd-MM-yyyy HH:mm:ss in the browser's time zone. */
  from: string;
  toEnabled: boolean;
  to: string;
}

export const DEFAULT_LOG_VIEW: LogView = {
  level: '',
  direction: 'backward',
  lines: 100,
  text: '',
  filterType: 'contains',
  caseSensitive: false,
  regex: false,
  fromEnabled: false,
  from: '',
  toEnabled: false,
  to: '',
};

/** How many filters narrow the lines (for the badge on the filter toggle). */
export function activeFilterCount(view: LogView): number {
  return [view.text !== '', view.fromEnabled && pickerToIso(view.from) !== undefined, view.toEnabled && pickerToIso(view.to) !== undefined].filter(Boolean).length;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Spec 01 §9: pickers read dates as dd-MM-yyyy; the time follows as HH:mm:ss (the browser's time zone). */
export const PICKER_FORMAT = 'dd-MM-yyyy HH:mm:ss';

/** A time as the start and end pickers write it: dd-MM-yyyy HH:mm:ss, local time. */
export function toPickerText(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getDate())}-${pad(d.getMonth() + 1)}-${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

const PICKER_TEXT = /^(\d{1,2})-(\d{1,2})-(\d{4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;

/** A picker's text (dd-MM-yyyy, with HH:mm or HH:mm:ss) as ms since the epoch; undefined when it is no real date. */
export function parsePickerText(text: string): number | undefined {
  const m = PICKER_TEXT.exec(text.trim());
  if (!m) return undefined;
  const [day, month, year, hours = 0, minutes = 0, seconds = 0] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((part) => (part === undefined ? undefined : Number(part))) as number[];
  const date = new Date(year, month - 1, day, hours, minutes, seconds);
  const same = date.getFullYear() === year && date.getMonth() === month - 1 && date.getDate() === day && date.getHours() === hours && date.getMinutes() === minutes;
  return same && seconds < 60 ? date.getTime() : undefined;
}

/** A picker's text as an ISO 8601 instant for the API; undefined when it is no date. */
export function pickerToIso(text: string): string | undefined {
  const ms = parsePickerText(text);
  return ms === undefined ? undefined : new Date(ms).toISOString();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** The API's text and regex for the filter text, its type and the regular-expression toggle. */
function textFilter(view: LogView): { text?: string; regex?: 'true' } {
  if (view.text === '') return {};
  if (view.filterType === 'contains') return view.regex ? { text: view.text, regex: 'true' } : { text: view.text };
  const body = view.regex ? `(?:${view.text})` : escapeRegExp(view.text);
  const pattern = view.filterType === 'startsWith' ? `^${body}` : view.filterType === 'endsWith' ? `${body}$` : `^${body}$`;
  return { text: pattern, regex: 'true' };
}

/** The filters both the read and the follow take. */
function filters(view: LogView): JobLogsFollowQuery {
  return {
    ...(view.level ? { level: view.level } : {}),
    ...textFilter(view),
    ...(view.text !== '' && view.caseSensitive ? { caseSensitive: 'true' as const } : {}),
    ...(view.fromEnabled && pickerToIso(view.from) ? { from: pickerToIso(view.from) } : {}),
    ...(view.toEnabled && pickerToIso(view.to) ? { to: pickerToIso(view.to) } : {}),
  };
}

export function logsQueryOf(view: LogView): JobLogsQuery {
  return { lines: view.lines, direction: view.direction, ...filters(view) };
}

/**
 * The follow of the same filters. Its backlog re-sends the latest matching lines, so nothing
 * written between the read and the start of the follow (or during a reconnect) is missed; the
 * viewer drops those it already shows.
 */
export function followQueryOf(view: LogView): JobLogsFollowQuery {
  return { ...filters(view), backlog: Math.min(view.lines, 100) };
}

export const entryKey = (entry: LogEntry) => `${entry.timestamp}|${entry.level}|${entry.text}`;

/**
 * The lines to show: the read (in its direction) with the followed lines merged in, newest at
 * the top going backward and at the bottom going forward, at most `lines` of them. Followed lines
 * the read already holds, or older than its newest, are dropped.
 */
export function mergeFollowed(read: readonly LogEntry[], followed: readonly LogEntry[], view: { direction: LogDirection; lines: number }): LogEntry[] {
  if (followed.length === 0) return [...read];
  const chronological = view.direction === 'backward' ? [...read].reverse() : [...read];
  const newest = chronological.at(-1)?.timestamp;
  const seen = new Set(chronological.map(entryKey));
  for (const entry of followed) {
    if (newest !== undefined && entry.timestamp < newest) continue;
    const key = entryKey(entry);
    if (seen.has(key)) continue;
    seen.add(key);
    chronological.push(entry);
  }
  const kept = chronological.slice(-view.lines);
  return view.direction === 'backward' ? kept.reverse() : kept;
}
