import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBatch, type BatchLogEntry, type BatchTranscodeResult } from '../../engine/batch/batch-entry.ts';
import { planBatch, type BatchItem } from '../../engine/batch/batch-plan.ts';
import { expandGlob, GlobError } from '../../engine/batch/glob.ts';
import { probeMediaInfo } from '../../engine/probe/media-info.ts';

const root = mkdtempSync(path.join(tmpdir(), 'mediaplane-batch-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const touch = (file: string, content = '') => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
};

/** Transcodes one file to its first output with real ffmpeg. */
async function transcode(item: BatchItem): Promise<BatchTranscodeResult> {
  const output = item.outputs[0];
  mkdirSync(path.dirname(output), { recursive: true });
  const result = await execa(
    'ffmpeg',
    ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', '-i', item.sourceFile, '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-f', 'mpegts', output],
    { reject: false },
  );
  return { status: result.exitCode === 0 ? 'DONE' : 'FAILED', outputFiles: [output] };
}

describe('expandGlob', () => {
  const tree = path.join(root, 'tree');
  beforeAll(() => {
    for (const file of ['b.mp4', 'a.mp4', 'notes.txt', 'x/c.mp4', 'x/y/d.mp4', 'x/y/d.mov', '.trash/e.mp4', 'x/.part.mp4', 'cam1.ts', 'cam2.ts', 'cam3.ts']) touch(path.join(tree, 'in', file));
    touch(path.join(tree, 'elsewhere', 'linked.mp4'));
    symlinkSync(path.join(tree, 'elsewhere', 'linked.mp4'), path.join(tree, 'in', 'x', 'linked.mp4'));
    symlinkSync(path.join(tree, 'in'), path.join(tree, 'in', 'x', 'loop'));
  });

  it('finds the files below any depth with **, sorted, without hidden ones or linked directories', async () => {
    const { base, files } = await expandGlob(path.join(tree, 'in', '**', '*.mp4'));
    expect(base).toBe(path.join(tree, 'in'));
    expect(files.map((file) => path.relative(base, file))).toEqual(['a.mp4', 'b.mp4', 'x/c.mp4', 'x/linked.mp4', 'x/y/d.mp4']);
  });

  it('matches one level with *, ? and classes, also given as a file:// URL', async () => {
    const relative = async (pattern: string) => (await expandGlob(pattern)).files.map((file) => path.relative(path.join(tree, 'in'), file));
    expect(await relative(path.join(tree, 'in', '*.mp4'))).toEqual(['a.mp4', 'b.mp4']);
    expect(await relative(`file://${path.join(tree, 'in', 'cam?.ts')}`)).toEqual(['cam1.ts', 'cam2.ts', 'cam3.ts']);
    expect(await relative(path.join(tree, 'in', 'cam[13].ts'))).toEqual(['cam1.ts', 'cam3.ts']);
    expect(await relative(path.join(tree, 'in', '*', 'y', 'd.*'))).toEqual(['x/y/d.mov', 'x/y/d.mp4']);
    expect(await relative(path.join(tree, 'missing', '**', '*.mp4'))).toEqual([]);
  });

  it('refuses an input that is not local or has no pattern', async () => {
    await expect(expandGlob('http://host/in/*.mp4')).rejects.toThrow(GlobError);
    await expect(expandGlob('in/*.mp4')).rejects.toThrow('Batch input must be a local path');
    await expect(expandGlob(path.join(tree, 'in', 'a.mp4'))).rejects.toThrow('The URL must contain a glob pattern');
  });
});

describe('runBatch with real ffmpeg', () => {
  const input = path.join(root, 'vod', 'in');
  const output = path.join(root, 'vod', 'out');
  const sources = ['a.mp4', 'news/b.mp4', 'news/2026/c.mp4', 'sport/d.mp4', 'sport/e.mp4'];

  beforeAll(async () => {
    const first = path.join(input, sources[0]);
    mkdirSync(input, { recursive: true });
    await execa('ffmpeg', [
      '-hide_banner', '-loglevel', 'error', '-nostdin', '-y',
      '-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=10:duration=1', '-f', 'lavfi', '-i', 'sine=duration=1',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest', first,
    ]);
    for (const source of sources.slice(1)) {
      mkdirSync(path.dirname(path.join(input, source)), { recursive: true });
      copyFileSync(first, path.join(input, source));
    }
  });

  it('transcodes every file the glob finds into its named output, with an entry each; a second run skips them', async () => {
    const plan = await planBatch(`${input}/**/*.mp4`, [`${output}/{SRC_SUB_DIR}/{SRC_FILE_TITLE}_{SRC_FILE_EXT}.ts`]);
    expect(plan.items.map((item) => path.relative(input, item.sourceFile))).toEqual(['a.mp4', 'news/2026/c.mp4', 'news/b.mp4', 'sport/d.mp4', 'sport/e.mp4']);
    const seen: BatchLogEntry[] = [];
    const entries = await runBatch(plan, transcode, (entry) => void seen.push(entry), { jobName: 'Archive' });
    expect(seen).toEqual(entries);
    expect(entries.map((entry) => path.relative(output, entry.outputFiles[0]))).toEqual(['a_mp4.ts', 'news/2026/c_mp4.ts', 'news/b_mp4.ts', 'sport/d_mp4.ts', 'sport/e_mp4.ts']);
    for (const entry of entries) {
      expect(entry).toMatchObject({ jobName: 'Archive', status: 'DONE', sourceFileSizeInBytes: statSync(entry.sourceFile).size });
      expect(entry.sourceFileDurationInSeconds).toBeCloseTo(1, 0);
      expect(Date.parse(entry.endTime!)).toBeGreaterThanOrEqual(Date.parse(entry.startTime!));
      expect(entry.elapsedTimeInSeconds).toBeGreaterThan(0);
      expect(entry.transcodingSpeedInBitsPerSecond).toBeGreaterThan(0);
      expect(entry.transcodingSpeedToPlaySpeedRatio).toBeGreaterThan(0);
      const info = await probeMediaInfo(entry.outputFiles[0], { timeoutMs: 20_000 });
      expect(info.streams.map((s) => s.codec)).toEqual(['h264', 'aac']);
    }

    const done = entries.filter((entry) => entry.status === 'DONE').map((entry) => entry.sourceFile);
    const again = await planBatch(`file://${input}/**/*.mp4`, [`${output}/{SRC_SUB_DIR}/{SRC_FILE_TITLE}_{SRC_FILE_EXT}.ts`], done);
    expect(again.items).toEqual([]);
    expect(again.skipped).toHaveLength(5);
    const calls: BatchItem[] = [];
    expect(await runBatch(again, async (item) => (calls.push(item), { status: 'DONE' }), () => undefined)).toEqual([]);
    expect(calls).toEqual([]);
  });

  it('records a file that fails and goes on with the next', async () => {
    const broken = path.join(root, 'broken');
    touch(path.join(broken, '1-bad.mp4'), 'not a video');
    copyFileSync(path.join(input, 'a.mp4'), path.join(broken, '2-good.mp4'));
    touch(path.join(broken, '3-throws.mp4'), 'whatever');
    const plan = await planBatch(`${broken}/*.mp4`, [`${broken}/out/{SRC_FILE_TITLE}.ts`]);
    const entries = await runBatch(
      plan,
      async (item) => {
        if (item.title === '3-throws') throw new Error('transcoder vanished');
        return transcode(item);
      },
      () => undefined,
      { jobName: 'Broken' },
    );
    expect(entries.map((entry) => [path.basename(entry.sourceFile), entry.status])).toEqual([
      ['1-bad.mp4', 'FAILED'],
      ['2-good.mp4', 'DONE'],
      ['3-throws.mp4', 'FAILED'],
    ]);
    expect(entries[0].sourceFileDurationInSeconds).toBeNull();
    expect(existsSync(path.join(broken, 'out', '2-good.ts'))).toBe(true);
  });

  it('stops before the next file when aborted', async () => {
    const plan = await planBatch(`${input}/**/*.mp4`, [`${output}/stopped/{SRC_FILE_TITLE}.ts`]);
    const controller = new AbortController();
    const entries = await runBatch(
      plan,
      async () => {
        controller.abort();
        return { status: 'DONE', sourceFileDurationInSeconds: 1 };
      },
      () => undefined,
      { signal: controller.signal },
    );
    expect(entries).toHaveLength(1);
    expect(entries[0].jobName).toBe('');
  });
});
