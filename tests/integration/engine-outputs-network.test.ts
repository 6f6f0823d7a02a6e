import { createSocket } from 'node:dgram';
import { access, writeFile } from 'node:fs/promises';
import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../api/db/embedded.ts';
import { buildFfmpegArgs } from '../../engine/ffmpeg/build-args.ts';
import { TsFanout } from '../../engine/mpegts-fanout.ts';
import type { InputSpec } from '../../engine/types.ts';
import { makeTestMedia } from '../fixtures/media/lavfi.ts';
import { assertTsPackets, audioOf, ffprobe, job, lightEncoding, startFfmpeg, stopFfmpeg, tempDir, videoOf, waitForPort } from './engine-outputs-support.ts';

/**
 * Every network output type, written by real ffmpeg from the argv the builders make and read back
 * by a real receiver on loopback. Each source is a 3 s file played at its native rate (a LIVE job).
 */
describe('engine outputs over the network', () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  let source: InputSpec;

  beforeAll(async () => {
    tmp = await tempDir('net-outputs');
    source = { type: 'storage', path: await makeTestMedia(path.join(tmp.dir, 'source.ts'), { seconds: 4 }) };
  });
  afterAll(() => tmp?.remove());

  it('UDP: ffprobe listening on the port sees the relayed H.264 and AAC', async () => {
    const port = await freePort();
    const reader = ffprobe(`udp://127.0.0.1:${port}?timeout=10000000`);
    await waitForPort(port, 'udp');
    const writer = await startFfmpeg(buildFfmpegArgs(job(source, [{ index: 0, type: 'udp', host: '127.0.0.1', port }])));
    const probe = await reader;
    await stopFfmpeg(writer);
    expect(videoOf(probe)).toMatchObject({ codec_name: 'h264', width: 640, height: 360 });
    expect(audioOf(probe)?.codec_name).toBe('aac');
  });

  it('UDP with RTP: 1328-byte datagrams, RTP version 2, payload type 33, seven TS packets each', async () => {
    const port = await freePort();
    const socket = createSocket('udp4');
    const datagrams: Buffer[] = [];
    const enough = new Promise<void>((resolve) =>
      socket.on('message', (message) => {
        datagrams.push(message);
        if (datagrams.length === 50) resolve();
      }),
    );
    await new Promise<void>((resolve) => socket.bind(port, '127.0.0.1', resolve));
    const writer = await startFfmpeg(buildFfmpegArgs(job(source, [{ index: 0, type: 'udp', host: '127.0.0.1', port, rtp: true }])));
    try {
      await enough;
    } finally {
      socket.close();
      await stopFfmpeg(writer);
    }
    const full = datagrams.slice(0, 40);
    for (const datagram of full) {
      expect(datagram[0] >> 6).toBe(2);
      expect(datagram[1] & 0x7f).toBe(33);
    }
    expect(full.filter((d) => d.length === 1328).length).toBeGreaterThan(30);
    for (const datagram of full.filter((d) => d.length === 1328)) expect(assertTsPackets(datagram, 12)).toBe(7);
  });

  it('SRT listener with passphrase: a caller with the same passphrase receives the stream', async () => {
    const port = await freePort();
    // Characters of the tee muxer's own syntax, to show they reach libsrt intact.
    const passphrase = "c0rrect: horse|battery]['st\\aple";
    const writer = await startFfmpeg(
      buildFfmpegArgs(job(source, [{ index: 0, type: 'srt', mode: 'listener', host: '127.0.0.1', port, passphrase, pbkeylen: 16, latencyMs: 120 }], { encoding: lightEncoding() })),
    );
    try {
      await waitForPort(port, 'udp');
      // A caller with another passphrase is turned away ...
      await expect(ffprobe(`srt://127.0.0.1:${port}?mode=caller`, { args: ['-passphrase', 'not the passphrase', '-pbkeylen', '16'] })).rejects.toThrow();
      // ... the one with the passphrase gets the stream.
      const probe = await ffprobe(`srt://127.0.0.1:${port}?mode=caller`, { args: ['-passphrase', passphrase, '-pbkeylen', '16'] });
      expect(videoOf(probe)).toMatchObject({ codec_name: 'h264', width: 320, height: 180 });
      expect(audioOf(probe)?.codec_name).toBe('aac');
    } finally {
      await stopFfmpeg(writer);
    }
  });

  it('SRT caller with a stream id: ffprobe listening receives the stream', async () => {
    const port = await freePort();
    const reader = ffprobe(`srt://127.0.0.1:${port}?mode=listener`, { timeoutMs: 20_000 });
    await waitForPort(port, 'udp');
    const writer = await startFfmpeg(
      buildFfmpegArgs(job(source, [{ index: 0, type: 'srt', mode: 'caller', host: '127.0.0.1', port, streamId: '#!::r=live/test,m=publish', latencyMs: 200 }], { encoding: lightEncoding() })),
    );
    try {
      const probe = await reader;
      expect(videoOf(probe)).toMatchObject({ codec_name: 'h264', width: 320 });
    } finally {
      await stopFfmpeg(writer);
    }
  });

  it.each([
    ['encoded', lightEncoding(), 320],
    ['relayed (copied streams)', undefined, 640],
  ])('RTMP, %s: an ffmpeg RTMP server on loopback receives FLV with H.264 and AAC', async (_kind, encoding, width) => {
    const port = await freePort();
    const received = path.join(tmp.dir, `rtmp-received-${width}.flv`);
    const server = execa(
      'ffmpeg',
      ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', '-listen', '1', '-f', 'flv', '-i', `rtmp://127.0.0.1:${port}/live/x`, '-c', 'copy', '-t', '2', received],
      { reject: false, timeout: 25_000 },
    );
    await waitForPort(port, 'tcp');
    const writer = await startFfmpeg(buildFfmpegArgs(job(source, [{ index: 0, type: 'rtmp', url: `rtmp://127.0.0.1:${port}/live/x` }], { encoding })));
    const result = await server;
    await stopFfmpeg(writer);
    expect(result.exitCode, String(result.stderr)).toBe(0);
    const probe = await ffprobe(received);
    expect(probe.format?.format_name).toBe('flv');
    expect(videoOf(probe)).toMatchObject({ codec_name: 'h264', width });
    expect(audioOf(probe)?.codec_name).toBe('aac');
  });

  it('TCP: ffprobe listening on a TCP port receives MPEG-TS', async () => {
    const port = await freePort();
    const reader = ffprobe(`tcp://127.0.0.1:${port}?listen=1`);
    await waitForPort(port, 'tcp');
    const writer = await startFfmpeg(buildFfmpegArgs(job(source, [{ index: 0, type: 'tcp', host: '127.0.0.1', port }])));
    try {
      const probe = await reader;
      expect(videoOf(probe)?.codec_name).toBe('h264');
    } finally {
      await stopFfmpeg(writer);
    }
  });

  it('HTTP MPEG-TS: ffmpeg stdout through TsFanout to HTTP clients, 0x47 every 188 bytes, a late client starts on a packet', async () => {
    const command = buildFfmpegArgs(job(source, [{ index: 0, type: 'mpegts' }], { encoding: lightEncoding() }));
    expect(command.usesStdout).toBe(true);
    const writer = await startFfmpeg(command);
    const fanout = new TsFanout(writer.child.stdout!.pipe(new PassThrough()));
    const server: Server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp2t' });
      fanout.subscribe(res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/live.ts`;
    const read = (bytes: number) =>
      new Promise<Buffer>((resolve, reject) => {
        const chunks: Buffer[] = [];
        let total = 0;
        const request = get(url, (response) => {
          expect(response.headers['content-type']).toBe('video/mp2t');
          response.on('data', (chunk: Buffer) => {
            chunks.push(chunk);
            total += chunk.length;
            if (total >= bytes) {
              request.destroy();
              resolve(Buffer.concat(chunks));
            }
          });
          response.on('error', reject);
        });
        request.on('error', (error) => (total >= bytes ? undefined : reject(error)));
      });
    try {
      const first = await read(64 * 1024);
      // A second client joining later still starts on a packet boundary.
      const late = await read(32 * 1024);
      expect(assertTsPackets(first)).toBeGreaterThan(300);
      expect(assertTsPackets(late)).toBeGreaterThan(150);
      // What one client received is a stream ffprobe can read.
      const saved = path.join(tmp.dir, 'http-received.ts');
      await writeFile(saved, first);
      expect(videoOf(await ffprobe(saved))?.codec_name).toBe('h264');
    } finally {
      fanout.close();
      server.closeAllConnections();
      server.close();
      await stopFfmpeg(writer);
    }
  });

  it('several outputs from one process: one failing output (an SRT caller nobody answers) does not stop UDP and HLS', async () => {
    const udpPort = await freePort();
    const deadPort = await freePort();
    const hlsDir = path.join(tmp.dir, 'shared-hls');
    const command = buildFfmpegArgs(
      job(
        source,
        [
          { index: 0, type: 'srt', mode: 'caller', host: '127.0.0.1', port: deadPort },
          { index: 1, type: 'udp', host: '127.0.0.1', port: udpPort },
          { index: 2, type: 'hls', dir: hlsDir, segmentDurationSeconds: 1, containerType: 'TS', listSize: 0 },
        ],
        { encoding: lightEncoding() },
      ),
    );
    // One encode for all outputs: a single libx264 and a single tee muxer.
    expect(command.args.filter((a) => a === 'libx264')).toHaveLength(1);
    expect(command.args.filter((a) => a === 'tee')).toHaveLength(1);
    const reader = ffprobe(`udp://127.0.0.1:${udpPort}?timeout=10000000`);
    await waitForPort(udpPort, 'udp');
    const writer = await startFfmpeg(command);
    try {
      expect(videoOf(await reader)).toMatchObject({ codec_name: 'h264', width: 320 });
      // ffmpeg writes the playlist once the first segment is complete.
      await waitForFile(path.join(hlsDir, 'index.m3u8'));
      const hls = await ffprobe(path.join(hlsDir, 'index.m3u8'));
      expect(videoOf(hls)?.codec_name).toBe('h264');
      expect(writer.child.exitCode).toBeNull();
    } finally {
      await stopFfmpeg(writer);
    }
  });
});

async function waitForFile(file: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await access(file).then(() => true, () => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${file} did not appear within ${timeoutMs} ms`);
}
