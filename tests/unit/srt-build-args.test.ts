import { describe, expect, it } from 'vitest';
import { buildFfmpegArgs, type SrtBridgeKey } from '../../engine/ffmpeg/build-args.ts';
import type { InputSpec, OutputSpec } from '../../engine/types.ts';
import { teeSlaves, testEncoding, testJob, valueOf, valuesOf } from './ffmpeg-argv.ts';

const srtOut: OutputSpec = { index: 1, type: 'srt', mode: 'listener', host: '', port: 9000, latencyMs: 120, passphrase: 'correct horse battery', pbkeylen: 16 };
const udpOut: OutputSpec = { index: 0, type: 'udp', host: '239.2.2.2', port: 5000 };
const hlsOut: OutputSpec = { index: 2, type: 'hls', dir: '/srv/hls/e1', segmentDurationSeconds: 2, containerType: 'TS' };
const bridges = (entries: Array<[SrtBridgeKey, number]>) => new Map<SrtBridgeKey, number>(entries);

describe('buildFfmpegArgs with SRT links carried by srt-live-transmit', () => {
  it('without the option, or with an empty map, the command is exactly what it was', () => {
    const job = testJob({ outputs: [udpOut, srtOut, hlsOut], input: { type: 'uri', uri: 'srt://:7000?mode=listener' }, encoding: testEncoding() });
    const before = buildFfmpegArgs(job);
    expect(buildFfmpegArgs(job, { srtBridges: bridges([]) })).toEqual(before);
    expect(teeSlaves(before.args)[1].url).toBe('srt://0.0.0.0:9000');
    expect(valueOf(before.args, '-i')).toBe('srt://:7000?mode=listener');
  });

  it('a bridged SRT output becomes a UDP slave to the companion’s loopback port; the other outputs do not change', () => {
    const job = testJob({ outputs: [udpOut, srtOut, hlsOut], encoding: testEncoding() });
    const native = teeSlaves(buildFfmpegArgs(job).args);
    const slaves = teeSlaves(buildFfmpegArgs(job, { srtBridges: bridges([[1, 40001]]) }).args);
    expect(slaves[1].url).toBe('udp://127.0.0.1:40001?pkt_size=1316');
    expect(slaves[1].options).toMatchObject({ f: 'mpegts', onfail: 'ignore' });
    expect(slaves[1].options.select).toBe(native[1].options.select);
    // A loopback UDP send never blocks: no queue of its own, and no SRT option left for ffmpeg.
    expect(slaves[1].options.use_fifo).toBeUndefined();
    expect(Object.keys(slaves[1].options)).not.toContain('passphrase');
    expect([slaves[0], slaves[2]]).toEqual([native[0], native[2]]);
  });

  it('only SRT outputs named in the map are bridged', () => {
    const second: OutputSpec = { index: 3, type: 'srt', mode: 'caller', host: 'ingest.example.com', port: 9001 };
    const slaves = teeSlaves(buildFfmpegArgs(testJob({ outputs: [srtOut, second], encoding: testEncoding() }), { srtBridges: bridges([[3, 40003], [0, 40000]]) }).args);
    expect(slaves.map((s) => s.url)).toEqual(['srt://0.0.0.0:9000', 'udp://127.0.0.1:40003?pkt_size=1316']);
  });

  it('the SRT values of a bridged output are still checked', () => {
    const job = testJob({ outputs: [{ ...srtOut, passphrase: 'short' }] });
    expect(() => buildFfmpegArgs(job, { srtBridges: bridges([[1, 40001]]) })).toThrow(/10 to 79/);
  });

  it('a bridged SRT listener input is read as UDP on loopback with the UDP receive queue, and no read timeout (as with libsrt)', () => {
    const job = testJob({ input: { type: 'uri', uri: 'srt://:7000?mode=listener&latency=200000', program: 3, videoDecoder: 'h264_cuvid' } });
    const args = buildFfmpegArgs(job, { srtBridges: bridges([['input', 40100]]) }).args;
    expect(valuesOf(args, '-i')).toEqual(['udp://127.0.0.1:40100?fifo_size=65536&overrun_nonfatal=1&buffer_size=8388608']);
    expect(valueOf(args, '-c:v')).toBe('h264_cuvid');
    expect(args.join(' ')).toContain('0:p:3:');
  });

  it('a bridged SRT caller input gives up reading after the I/O timeout, like libsrt', () => {
    const args = buildFfmpegArgs(testJob({ input: { type: 'uri', uri: 'srt://192.0.2.7:7000' }, staleTimeoutSeconds: 15 }), { srtBridges: bridges([['input', 40100]]) }).args;
    expect(valueOf(args, '-i')).toBe('udp://127.0.0.1:40100?fifo_size=65536&overrun_nonfatal=1&buffer_size=8388608&timeout=15000000');
  });

  it('with the failover input, the `failover` entry applies (and `input` does not)', () => {
    const failover: InputSpec = { type: 'uri', uri: 'srt://192.0.2.8:7001' };
    const job = testJob({ input: { type: 'uri', uri: 'srt://192.0.2.7:7000' }, failover: { input: failover, switchTimeoutSeconds: 30 } });
    expect(valueOf(buildFfmpegArgs(job, { useFailover: true, srtBridges: bridges([['input', 40100]]) }).args, '-i')).toMatch(/^srt:\/\/192\.0\.2\.8:7001/);
    expect(valueOf(buildFfmpegArgs(job, { useFailover: true, srtBridges: bridges([['failover', 40101]]) }).args, '-i')).toMatch(/^udp:\/\/127\.0\.0\.1:40101\?/);
    expect(valueOf(buildFfmpegArgs(job, { srtBridges: bridges([['failover', 40101]]) }).args, '-i')).toMatch(/^srt:\/\/192\.0\.2\.7:7000/);
  });

  it('refuses to bridge an input that is not SRT, and still checks the SRT URL', () => {
    expect(() => buildFfmpegArgs(testJob(), { srtBridges: bridges([['input', 40100]]) })).toThrow(/Only an srt:\/\/ input/);
    expect(() => buildFfmpegArgs(testJob({ input: { type: 'uri', uri: 'srt://:7000' } }), { srtBridges: bridges([['input', 40100]]) })).toThrow(/caller needs a host/);
  });
});
