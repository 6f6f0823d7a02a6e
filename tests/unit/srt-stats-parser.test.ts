import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseSrtLiveTransmitLine, parseSrtStatsLine, SrtStatsTracker, type SrtDirection } from '../../engine/srt/srt-stats-parser.ts';
import type { SrtStats } from '../../engine/types.ts';

/** Lines recorded from the real srt-live-transmit 1.5.1 (tests/fixtures/srt-stats/record.ts). */
const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/srt-stats');
const lines = (name: string) => readFileSync(path.join(fixtures, name), 'utf8').split('\n').filter(Boolean);

function replay(name: string, direction: SrtDirection): { tracker: SrtStatsTracker; reports: SrtStats[] } {
  const tracker = new SrtStatsTracker(direction);
  const reports = lines(`${name}.stdout.txt`)
    .map((line) => tracker.stdoutLine(line))
    .filter((s): s is SrtStats => s !== undefined);
  return { tracker, reports };
}

const nonDecreasing = (values: number[]) => values.every((v, i) => i === 0 || v >= values[i - 1]);

describe('srt-live-transmit statistics lines', () => {
  it('every recorded report is read, a sender’s counters from "send" for an output', () => {
    const raw = lines('output-listener.stdout.txt');
    const samples = raw.map((line) => parseSrtStatsLine(line, 'output'));
    expect(samples.every((s) => s !== undefined)).toBe(true);
    const last = JSON.parse(raw.at(-1)!) as { sid: number; time: number; send: { packets: number; bytes: number }; link: { rtt: number; bandwidth: number } };
    expect(samples.at(-1)).toMatchObject({ sid: last.sid, elapsedMs: last.time, packets: last.send.packets, bytes: last.send.bytes, rttMs: last.link.rtt, bandwidthMbps: last.link.bandwidth });
  });

  it('an output listener: running totals that only grow, one connection, the agreed latency, a rate near the stream’s 0.4 Mbit/s', () => {
    const { reports } = replay('output-listener', 'output');
    expect(reports.length).toBeGreaterThan(5);
    expect(nonDecreasing(reports.map((r) => r.packets))).toBe(true);
    expect(nonDecreasing(reports.map((r) => r.bytes))).toBe(true);
    const last = reports.at(-1)!;
    expect(last).toMatchObject({ connections: 1, negotiatedLatencyMs: 120, packetsLost: 0, packetsRetransmitted: 0, bytesRetransmitted: 0, packetsDropped: 0, bytesDropped: 0 });
    expect(last.packets).toBeGreaterThan(200);
    expect(last.rttMs).toBeGreaterThan(0);
    expect(last.bandwidthMbps).toBeGreaterThan(1);
    expect(last.rateMbps).toBeGreaterThan(0.2);
    expect(last.rateMbps).toBeLessThan(1);
  });

  it('an output caller agrees on the larger latency its listener asked for (400 ms against its 120)', () => {
    expect(replay('output-caller', 'output').reports.at(-1)).toMatchObject({ negotiatedLatencyMs: 400, connections: 1 });
  });

  it('a lossy link: the sender counts lost and retransmitted packets, and the bytes retransmitted are estimated from the mean packet size', () => {
    const last = replay('output-caller-lossy', 'output').reports.at(-1)!;
    expect(last.packetsLost).toBeGreaterThan(0);
    expect(last.packetsRetransmitted).toBeGreaterThan(0);
    expect(last.bytesRetransmitted).toBe(Math.round(last.packetsRetransmitted * (last.bytes / last.packets)));
  });

  it('an input: a receiver’s counters from "recv" (lost and retransmitted on a lossy link)', () => {
    const listener = replay('input-listener', 'input').reports.at(-1)!;
    expect(listener).toMatchObject({ connections: 1, negotiatedLatencyMs: 200, packetsLost: 0 });
    expect(listener.packets).toBeGreaterThan(200);
    expect(listener.rateMbps).toBeGreaterThan(0.2);
    const lossy = replay('input-caller-lossy', 'input').reports.at(-1)!;
    expect(lossy).toMatchObject({ negotiatedLatencyMs: 300 });
    expect(lossy.packetsLost).toBeGreaterThan(0);
    expect(lossy.packetsRetransmitted).toBeGreaterThan(0);
    // The same lines read as an output show the (idle) sending side.
    expect(replay('input-listener', 'output').reports.at(-1)).toMatchObject({ packets: 0, bytes: 0 });
  });

  it('ignores what is not a report', () => {
    for (const line of ['', 'Media path: x', '{not json', '{"bandwidth":12.5}', '{"sid":1,"time":5}']) expect(parseSrtStatsLine(line, 'output')).toBeUndefined();
  });
});

describe('srt-live-transmit messages', () => {
  it('connections coming and going, as recorded', () => {
    const messages = lines('output-listener.stderr.txt').map(parseSrtLiveTransmitLine);
    expect(messages.map((m) => m.connection).filter(Boolean)).toEqual(['up', 'down']);
    expect(lines('input-caller-lossy.stderr.txt').map(parseSrtLiveTransmitLine)).toContainEqual({ level: 'NOTICE', text: 'SRT source connected', connection: 'up' });
    expect(parseSrtLiveTransmitLine('4888 bytes lost, 0 bytes sent, 285760 bytes received').level).toBe('VERBOSE');
  });

  it('SRT’s own lines: a caller with the wrong passphrase and one with none, with their levels and reasons, without the time and thread', () => {
    const messages = lines('input-wrong-passphrase.stderr.txt').map(parseSrtLiveTransmitLine);
    expect(messages).toContainEqual({ level: 'WARNING', text: 'SRT.cn: processConnectRequest: rsp(REJECT): 1010 - Incorrect passphrase' });
    expect(messages).toContainEqual({ level: 'WARNING', text: 'SRT.cn: processConnectRequest: rsp(REJECT): 1011 - Password required or unexpected' });
    expect(messages.filter((m) => m.level === 'ERROR')).toHaveLength(2);
    expect(messages.some((m) => m.connection)).toBe(false);
    expect(parseSrtLiveTransmitLine('ERROR: error: ConfigurePre: Operation not supported: Bad parameters')).toEqual({ level: 'ERROR', text: 'ERROR: error: ConfigurePre: Operation not supported: Bad parameters' });
  });
});

describe('SrtStatsTracker', () => {
  const report = (sid: number, time: number, packets: number, bytes: number) =>
    JSON.stringify({ sid, time, link: { rtt: 1.5, bandwidth: 20 }, send: { packets, bytes, mbitRate: 0.9, packetsRetransmitted: 2 }, recv: { msTsbPdDelay: 120 } });

  it('measures the rate over at least a second of the connection’s own clock', () => {
    const tracker = new SrtStatsTracker('output');
    expect(tracker.stdoutLine(report(7, 1000, 100, 100_000))?.rateMbps).toBe(0.9); // first report: SRT's own figure
    expect(tracker.stdoutLine(report(7, 1500, 150, 150_000))?.rateMbps).toBe(0.9); // half a second: kept
    expect(tracker.stdoutLine(report(7, 2000, 225, 350_000))?.rateMbps).toBe(2); // 250 kB in 1 s
  });

  it('a disconnection leaves the last figures with no connection and no rate; a late report of that connection changes nothing; a new one starts afresh', () => {
    const tracker = new SrtStatsTracker('output');
    tracker.stdoutLine(report(7, 1000, 100, 100_000));
    expect(tracker.stderrLine('SRT target disconnected').changed).toMatchObject({ packets: 100, connections: 0, rateMbps: 0 });
    expect(tracker.stdoutLine(report(7, 1100, 110, 110_000))).toBeUndefined();
    expect(tracker.current).toMatchObject({ packets: 100, connections: 0 });
    expect(tracker.stderrLine('Accepted SRT target connection').changed).toMatchObject({ connections: 1 });
    expect(tracker.stdoutLine(report(9, 300, 10, 10_000))).toMatchObject({ packets: 10, connections: 1, bytesRetransmitted: 2000 });
    expect(tracker.exited()).toMatchObject({ connections: 0, rateMbps: 0 });
  });

  it('has nothing to show before the first report', () => {
    const tracker = new SrtStatsTracker('input');
    expect(tracker.current).toBeNull();
    expect(tracker.stderrLine('Accepted SRT source connection').changed).toBeNull();
    expect(tracker.connections).toBe(1);
    expect(tracker.exited()).toBeNull();
    expect(tracker.connections).toBe(0);
  });
});
