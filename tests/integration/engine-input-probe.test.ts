import dgram from 'node:dgram';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { PROBE_ENV, probeCommand, probeInput, reapLeftoverProbes } from '../../engine/probe/input-probe.ts';
import { freeLoopbackUdpPort } from '../../engine/srt/srt-bridge.ts';
import { isAlive } from '../support/processes.ts';

/**
 * The probe of a failover job's primary (engine/probe/input-probe.ts) with the real ffprobe: it
 * answers within its limit whatever the source does, and it never outlives its limit, even when
 * the node process that started it is killed outright.
 */
const script = fileURLToPath(new URL('../fixtures/input-probe/run-probe.ts', import.meta.url));
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** Live processes marked as probes of `jobId`. */
function probesOf(jobId: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(`${PROBE_ENV}=${jobId}`) && isAlive(Number(entry))) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Sends a few datagrams of junk a second: reads never time out, and probing never finds a stream. */
async function trickle(port: number): Promise<void> {
  const socket = dgram.createSocket('udp4');
  const timer = setInterval(() => socket.send(Buffer.alloc(500, 0x55), port, '127.0.0.1'), 100);
  cleanups.push(() => {
    clearInterval(timer);
    socket.close();
  });
}

async function waitUntil(check: () => boolean, timeoutMs: number, what: string): Promise<number> {
  const started = performance.now();
  while (!check()) {
    if (performance.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return performance.now() - started;
}

function startOwner(uri: string, jobId: string, timeoutMs: number): ResultPromise<{ reject: false; buffer: false }> {
  const owner = execa(process.execPath, ['--import', 'tsx', script, JSON.stringify({ type: 'uri', uri }), jobId, String(timeoutMs)], { reject: false, buffer: false, timeout: 60_000 });
  cleanups.push(() => owner.kill('SIGKILL'));
  return owner;
}

describe('the probe of a failover primary', () => {
  it('reads with a timeout of its own on every protocol, under a hard bound', () => {
    const options = { timeoutMs: 5_000, timeoutProgram: '/usr/bin/timeout' };
    expect(probeCommand({ type: 'uri', uri: 'udp://239.1.1.1:5000' }, options).args).toEqual(
      ['-s', 'KILL', '6', 'ffprobe', '-v', 'error', '-analyzeduration', '2000000', '-probesize', '2000000', '-show_entries', 'stream=codec_type', '-of', 'json', 'udp://239.1.1.1:5000?timeout=4000000'],
    );
    expect(probeCommand({ type: 'uri', uri: 'rtp://239.1.1.1:5004?buffer_size=100' }, options).args.at(-1)).toBe('rtp://239.1.1.1:5004?buffer_size=100&timeout=4000000');
    expect(probeCommand({ type: 'uri', uri: 'srt://10.0.0.1:9000' }, options).args.at(-1)).toBe('srt://10.0.0.1:9000?timeout=4000000');
    // A listener waits for its caller: only the bound ends it.
    expect(probeCommand({ type: 'uri', uri: 'srt://:9000?mode=listener' }, options).args.at(-1)).toBe('srt://:9000?mode=listener');
    for (const uri of ['rtmp://a.example.com/live/x', 'http://a.example.com/x.m3u8', 'tcp://10.0.0.1:9000']) {
      expect(probeCommand({ type: 'uri', uri }, options).args, uri).toEqual(expect.arrayContaining(['-rw_timeout', '4000000']));
    }
    expect(probeCommand({ type: 'uri', uri: 'rtsp://cam.example.com/1' }, options).args).toEqual(expect.arrayContaining(['-timeout', '4000000']));
    expect(probeCommand({ type: 'args', source: 'dvb', args: ['-f', 'lavfi', '-i', 'testsrc'] }, options).args.slice(0, 4)).toEqual(['-s', 'KILL', '6', 'ffmpeg']);
  });

  it('of a silent UDP source answers "not healthy" within its limit, and leaves no process', async () => {
    const port = await freeLoopbackUdpPort();
    const started = performance.now();
    expect(await probeInput({ type: 'uri', uri: `udp://127.0.0.1:${port}` }, { jobId: 'probe-silent', timeoutMs: 2_000 })).toBe(false);
    expect(performance.now() - started).toBeLessThan(2_500);
    expect(probesOf('probe-silent')).toEqual([]);
  });

  it('left behind by a node process killed outright, ends by itself at its bound', { timeout: 30_000 }, async () => {
    const port = await freeLoopbackUdpPort();
    await trickle(port);
    const owner = startOwner(`udp://127.0.0.1:${port}`, 'probe-orphan', 3_000);
    await waitUntil(() => probesOf('probe-orphan').length > 0, 10_000, 'the probe');
    owner.kill('SIGKILL');
    await owner;
    const orphaned = probesOf('probe-orphan');
    expect(orphaned.length).toBeGreaterThan(0);
    // Its bound is 3 s + 1 s from its start: coreutils' timeout kills it, nobody else is left to.
    const took = await waitUntil(() => probesOf('probe-orphan').length === 0, 8_000, 'the orphaned probe to end');
    console.log(`orphaned probe ended ${Math.round(took)} ms after its owner was killed`);
  });

  it('left behind by a node process killed outright, is ended at once by the next one', { timeout: 30_000 }, async () => {
    const port = await freeLoopbackUdpPort();
    await trickle(port);
    const owner = startOwner(`udp://127.0.0.1:${port}`, 'probe-reaped', 20_000);
    await waitUntil(() => probesOf('probe-reaped').length > 0, 10_000, 'the probe');
    // A probe of a living owner is never touched.
    expect(await reapLeftoverProbes('probe-reaped')).toEqual([]);
    owner.kill('SIGKILL');
    await owner;
    const orphaned = probesOf('probe-reaped');
    expect(orphaned.length).toBeGreaterThan(0);
    expect((await reapLeftoverProbes('probe-reaped')).sort()).toEqual(orphaned.sort());
    await waitUntil(() => probesOf('probe-reaped').length === 0, 2_000, 'the reaped probe to end');
  });
});
