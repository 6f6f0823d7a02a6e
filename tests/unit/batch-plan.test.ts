import { describe, expect, it } from 'vitest';
import { batchEntry } from '../../engine/batch/batch-entry.ts';
import { BATCH_MESSAGES, batchItemJob, batchNames, fillBatchPlaceholders, planBatchFiles, validateBatch } from '../../engine/batch/batch-plan.ts';
import type { JobSpec } from '../../engine/types.ts';

describe('batch placeholders', () => {
  it('names a file by its sub-directory, title and extension', () => {
    expect(batchNames('/media/in', '/media/in/2026/news/evening.final.mp4')).toEqual({ subDir: '2026/news', title: 'evening.final', ext: 'mp4' });
    expect(batchNames('/media/in', '/media/in/clip')).toEqual({ subDir: '', title: 'clip', ext: '' });
  });

  it('fills the placeholders, and an empty sub-directory leaves no doubled slash', () => {
    const names = { subDir: '2026/news', title: 'evening', ext: 'mp4' };
    expect(fillBatchPlaceholders('/media/out/{SRC_SUB_DIR}/{SRC_FILE_TITLE}-{SRC_FILE_EXT}/index.m3u8', names)).toBe('/media/out/2026/news/evening-mp4/index.m3u8');
    const top = { subDir: '', title: 'evening', ext: 'mp4' };
    expect(fillBatchPlaceholders('/media/out/{SRC_SUB_DIR}/{SRC_FILE_TITLE}.ts', top)).toBe('/media/out/evening.ts');
    expect(fillBatchPlaceholders('/media/out/{SRC_SUB_DIR}', top)).toBe('/media/out');
    expect(fillBatchPlaceholders('rtmp://live/app/{SRC_FILE_TITLE}', top)).toBe('rtmp://live/app/evening');
  });
});

describe('planBatchFiles', () => {
  const files = ['/in/a.mp4', '/in/x/b.mp4', '/in/x/y/c.mov'];

  it('gives every file its outputs, in order', () => {
    const plan = planBatchFiles('/in', files, ['/out/{SRC_SUB_DIR}/{SRC_FILE_TITLE}.ts', '/hls/{SRC_FILE_TITLE}_{SRC_FILE_EXT}']);
    expect(plan.items.map((item) => [item.sourceFile, item.outputs])).toEqual([
      ['/in/a.mp4', ['/out/a.ts', '/hls/a_mp4']],
      ['/in/x/b.mp4', ['/out/x/b.ts', '/hls/b_mp4']],
      ['/in/x/y/c.mov', ['/out/x/y/c.ts', '/hls/c_mov']],
    ]);
    expect(plan.skipped).toEqual([]);
  });

  it('skips the files a previous run finished', () => {
    const plan = planBatchFiles('/in', files, ['/out/{SRC_FILE_TITLE}.ts'], ['/in/x/b.mp4', '/in/./a.mp4']);
    expect(plan.items.map((item) => item.sourceFile)).toEqual(['/in/x/y/c.mov']);
    expect(plan.skipped).toEqual(['/in/a.mp4', '/in/x/b.mp4']);
  });
});

describe('validateBatch', () => {
  const ok = { videoType: 'VOD' as const, inputType: 'uri', inputUri: '/media/in/**/*.mp4', outputs: [{ path: 'output.0.dir', template: '/out/{SRC_FILE_TITLE}' }] };

  it('accepts a VOD uri job with a local glob and named outputs', () => {
    expect(validateBatch(ok)).toEqual([]);
    expect(validateBatch({ ...ok, inputUri: 'file:///media/in/*.mp4' })).toEqual([]);
  });

  it('refuses what the spec refuses, with its texts', () => {
    expect(validateBatch({ ...ok, videoType: 'LIVE' })).toEqual([{ path: 'videoType', message: 'Batch is only for VOD with a uri input.' }]);
    expect(validateBatch({ ...ok, inputType: 'playlist' })).toEqual([{ path: 'input.type', message: BATCH_MESSAGES.vodUriOnly }]);
    expect(validateBatch({ ...ok, inputUri: '/media/in/clip.mp4' })).toEqual([{ path: 'input.uri', message: 'The URL must contain a glob pattern.' }]);
    expect(validateBatch({ ...ok, inputUri: 'http://host/in/*.mp4' })).toEqual([{ path: 'input.uri', message: BATCH_MESSAGES.localOnly }]);
    expect(validateBatch({ ...ok, outputs: [{ path: 'output.1.dir', template: '/out/fixed' }] })).toEqual([
      { path: 'output.1.dir', message: 'Playback URLs must contain at least one of {SRC_SUB_DIR}, {SRC_FILE_TITLE}, {SRC_FILE_EXT}' },
    ]);
  });
});

describe('batchItemJob', () => {
  it('points the input at the file and fills the outputs', () => {
    const job: JobSpec = {
      id: 'encoding-7',
      name: 'Archive',
      videoType: 'VOD',
      input: { type: 'uri', uri: '/in/**/*.mp4' },
      outputs: [
        { index: 0, type: 'hls', dir: '/out/{SRC_SUB_DIR}/{SRC_FILE_TITLE}', segmentDurationSeconds: 6, containerType: 'TS' },
        { index: 1, type: 'udp', host: '239.0.0.1', port: 1234 },
      ],
      restartAttempts: 0,
      staleTimeoutSeconds: 30,
      logLevel: 'INFO',
      logMaxSizeInMegaBytes: 10,
    };
    const [item] = planBatchFiles('/in', ['/in/x/b.mp4'], []).items;
    const one = batchItemJob(job, item);
    expect(one.input).toEqual({ type: 'uri', uri: '/in/x/b.mp4' });
    expect(one.outputs[0]).toMatchObject({ dir: '/out/x/b' });
    expect(one.outputs[1]).toEqual(job.outputs[1]);
  });
});

describe('batchEntry', () => {
  it('fills every field of the batch log entry', () => {
    const entry = batchEntry({
      jobName: 'Archive',
      sourceFile: '/in/a.mp4',
      outputFiles: ['/out/a.ts'],
      startTime: Date.parse('2026-11-22T10:00:00.000Z'),
      endTime: Date.parse('2026-11-22T10:00:04.000Z'),
      sourceFileDurationInSeconds: 60,
      sourceFileSizeInBytes: 10_000_000,
      status: 'DONE',
    });
    expect(entry).toEqual({
      startTime: '2026-11-22T10:00:00.000Z',
      endTime: '2026-11-22T10:00:04.000Z',
      elapsedTimeInSeconds: 4,
      sourceFile: '/in/a.mp4',
      sourceFileDurationInSeconds: 60,
      sourceFileSizeInBytes: 10_000_000,
      outputFiles: ['/out/a.ts'],
      transcodingSpeedInBitsPerSecond: 20_000_000,
      transcodingSpeedToPlaySpeedRatio: 15,
      jobName: 'Archive',
      status: 'DONE',
    });
  });

  it('falls back to NONE and leaves what is unknown empty', () => {
    const entry = batchEntry({ jobName: 'Archive', sourceFile: '/in/a.mp4', outputFiles: [] });
    expect(entry.status).toBe('NONE');
    expect(entry).toMatchObject({ startTime: null, endTime: null, elapsedTimeInSeconds: null, transcodingSpeedInBitsPerSecond: null, transcodingSpeedToPlaySpeedRatio: null });
    expect(Object.keys(entry).sort()).toEqual(
      ['startTime', 'endTime', 'elapsedTimeInSeconds', 'sourceFile', 'sourceFileDurationInSeconds', 'sourceFileSizeInBytes', 'outputFiles', 'transcodingSpeedInBitsPerSecond', 'transcodingSpeedToPlaySpeedRatio', 'jobName', 'status'].sort(),
    );
  });
});
