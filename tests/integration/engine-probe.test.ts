import { createSocket } from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_INFO_FAILED_MESSAGE, MediaInfoError, probeMediaInfo } from '../../engine/probe/media-info.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'mediaplane-probe-'));
const twoPrograms = path.join(dir, 'two-programs.ts');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  // Program 101 "News": H.264 progressive + MP2 stereo (eng); program 202 "Sport": MPEG-2 interlaced (top field first).
  await execa('ffmpeg', [
    '-hide_banner', '-loglevel', 'error', '-nostdin', '-y',
    '-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=10:duration=1',
    '-f', 'lavfi', '-i', 'sine=duration=1:sample_rate=48000',
    '-f', 'lavfi', '-i', 'testsrc2=size=64x48:rate=25:duration=1',
    '-map', '0:v', '-map', '1:a', '-map', '2:v',
    '-c:v:0', 'libx264', '-preset', 'ultrafast', '-c:v:1', 'mpeg2video', '-flags:v:1', '+ildct+ilme', '-top:v:1', '1',
    '-c:a', 'mp2', '-ac', '2', '-metadata:s:a:0', 'language=eng',
    '-program', 'title=News:program_num=101:st=0:st=1', '-program', 'title=Sport:program_num=202:st=2',
    '-f', 'mpegts', twoPrograms,
  ]);
});

async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

async function closedTcpPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function failure(promise: Promise<unknown>): Promise<MediaInfoError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(MediaInfoError);
  expect((error as Error).message).toBe('Media info detection failed. Please make sure the source is available.');
  return error as MediaInfoError;
}

describe('probeMediaInfo', () => {
  it('describes the programs and streams of a multi-program transport stream', async () => {
    const info = await probeMediaInfo(twoPrograms, { timeoutMs: 20_000 });
    expect(info.format).toMatchObject({ name: 'mpegts', durationSeconds: expect.closeTo(1, 0) });
    expect(info.programs.map((p) => ({ number: p.number, name: p.name, streams: p.streams.map((s) => s.index) }))).toEqual([
      { number: 101, name: 'News', streams: [0, 1] },
      { number: 202, name: 'Sport', streams: [2] },
    ]);
    const [h264, mp2, mpeg2] = info.streams;
    expect(h264).toMatchObject({ index: 0, type: 'video', codec: 'h264', width: 64, height: 48, frameRate: 10, pixelFormat: 'yuv444p', fieldOrder: 'progressive', interlaced: false, id: '0x100' });
    expect(mp2).toMatchObject({ index: 1, type: 'audio', codec: 'mp2', sampleRate: 48000, channels: 2, channelLayout: 'stereo', language: 'eng', bitrate: 384000, frameRate: null, width: null });
    expect(mpeg2).toMatchObject({ index: 2, type: 'video', codec: 'mpeg2video', profile: 'Main', frameRate: 25, fieldOrder: 'tt', interlaced: true });
  });

  it('accepts a storage input and a file:// URL', async () => {
    expect((await probeMediaInfo({ type: 'storage', path: twoPrograms }, { timeoutMs: 20_000 })).streams).toHaveLength(3);
    expect((await probeMediaInfo({ type: 'uri', uri: `file://${twoPrograms}` }, { timeoutMs: 20_000 })).programs).toHaveLength(2);
  });

  it('describes a live UDP source', async () => {
    const port = await freeUdpPort();
    const sender: ResultPromise = execa('ffmpeg', [
      '-hide_banner', '-loglevel', 'error', '-nostdin', '-re',
      '-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=10', '-f', 'lavfi', '-i', 'sine=sample_rate=48000',
      '-c:v', 'mpeg2video', '-g', '5', '-c:a', 'mp2', '-f', 'mpegts', `udp://127.0.0.1:${port}?pkt_size=1316`,
    ], { reject: false });
    try {
      const info = await probeMediaInfo({ type: 'uri', uri: `udp://127.0.0.1:${port}` }, { timeoutMs: 25_000, analyzeDurationMs: 1500 });
      expect(info.format.name).toBe('mpegts');
      expect(info.programs).toEqual([expect.objectContaining({ number: 1, name: 'Service01' })]);
      expect(info.streams.map((s) => [s.type, s.codec])).toEqual([['video', 'mpeg2video'], ['audio', 'mp2']]);
    } finally {
      sender.kill('SIGKILL');
      await sender;
    }
  });

  it('fails with the spec message and ffprobe\'s reason for a missing file', async () => {
    const error = await failure(probeMediaInfo(path.join(dir, 'missing.ts'), { timeoutMs: 20_000 }));
    expect(error.detail).toBe(`${path.join(dir, 'missing.ts')}: No such file or directory`);
    expect(MEDIA_INFO_FAILED_MESSAGE).toBe(error.message);
  });

  it('fails with the spec message after the timeout when a source sends nothing', async () => {
    const port = await freeUdpPort();
    const started = Date.now();
    const error = await failure(probeMediaInfo(`udp://127.0.0.1:${port}`, { timeoutMs: 1000 }));
    expect(error.detail).toBe('timed out after 1000 ms');
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('fails with the reason for a refused connection and for a missing ffprobe', async () => {
    const port = await closedTcpPort();
    expect((await failure(probeMediaInfo(`tcp://127.0.0.1:${port}`, { timeoutMs: 20_000 }))).detail).toMatch(/Connection refused/);
    expect((await failure(probeMediaInfo(twoPrograms, { timeoutMs: 20_000, ffprobePath: path.join(dir, 'no-ffprobe') }))).detail).toBe(
      `ffprobe not found: ${path.join(dir, 'no-ffprobe')}`,
    );
  });
});
