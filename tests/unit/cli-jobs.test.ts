import { Command, CommanderError } from 'commander';
import { renderToString } from 'ink';
import { createElement, type FunctionComponent } from 'react';
import { describe, expect, it } from 'vitest';
import { registerJobCommands } from '../../cli/commands/jobs.ts';
import { formatLogEntry } from '../../cli/commands/job-logs.ts';
import { registerTemplateCommands } from '../../cli/commands/templates.ts';
import { snapshotJson } from '../../cli/commands/top.ts';
import {
  bulkAction,
  bulkIds,
  createJobBody,
  idList,
  jobPath,
  listQuery,
  logFilterQuery,
  outputTypeList,
  restartMode,
  saveAsTemplateBody,
  updateJobBody,
} from '../../cli/job-input.ts';
import { readSse, type SseEvent } from '../../cli/sse.ts';
import { sortRows, TopFeed, type TopRow } from '../../cli/top-feed.ts';
import { formatBps, formatBytes, formatUptime, JobPageView, JobView } from '../../cli/ui/job-views.tsx';
import { TopTable } from '../../cli/ui/TopView.tsx';
import type { ApiClient, Schemas } from '../../openapi/client/index.ts';

const render = <P extends object>(view: FunctionComponent<P>, props: P, columns = 200) =>
  renderToString(createElement(view, props), { columns })
    .split('\n')
    .map((line) => line.trimEnd());

function status(overrides: Partial<Schemas['JobStatus']> = {}): Schemas['JobStatus'] {
  return {
    on: true,
    state: 'running',
    workStatus: 'Streaming',
    reason: null,
    reasonDetail: null,
    restarts: 2,
    cpu: 12.345,
    rss: 48 * 1024 * 1024,
    uptimeSeconds: 3723,
    secondsSinceLastStart: 3723,
    startedAt: '2026-05-04T10:00:00Z',
    lastResetAt: null,
    executionNode: 'local',
    activeInput: 'primary',
    inputs: [{ bps: 4_200_000, srtStat: null }],
    outputs: [{ position: 0, bps: 4_100_000, srtStat: null }],
    ...overrides,
  };
}

function summary(overrides: Partial<Schemas['JobSummary']> = {}): Schemas['JobSummary'] {
  return {
    id: 7,
    kind: 'relay',
    name: 'news-hd',
    videoType: 'LIVE',
    active: true,
    saved: false,
    isTemplate: false,
    templateType: null,
    changedConfigSinceLastStart: false,
    node: null,
    nodeName: 'local',
    preset: null,
    inputType: 'uri',
    inputUri: 'udp://239.0.0.1:1234',
    outputTypes: ['udp', 'hls'],
    outputMarkers: { multiProfile: true, encrypted: false, ad: true },
    worstComment: null,
    commentCount: 0,
    alarmed: false,
    statistics: false,
    createdBy: 'admin',
    createdAt: '2026-05-04T09:00:00Z',
    updatedAt: '2026-05-04T09:00:00Z',
    status: status(),
    ...overrides,
  };
}

const page = (items: Schemas['JobSummary'][]): Schemas['JobPage'] => ({ items, total: items.length, page: 1, size: 25, counts: { total: 3, active: 2, failed: 1, waiting: 1 } });

/** Parse `args` with the real command tree, the actions replaced by a recorder: what a command would be called with. */
function parse(args: string[]): { args: unknown[]; error?: string } {
  const program = new Command('mediaplane').exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });
  registerJobCommands(program, 'relay');
  registerJobCommands(program, 'encoding');
  registerTemplateCommands(program);
  let called: unknown[] = [];
  const replace = (command: Command) => {
    command.exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });
    if (command.commands.length === 0) command.action((...received: unknown[]) => void (called = received.slice(0, -1)));
    command.commands.forEach(replace);
  };
  program.commands.forEach(replace);
  try {
    program.parse(args, { from: 'user' });
    return { args: called };
  } catch (error) {
    if (error instanceof CommanderError) return { args: [], error: error.message };
    throw error;
  }
}

describe('mediaplane relays|encodings: arguments', () => {
  it('turns the list flags into the API\'s query, lists checked before any request', () => {
    const { args } = parse(['encodings', 'list', '--status', 'waiting', '--node', '1, 2', '--preset', '3', '--output-types', 'UDP,hls', '--sort', 'name', '--page', '2', '--json']);
    expect(listQuery(args[0] as never)).toEqual({ status: 'waiting', node: '1,2', preset: '3', outputTypes: 'udp,hls', sort: 'name', page: 2 });
    expect(parse(['relays', 'list', '--node', 'a,2']).error).toMatch(/Not a comma-separated list of ids/);
    expect(parse(['relays', 'list', '--output-types', 'udp,smoke']).error).toMatch(/Allowed values are udp, srt.*\(not smoke\)/);
    expect(parse(['relays', 'list', '--status', 'running']).error).toMatch(/Allowed choices are active, inactive, streaming, waiting, failed/);
    // --preset is a filter of encodings only.
    expect(parse(['relays', 'list', '--preset', '1']).error).toMatch(/unknown option '--preset'/);
  });

  it('takes exactly one restart mode', () => {
    expect(parse(['relays', 'restart', '4', '--soft']).args).toEqual([4, { soft: true }]);
    expect(parse(['relays', 'restart', '4', '--hard', '--reload']).error).toMatch(/cannot be used with option '--reload'/);
    expect(restartMode({ reload: true })).toBe('reload');
    expect(() => restartMode({})).toThrow(/exactly one of --hard/);
  });

  it('reads bulk actions and ids, apart or comma-separated', () => {
    expect(parse(['relays', 'bulk', 'hard-restart', '3', '4,5']).args.slice(0, 2)).toEqual(['hard_restart', ['3', '4,5']]);
    expect(bulkIds(['3', '4,5', '3'])).toEqual([3, 4, 5]);
    expect(() => bulkIds(['3', 'x'])).toThrow(/not an id .*: x/);
    expect(bulkAction('SOFT_RESTART')).toBe('soft_restart');
    expect(parse(['relays', 'bulk', 'reboot', '1']).error).toMatch(/Allowed actions are start, stop, hard_restart, soft_restart, delete/);
  });

  it('needs --type for a comment and joins its words', () => {
    expect(parse(['relays', 'comments', 'add', '3', 'check', 'the', 'feed']).error).toMatch(/required option '--type <type>' not specified/);
    expect(parse(['relays', 'comments', 'add', '3', '--type', 'WARNING', 'check', 'the', 'feed']).args.slice(0, 2)).toEqual([3, ['check', 'the', 'feed']]);
  });

  it('saves as a new template or over one, never both', () => {
    expect(saveAsTemplateBody({ create: 'Sports' })).toEqual({ templateType: 'CREATE', name: 'Sports' });
    expect(saveAsTemplateBody({ update: 9 })).toEqual({ templateType: 'UPDATE', templateId: 9 });
    expect(() => saveAsTemplateBody({})).toThrow(/exactly one of --create/);
    expect(parse(['relays', 'save-as-template', '1', '--create', 'a', '--update', '2']).error).toMatch(/cannot be used with/);
  });

  it('checks log flags: the spec\'s line choices and level names', () => {
    expect(parse(['relays', 'logs', '3', '--lines', '40']).error).toMatch(/Allowed are 30, 50, 100, 500, 1000/);
    const { args } = parse(['relays', 'logs', '3', '--lines', '500', '--level', 'warning', '--text', 'drop.*', '--regex', '--from', '2026-11-22']);
    expect(logFilterQuery(args[1] as never)).toEqual({ level: 'WARNING', text: 'drop.*', regex: 'true', from: '2026-11-22' });
  });

  it('needs --kind for templates', () => {
    expect(parse(['templates', 'list']).error).toMatch(/required option '--kind <kind>' not specified/);
    expect(parse(['templates', 'use', '5', '--kind', 'encoding', '--name', 'Copy']).args).toEqual([5, { kind: 'encoding', name: 'Copy' }]);
  });

  it('rejects ids that are not whole numbers from 1', () => {
    expect(parse(['relays', 'get', '0']).error).toMatch(/Not an id/);
    expect(idList('4')).toBe('4');
    expect(outputTypeList('HLS')).toBe('hls');
  });
});

describe('job bodies', () => {
  const current = { ...summary(), input: { type: 'uri', uri: 'udp://a:1' }, outputs: [], comments: [], restartAttempts: 10, executionLocationType: 'auto' } as unknown as Schemas['Job'];

  it('drops what a get --json output carries that nobody writes', () => {
    expect(createJobBody({ id: 3, name: 'x', input: { type: 'uri', uri: 'udp://a:1' }, status: {}, comments: [] })).toEqual({ name: 'x', input: { type: 'uri', uri: 'udp://a:1' } });
  });

  it('updates from the job as it is, with the file\'s fields over it', () => {
    const body = updateJobBody(current, { name: 'renamed' }) as unknown as Record<string, unknown>;
    expect(body.name).toBe('renamed');
    expect(body.input).toEqual({ type: 'uri', uri: 'udp://a:1' });
    expect(body).not.toHaveProperty('status');
    expect(body).not.toHaveProperty('id');
  });

  it('aims an operation at the kind', () => {
    expect(jobPath('encoding', '/api/relays/{id}/logs')).toBe('/api/encodings/{id}/logs');
    expect(jobPath('relay', '/api/relays/templates/{id}')).toBe('/api/relays/templates/{id}');
  });
});

describe('job tables', () => {
  it('lists relays with status, node, input bitrate, outputs with M/E/AD, CPU, RSS, restarts, uptime and the counts', () => {
    const off = summary({ id: 8, name: 'backup', active: false, outputTypes: ['srt'], outputMarkers: { multiProfile: false, encrypted: false, ad: false }, status: status({ on: false, state: 'stopped', workStatus: 'Stopped', cpu: 0, rss: 0, uptimeSeconds: null }) });
    const lines = render(JobPageView, { kind: 'relay', page: page([summary(), off]) });
    expect(lines[0].split(/\s{2,}/)).toEqual(['ID', 'NAME', 'STATUS', 'NODE', 'INPUT', 'OUTPUTS', 'CPU', 'RSS', 'RESTARTS', 'UPTIME']);
    expect(lines[1].split(/\s{2,}/).map((c) => c.trim())).toEqual(['7', 'news-hd', 'Streaming', 'local', 'uri 4.20 Mb/s', 'udp, hls M AD', '12.35%', '48.0 MiB', '2', '01:02:03']);
    // Off: CPU reads 0.00% and the figures of a run read "--" (spec 01 §2.5).
    expect(lines[2].split(/\s{2,}/).map((c) => c.trim())).toEqual(['8', 'backup', 'Stopped', 'local', 'uri', 'srt', '0.00%', '--', '2', '--']);
    expect(lines.at(-1)).toBe('Total relays: 3   Active: 2   Failed: 1   Waiting: 1');
  });

  it('shows Streaming as Transcoding for encodings, with the preset, and the spec\'s empty text', () => {
    const lines = render(JobPageView, { kind: 'encoding', page: page([summary({ kind: 'encoding', preset: { id: 1, name: 'H.264 720p' } })]) });
    expect(lines[0]).toContain('PRESET');
    expect(lines[1]).toMatch(/news-hd\s+Transcoding\s+local\s+H\.264 720p/);
    expect(render(JobPageView, { kind: 'encoding', page: page([]) })[1]).toBe('No encodings');
  });

  it('shows one job with its outputs, bitrates and comments', () => {
    const job = {
      ...summary(),
      input: { type: 'uri', uri: 'udp://127.0.0.1:5000' },
      failover: null,
      outputs: [{ position: 0, type: 'udp', uri: 'udp://127.0.0.1:6000' }, { position: 1, type: 'hls', uri: 'live/news', disabled: true }],
      comments: [{ id: 4, type: 'WARNING', comment: 'flaky source', createdAt: '2026-05-04T09:30:00Z', createdBy: 'ops' }],
      restartAttempts: 10,
      executionLocationType: 'auto',
    } as unknown as Schemas['Job'];
    const text = render(JobView, { kind: 'relay', job }).join('\n');
    expect(text).toMatch(/Status:\s+Streaming \(on, running\)/);
    expect(text).toMatch(/Input:\s+uri udp:\/\/127\.0\.0\.1:5000/);
    expect(text).toMatch(/Outputs:\s+0: udp udp:\/\/127\.0\.0\.1:6000 \(4\.10 Mb\/s\)\n\s+1: hls live\/news \(disabled\)/);
    expect(text).toMatch(/Bitrate in:\s+4\.20 Mb\/s/);
    expect(text).toMatch(/Comments:\s+#4 WARNING: flaky source/);
  });

  it('formats figures as an operator reads them', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('2 KiB');
    expect(formatBytes(1536 * 1024)).toBe('1.50 MiB');
    expect(formatBytes(1.2 * 1024 ** 3)).toBe('1.20 GiB');
    expect(formatBps(850_000)).toBe('850 kb/s');
    expect(formatUptime(90_061)).toBe('1d 01:01:01');
    expect(formatUptime(null)).toBe('--');
    expect(formatLogEntry({ timestamp: new Date(2026, 4, 4, 13, 7, 55, 12).toISOString(), level: 'WARNING', text: 'dropped 3 packets' })).toBe('2026-05-04 13:07:55.012 WARNING dropped 3 packets');
  });
});

describe('readSse', () => {
  async function events(chunks: string[]): Promise<SseEvent[]> {
    const encoder = new TextEncoder();
    async function* body() {
      for (const chunk of chunks) yield encoder.encode(chunk);
    }
    const out: SseEvent[] = [];
    for await (const event of readSse(body())) out.push(event);
    return out;
  }

  it('reads events split anywhere, skips comments and joins data lines', async () => {
    expect(await events(['retry: 2000\n\n: following\n\nevent: lo', 'g\ndata: {"a":1}\n', '\nevent: log\r\ndata: x\r\ndata: y\r', '\n\r\n', 'data: last\n\n'])).toEqual([
      { event: 'log', data: '{"a":1}' },
      { event: 'log', data: 'x\ny' },
      { event: 'message', data: 'last' },
    ]);
  });
});

describe('mediaplane top', () => {
  const row = (overrides: Partial<TopRow>): TopRow => ({ kind: 'relay', id: 1, name: 'a', workStatus: 'Streaming', state: 'running', reason: null, node: 'local', cpu: 1, rss: 1e6, inputBps: 1e6, outputBps: 1e6, restarts: 0, uptimeSeconds: 10, readAt: 0, ...overrides });

  it('sorts by CPU, RSS or name', () => {
    const rows = [row({ id: 1, name: 'b', cpu: 5, rss: 3e6 }), row({ id: 2, name: 'a', cpu: 9, rss: 1e6 }), row({ id: 3, kind: 'encoding', name: 'c', cpu: 1, rss: 9e6 })];
    expect(sortRows(rows, 'cpu').map((r) => r.id)).toEqual([2, 1, 3]);
    expect(sortRows(rows, 'rss').map((r) => r.id)).toEqual([3, 1, 2]);
    expect(sortRows(rows, 'name').map((r) => r.id)).toEqual([2, 1, 3]);
  });

  it('applies the nodes\' stats events in place and refetches on any other change', async () => {
    let lists = 0;
    const client = {
      GET: async (path: string) => {
        lists += 1;
        const kind = path === '/api/relays' ? 'relay' : 'encoding';
        const data = page(kind === 'relay' ? [summary()] : [summary({ kind: 'encoding', id: 9, name: 'movie', status: status({ cpu: 80 }) })]);
        return { data, response: new Response(null, { status: 200 }) };
      },
    } as unknown as ApiClient;
    const feed = new TopFeed(client, { throttleMs: 0 });
    await feed.refresh();
    expect(lists).toBe(2);
    expect(sortRows(feed.snapshot().rows, 'cpu').map((r) => r.name)).toEqual(['movie', 'news-hd']);

    feed.apply('relays', { type: 'stats', data: [{ id: 7, cpu: 95.5, rss: 2e8, inputBps: 5e6, outputBps: 5e6 }] });
    expect(lists).toBe(2);
    const json = snapshotJson(feed.snapshot(), 'cpu', Date.now());
    expect(json.jobs[0]).toMatchObject({ kind: 'relay', id: 7, cpu: 95.5, rss: 2e8, inputBps: 5e6, workStatus: 'Streaming' });

    const refetched = new Promise<void>((resolve) => feed.subscribe(resolve));
    feed.apply('encodings', { type: 'status', id: 9, data: { state: 'restarting' } });
    await refetched;
    expect(lists).toBe(4);
    await feed.close();
  });

  it('renders the counts and the table of a snapshot', () => {
    const snapshot = { rows: [row({ kind: 'encoding', id: 4, name: 'movie', cpu: 80.5 })], counts: { encoding: { total: 2, active: 1, failed: 0, waiting: 0 } }, hidden: 0, connection: 'live' as const };
    const lines = render(TopTable, { snapshot, sort: 'cpu', now: 5000 });
    expect(lines[0]).toBe('Encodings on: 1 (1 transcoding, 0 waiting, 0 failed)');
    expect(lines[2].split(/\s{2,}/)).toEqual(['KIND', 'ID', 'NAME', 'STATUS', 'CPU', 'RSS', 'IN', 'OUT', 'RESTARTS', 'UPTIME', 'NODE', 'REASON']);
    expect(lines[3].split(/\s{2,}/).map((c) => c.trim())).toEqual(['encoding', '4', 'movie', 'Transcoding', '80.50%', '977 KiB', '1.00 Mb/s', '1.00 Mb/s', '0', '00:00:15', 'local']);
  });
});
