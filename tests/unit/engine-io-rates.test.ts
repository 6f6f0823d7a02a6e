import { mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ByteRate } from '../../engine/stats/byte-rate.ts';
import { inputFlow, inputMethod, JobIoMeter } from '../../engine/stats/job-io.ts';
import { SegmentBytes } from '../../engine/stats/segment-bytes.ts';
import { parseSs } from '../../engine/stats/tcp-counters.ts';
import { flowCommands, flowName, type KernelUdpCounters, type UdpFlow } from '../../engine/stats/udp-counters.ts';
import type { JobSpec } from '../../engine/types.ts';

describe('ByteRate', () => {
  it('is unknown until two counts a second apart, then the rate over its window', () => {
    const rate = new ByteRate({ windowMs: 4_000 });
    expect(rate.bps(0)).toBeNull();
    rate.add(0, 0);
    rate.add(500, 187_500);
    expect(rate.bps(500)).toBeNull();
    rate.add(1_000, 375_000);
    expect(rate.bps(1_000)).toBe(3_000_000);
    // Older counts leave the window: the rate follows what the counter does now.
    for (let t = 2_000; t <= 10_000; t += 1_000) rate.add(t, 375_000 + ((t - 1_000) / 1_000) * 125_000);
    expect(rate.bps(10_000)).toBe(1_000_000);
  });

  it('starts again when the counter does (a new process, a new SRT connection)', () => {
    const rate = new ByteRate({ windowMs: 4_000 });
    rate.add(0, 1_000_000);
    rate.add(1_000, 1_375_000);
    rate.add(2_000, 10_000);
    expect(rate.bps(2_000)).toBeNull();
    rate.add(3_000, 385_000);
    expect(rate.bps(3_000)).toBe(3_000_000);
  });

  it('reads 0 once a source that counts only when bytes move has said nothing for its stale time', () => {
    const rate = new ByteRate({ windowMs: 10_000, staleMs: 3_000 });
    rate.add(0, 0);
    rate.add(2_000, 750_000);
    expect(rate.bps(4_000)).toBe(3_000_000);
    expect(rate.bps(5_001)).toBe(0);
  });
});

describe('what measures an input', () => {
  it('UDP and RTP by their flow, SRT by its companion, TCP-borne ones by their connections, files by the bytes ffmpeg reads, the rest not at all', () => {
    expect(inputMethod({ type: 'uri', uri: 'udp://@239.1.1.1:5000' })).toBe('udp');
    expect(inputMethod({ type: 'uri', uri: 'rtp://239.1.1.1:5004' })).toBe('udp');
    expect(inputMethod({ type: 'uri', uri: 'srt://10.0.0.1:9000' })).toBe('srt');
    expect(inputMethod({ type: 'uri', uri: '/media/a.ts' })).toBe('file');
    expect(inputMethod({ type: 'uri', uri: 'file:///media/a.ts' })).toBe('file');
    expect(inputMethod({ type: 'storage', path: '/storage/a.ts' })).toBe('file');
    for (const uri of ['rtmp://a.example.com/live/x', 'rtmps://a.example.com/live/x', 'http://a.example.com/x.m3u8', 'https://a.example.com/x.m3u8', 'tcp://10.0.0.1:9000']) {
      expect(inputMethod({ type: 'uri', uri }), uri).toBe('tcp');
    }
    // RTSP may bring its media over UDP beside the TCP connection: not measured.
    expect(inputMethod({ type: 'uri', uri: 'rtsp://cam/1' })).toBe('none');
    expect(inputMethod({ type: 'args', source: 'dvb', args: [] })).toBe('none');
  });

  it('a UDP input is counted by its port, and by its group when it joins one', () => {
    expect(inputFlow('udp://@239.1.1.1:5000?fifo_size=1000')).toEqual({ direction: 'in', port: 5000, address: '239.1.1.1' });
    expect(inputFlow('udp://:5000')).toEqual({ direction: 'in', port: 5000 });
    expect(inputFlow('udp://127.0.0.1:5000')).toEqual({ direction: 'in', port: 5000 });
    expect(inputFlow('rtp://[ff05::1]:5004')).toEqual({ direction: 'in', port: 5004, address: 'ff05::1' });
    expect(inputFlow('udp://239.1.1.1')).toBeUndefined();
  });

  it('each flow has its own counter, found through a map element', () => {
    expect(flowName({ direction: 'in', port: 5000, address: '239.1.1.1' })).toBe('in_ef010101_5000');
    expect(flowCommands('t', { direction: 'in', port: 5000, address: '239.1.1.1' })).toBe('add counter inet t in_ef010101_5000\nadd element inet t in_v4 { 239.1.1.1 . 5000 : "in_ef010101_5000" }\n');
    expect(flowCommands('t', { direction: 'in', port: 5000 })).toBe('add counter inet t in_any_5000\nadd element inet t in_port { 5000 : "in_any_5000" }\n');
    expect(flowCommands('t', { direction: 'out', port: 6000, address: 'ff05::1' })).toBe('add counter inet t out_ff051_6000\nadd element inet t out_v6 { ff05::1 . 6000 : "out_ff051_6000" }\n');
  });
});

describe('parseSs', () => {
  it("reads each established connection's ends, inode and byte counts from ss -tinHe", () => {
    const output = [
      '0      0      127.0.0.1:47123 127.0.0.1:51806 ino:1138050 sk:1005 cgroup:/ <->',
      '\t ts sack bbr wscale:10,10 rto:204 mss:65483 cwnd:18 bytes_sent:921576 bytes_acked:921576 segs_out:55 segs_in:57',
      '0      0      [::ffff:10.0.0.5]:51806 [2001:db8::1]:1935 ino:1138049 sk:1006 cgroup:/ <->',
      '\t ts sack cubic wscale:10,10 bytes_acked:1 bytes_received:921576 segs_out:57',
      '',
    ].join('\n');
    expect([...parseSs(output).values()]).toEqual([
      { inode: 1138050, localAddress: '127.0.0.1', localPort: 47123, peerAddress: '127.0.0.1', peerPort: 51806, bytesReceived: 0, bytesAcked: 921576 },
      { inode: 1138049, localAddress: '10.0.0.5', localPort: 51806, peerAddress: '2001:db8::1', peerPort: 1935, bytesReceived: 921576, bytesAcked: 1 },
    ]);
  });
});

describe('SegmentBytes', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('counts what segments add, once across a rename, nothing back for a deleted one, never the playlist', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mediaplane-segments-'));
    dirs.push(dir);
    writeFileSync(path.join(dir, 'old.ts'), Buffer.alloc(5_000));
    const meter = new SegmentBytes(dir);
    // The first read takes stock: what was there before is not the job's output.
    expect(await meter.read()).toBeUndefined();
    writeFileSync(path.join(dir, 'segment_1.ts.tmp'), Buffer.alloc(1_000));
    writeFileSync(path.join(dir, 'index.m3u8'), 'x'.repeat(300));
    expect((await meter.read())?.bytes).toBe(1_000);
    writeFileSync(path.join(dir, 'segment_1.ts.tmp'), Buffer.alloc(3_000));
    renameSync(path.join(dir, 'segment_1.ts.tmp'), path.join(dir, 'segment_1.ts'));
    unlinkSync(path.join(dir, 'old.ts'));
    expect((await meter.read())?.bytes).toBe(3_000);
    writeFileSync(path.join(dir, 'index.m3u8'), 'x'.repeat(400));
    expect(await meter.read()).toBeUndefined();
    writeFileSync(path.join(dir, 'segment_2.ts'), Buffer.alloc(2_000));
    const sample = await meter.read();
    expect(sample?.bytes).toBe(5_000);
    expect(Math.abs(sample!.at - Date.now())).toBeLessThan(5_000);
  });
});

describe('JobIoMeter', () => {
  afterEach(() => vi.useRealTimers());

  /** Kernel counters that count what the test says each flow has carried. */
  function fakeCounters(counts: Map<string, number>): KernelUdpCounters {
    return {
      watch: async (flow: UdpFlow) => ({ read: async () => ({ packets: 0, bytes: counts.get(flowName(flow)) ?? 0, at: Date.now() }), release: async () => undefined }),
    } as unknown as KernelUdpCounters;
  }

  const spec = (outputs: JobSpec['outputs']): JobSpec => ({
    id: 'relay-1',
    name: 'r',
    videoType: 'LIVE',
    input: { type: 'uri', uri: 'udp://@239.1.1.1:5000' },
    failover: { input: { type: 'uri', uri: 'rtsp://cam.example.com/1' }, switchTimeoutSeconds: 5 },
    outputs,
    restartAttempts: 1,
    staleTimeoutSeconds: 10,
    logLevel: 'INFO',
    logMaxSizeInMegaBytes: 1,
  });

  it('gives each link its rate, the active input as the input rate, and a total only when every enabled output is measured', async () => {
    vi.useFakeTimers();
    vi.setSystemTime(0);
    const counts = new Map<string, number>();
    const meter = new JobIoMeter(fakeCounters(counts));
    await meter.configure(
      spec([
        { index: 0, type: 'udp', host: '10.0.0.9', port: 6000 },
        { index: 1, type: 'mpegts' },
        { index: 2, type: 'udp', host: '10.0.0.9', port: 6001, disabled: true },
      ]),
    );
    meter.processStarted(4242, 'primary', undefined);
    let fanoutBytes = 0;
    for (let second = 0; second <= 4; second++) {
      vi.setSystemTime(second * 1000);
      counts.set('in_ef010101_5000', second * 375_000);
      counts.set('out_0a000009_6000', second * 250_000);
      fanoutBytes = second * 125_000;
      await meter.sample({ fanoutBytes, srt: [] });
    }
    const rates = await meter.sample({ fanoutBytes, srt: [] });
    expect(rates).toEqual({
      inputBps: 3_000_000,
      outputBps: 3_000_000,
      inputs: [{ index: 0, bps: 3_000_000 }, { index: 1, bps: null }],
      // The disabled output sends nothing: it is not listed.
      outputs: [{ index: 0, bps: 2_000_000 }, { index: 1, bps: 1_000_000 }],
    });
    // On the failover input (RTSP: its media may come over UDP, nothing here sees it all) the input rate is not measured.
    meter.processStarted(4243, 'failover', undefined);
    expect((await meter.sample({ fanoutBytes, srt: [] })).inputBps).toBeNull();
    await meter.dispose();
  });

  it('without kernel counters a UDP output is not measured, and neither is the total', async () => {
    const meter = new JobIoMeter(null);
    await meter.configure(spec([{ index: 0, type: 'udp', host: '10.0.0.9', port: 6000 }, { index: 1, type: 'mpegts' }]));
    meter.processStarted(4242, 'primary', undefined);
    const rates = await meter.sample({ fanoutBytes: 0, srt: [] });
    expect(rates.inputs[0].bps).toBeNull();
    expect(rates.outputs[0].bps).toBeNull();
    expect(rates.outputBps).toBeNull();
  });

  it("the output ffmpeg counts itself (its only output file) is measured by ffmpeg's total_size", async () => {
    vi.useFakeTimers();
    vi.setSystemTime(0);
    const meter = new JobIoMeter(null);
    await meter.configure(spec([{ index: 0, type: 'udp', host: '10.0.0.9', port: 6000 }]));
    meter.processStarted(4242, 'primary', 0);
    for (let ms = 0; ms <= 3_000; ms += 500) {
      vi.setSystemTime(ms);
      meter.progress(ms * 350);
    }
    expect((await meter.sample({ srt: [] })).outputs).toEqual([{ index: 0, bps: 2_800_000 }]);
  });

  it('asks no kernel counter for the output ffmpeg counts, and asks one when a process counts another output', async () => {
    const watched: UdpFlow[] = [];
    const counters = { watch: async (flow: UdpFlow) => (watched.push(flow), { read: async () => undefined, release: async () => undefined }) } as unknown as KernelUdpCounters;
    const meter = new JobIoMeter(counters);
    await meter.configure(spec([{ index: 0, type: 'udp', host: '10.0.0.9', port: 6000 }, { index: 1, type: 'udp', host: '10.0.0.9', port: 6001 }]), 0);
    // The input's flow (port 5000) and output 1's; output 0 is left to ffmpeg.
    expect(watched.map((f) => f.port).sort()).toEqual([5000, 6001]);
    meter.processStarted(4242, 'primary', undefined);
    await vi.waitFor(() => expect(watched.map((f) => f.port).sort()).toEqual([5000, 6000, 6001]));
  });
});
