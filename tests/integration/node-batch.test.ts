import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DataPaths } from '../../api/config.ts';
import type { Db } from '../../api/db/database.ts';
import type { EventBus } from '../../api/events/event-bus.ts';
import type { BatchRunnerFactory } from '../../api/node/node-reconciler.ts';
import { BatchJobRunner } from '../../engine/batch/batch-job-runner.ts';
import type { BatchLogEntry } from '../../engine/batch/batch-entry.ts';
import { JobInput } from '../../openapi/schemas/jobs.ts';
import { makeTestMedia } from '../fixtures/media/lavfi.ts';
import { createNodeHarness, type NodeHarness } from '../support/node-harness.ts';
import { insertJob, setDesired, waitFor } from '../support/jobs.ts';

/**
 * Batch VOD on the node (spec 01 §2.6): a relay whose uri input is a glob, with an HLS output
 * named by the placeholders, run by the real reconciler and ffmpeg. Sources are tiny MPEG-TS files
 * (160×90); streams are copied, so the work is cheap.
 */
let harness: NodeHarness;
let db: Db;
let bus: EventBus;
let dir: string;
let paths: DataPaths;
let sample: string;
let nodeId: number;

const FIELDS = [
  'startTime',
  'endTime',
  'elapsedTimeInSeconds',
  'sourceFile',
  'sourceFileDurationInSeconds',
  'sourceFileSizeInBytes',
  'outputFiles',
  'transcodingSpeedInBitsPerSecond',
  'transcodingSpeedToPlaySpeedRatio',
  'jobName',
  'status',
].sort();

const startNode = (createBatchRunner?: BatchRunnerFactory) => harness.startNode({ createBatchRunner });

const statusOf = (id: number) => db.selectFrom('job_status').selectAll().where('job_id', '=', id).executeTakeFirst();
const jobOf = (id: number) => db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const eventsOf = async (id: number) => (await db.selectFrom('job_events').selectAll().where('job_id', '=', id).orderBy('id').execute()).map((e) => `${e.type}${e.reason ? `:${e.reason}` : ''}`);
const entriesOf = async (id: number) => (await db.selectFrom('job_batch_entries').selectAll().where('job_id', '=', id).orderBy('id').execute()).map((row) => ({ ...row, entry: row.entry as BatchLogEntry }));

/** A folder of sources: copies of one small file under the given names. */
function sources(name: string, files: string[]): string {
  const root = path.join(dir, name);
  for (const file of files) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    copyFileSync(sample, path.join(root, file));
  }
  return root;
}

function batchRelay(name: string, inputGlob: string, outputs: object[] = [{ type: 'hls', uri: `${name}/{SRC_SUB_DIR}/{SRC_FILE_TITLE}` }]) {
  return insertJob(db, 'relay', { name, videoType: 'VOD', input: { type: 'uri', uri: inputGlob, batchLogEnabled: true }, outputs } as never, { active: true, nodeId });
}

/** The node's batches with ffmpeg reading at the native rate (-re): a 3-second file takes 3 seconds, so an order lands while one is in progress. */
const atNativeRate: BatchRunnerFactory = (spec, deps) => {
  const slowFfmpeg = path.join(dir, 'ffmpeg-at-native-rate');
  if (!existsSync(slowFfmpeg)) {
    writeFileSync(slowFfmpeg, '#!/bin/sh\nexec ffmpeg -re "$@"\n');
    chmodSync(slowFfmpeg, 0o755);
  }
  return new BatchJobRunner(spec, { ...deps, ffmpegPath: slowFfmpeg });
};

async function finished(id: number) {
  return waitFor(
    async () => {
      const [status, job] = await Promise.all([statusOf(id), jobOf(id)]);
      return status?.state === 'stopped' && status.reason === 'finished' && !job.active ? status : undefined;
    },
    'the batch finished and switched off',
    30_000,
  );
}

beforeAll(async () => {
  harness = await createNodeHarness('batch');
  ({ db, bus, dir, paths, nodeId } = harness);
  sample = await makeTestMedia(path.join(dir, 'sample.ts'), { seconds: 3, width: 160, height: 90 });
}, 120_000);

afterEach(() => harness.stopNodes());
afterAll(() => harness.close());

describe('a batch VOD job on the node', () => {
  it('transcodes each matched file once into outputs named by the placeholders, keeps an entry per file, then stops as finished and switches itself off', async () => {
    const root = sources('library', ['a.ts', 'news/b.ts', 'news/2026/c.ts', 'notes.txt']);
    const job = await batchRelay('library', `${root}/**/*.ts`);
    const node = await startNode();
    const status = await finished(job.id);
    expect(status.reason_detail).toBe('3 file(s): 3 done, 0 failed');
    expect(status.pid).toBeNull();

    const entries = await entriesOf(job.id);
    const hls = (sub: string) => path.join(paths.streamsDir, 'library', sub, 'index.m3u8');
    expect(entries.map((e) => [e.source_file, e.status])).toEqual([
      [path.join(root, 'a.ts'), 'DONE'],
      [path.join(root, 'news/2026/c.ts'), 'DONE'],
      [path.join(root, 'news/b.ts'), 'DONE'],
    ]);
    expect(entries.map((e) => e.entry.outputFiles)).toEqual([[hls('a')], [hls('news/2026/c')], [hls('news/b')]]);
    for (const { entry } of entries) {
      expect(Object.keys(entry).sort()).toEqual(FIELDS);
      expect(entry).toMatchObject({ jobName: 'library', status: 'DONE', sourceFileSizeInBytes: readFileSync(sample).length });
      expect(entry.sourceFileDurationInSeconds).toBeCloseTo(3, 0);
      expect(entry.elapsedTimeInSeconds).toBeGreaterThan(0);
      expect(Date.parse(entry.endTime as string)).toBeGreaterThanOrEqual(Date.parse(entry.startTime as string));
      expect(entry.transcodingSpeedInBitsPerSecond).toBeGreaterThan(0);
      expect(entry.transcodingSpeedToPlaySpeedRatio).toBeGreaterThan(0);
      // Each output is a complete VOD playlist.
      const playlist = readFileSync(entry.outputFiles[0], 'utf8');
      expect(playlist).toContain('#EXT-X-PLAYLIST-TYPE:VOD');
      expect(playlist).toContain('#EXT-X-ENDLIST');
    }

    const events = await eventsOf(job.id);
    expect(events[0]).toBe('START');
    expect(events.at(-1)).toBe('STOP:finished');
    expect(events.filter((e) => e.startsWith('START'))).toHaveLength(1);
    expect(events.some((e) => e.startsWith('EXIT') || e.startsWith('FAILURE'))).toBe(false);
    const stop = await db.selectFrom('job_events').selectAll().where('job_id', '=', job.id).where('type', '=', 'STOP').executeTakeFirstOrThrow();
    expect(stop.actor_kind).toBe('engine');
    expect((await jobOf(job.id)).desired_actor).toEqual({ kind: 'engine' });
    const log = readFileSync(path.join(paths.logsDir, `relay-${job.id}.log`), 'utf8');
    expect(log).toContain('batch: 3 file(s) to transcode');
    expect(log).toContain('batch finished: 3 file(s): 3 done, 0 failed');

    // Switched on again with one more file: only the new one is transcoded.
    copyFileSync(sample, path.join(root, 'news', 'd.ts'));
    await node.reconciler.sweep();
    await setDesired(db, bus, job.id, { active: true });
    const again = await waitFor(
      async () => {
        const s = await statusOf(job.id);
        return s?.state === 'stopped' && s.reason === 'finished' && s.reason_detail?.includes('done before') && !(await jobOf(job.id)).active ? s : undefined;
      },
      'the second run finished',
      30_000,
    );
    expect(again.reason_detail).toBe('1 file(s): 1 done, 0 failed; 3 done before');
    expect((await entriesOf(job.id)).map((e) => path.relative(root, e.source_file))).toEqual(['a.ts', 'news/2026/c.ts', 'news/b.ts', 'news/d.ts']);
  });

  it('a restart order ends the file in progress and runs again only the files not done', async () => {
    const root = sources('restart', ['a.ts', 'b.ts', 'c.ts']);
    const job = await batchRelay('restart', `${root}/*.ts`);
    await startNode(atNativeRate);

    await waitFor(async () => (await entriesOf(job.id)).length === 1, 'the first file done');
    await waitFor(async () => (await statusOf(job.id))?.state === 'running', 'the second file running');
    await setDesired(db, bus, job.id, { restart: 'hard' });
    await finished(job.id);

    const entries = await entriesOf(job.id);
    expect(entries.map((e) => [path.basename(e.source_file), e.status])).toEqual([
      ['a.ts', 'DONE'],
      ['b.ts', 'NONE'],
      ['b.ts', 'DONE'],
      ['c.ts', 'DONE'],
    ]);
    // The interrupted file's entry has every field; what it wrote is not claimed as done.
    expect(Object.keys(entries[1].entry).sort()).toEqual(FIELDS);
    expect(entries[1].entry.status).toBe('NONE');
    const events = await eventsOf(job.id);
    expect(events).toContain('RESTART:hard');
    expect(events.at(-1)).toBe('STOP:finished');
    expect((await statusOf(job.id))?.reason_detail).toBe('2 file(s): 2 done, 0 failed; 1 done before');
  });

  it('switched off in the middle, it ends the file in progress (NONE) and, switched on again, does only the rest', async () => {
    const root = sources('pause', ['a.ts', 'b.ts']);
    const job = await batchRelay('pause', `${root}/*.ts`);
    await startNode(atNativeRate);
    const running = await waitFor(async () => {
      const status = await statusOf(job.id);
      return status?.state === 'running' && status.pid ? status.pid : undefined;
    }, 'the first file running');
    await setDesired(db, bus, job.id, { active: false }, { kind: 'user', userId: 7, username: 'operator' });
    await waitFor(async () => (await statusOf(job.id))?.state === 'stopped', 'the batch stopped');
    expect(await statusOf(job.id)).toMatchObject({ state: 'stopped', reason: 'stopped', pid: null });
    expect(existsSync(`/proc/${running}`)).toBe(false);
    expect((await entriesOf(job.id)).map((e) => [path.basename(e.source_file), e.status])).toEqual([['a.ts', 'NONE']]);

    await setDesired(db, bus, job.id, { active: true });
    await finished(job.id);
    expect((await entriesOf(job.id)).map((e) => [path.basename(e.source_file), e.status])).toEqual([
      ['a.ts', 'NONE'],
      ['a.ts', 'DONE'],
      ['b.ts', 'DONE'],
    ]);
    const events = await eventsOf(job.id);
    expect(events.filter((e) => e.startsWith('START') || e.startsWith('STOP'))).toEqual(['START', 'STOP', 'START', 'STOP:finished']);
  });

  it('a batch whose output is not named by a placeholder fails with the spec message; corrected and restarted, it runs', async () => {
    const root = sources('invalid', ['a.ts']);
    const job = await batchRelay('invalid', `${root}/*.ts`, [{ type: 'udp', uri: 'udp://127.0.0.1:9' }]);
    await startNode();
    const failed = await waitFor(async () => {
      const status = await statusOf(job.id);
      return status?.state === 'failed' ? status : undefined;
    }, 'the batch failed');
    expect(failed.reason).toBe('invalid_config');
    expect(failed.reason_detail).toBe('outputs.0.uri: Playback URLs must contain at least one of {SRC_SUB_DIR}, {SRC_FILE_TITLE}, {SRC_FILE_EXT}');
    expect(await entriesOf(job.id)).toEqual([]);

    const config = JobInput.parse({ ...(job.config as object), outputs: [{ type: 'hls', uri: 'fixed/{SRC_FILE_TITLE}' }] });
    await db.updateTable('jobs').set({ config: JSON.stringify(config), output_types: ['hls'] }).where('id', '=', job.id).execute();
    await setDesired(db, bus, job.id, { restart: 'hard' });
    await finished(job.id);
    expect((await entriesOf(job.id)).map((e) => e.status)).toEqual(['DONE']);
    expect(existsSync(path.join(paths.streamsDir, 'fixed', 'a', 'index.m3u8'))).toBe(true);
    const events = await eventsOf(job.id);
    expect(events.slice(0, 3)).toEqual(['START', 'FAILURE:invalid_config', 'RESTART:hard']);
    expect(events.at(-1)).toBe('STOP:finished');
  });

  it('a file ffmpeg cannot read is FAILED, the others are done, and the batch still finishes', async () => {
    const root = sources('broken', ['a.ts', 'c.ts']);
    writeFileSync(path.join(root, 'b.ts'), 'this is not a transport stream\n');
    const job = await batchRelay('broken', `${root}/*.ts`);
    await startNode();
    const status = await finished(job.id);
    expect(status.reason_detail).toBe('3 file(s): 2 done, 1 failed');
    const entries = await entriesOf(job.id);
    expect(entries.map((e) => [path.basename(e.source_file), e.status])).toEqual([
      ['a.ts', 'DONE'],
      ['b.ts', 'FAILED'],
      ['c.ts', 'DONE'],
    ]);
    expect(entries[1].entry.sourceFileDurationInSeconds).toBeNull();
    const events = await eventsOf(job.id);
    expect(events.filter((e) => e.startsWith('EXIT'))).toEqual(['EXIT:invalid_data']);
    const exit = await db.selectFrom('job_events').selectAll().where('job_id', '=', job.id).where('type', '=', 'EXIT').executeTakeFirstOrThrow();
    expect(exit.detail).toContain(path.join(root, 'b.ts'));
  });
});
