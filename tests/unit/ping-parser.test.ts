import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { lineKind, parsePingLine, pingErrorText, PingSummaryReader } from '../../engine/tools/ping-parser.ts';
import { buildPingArgs } from '../../engine/tools/ping.ts';

/** Output recorded from iputils ping 20221126 (`LC_ALL=C ping -n -O -c N -- host`). */
const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/tool-output');
const lines = (name: string) => readFileSync(path.join(fixtures, name), 'utf8').split('\n').filter(Boolean);

function replay(name: string) {
  const summary = new PingSummaryReader();
  const parsed = lines(name).map((line) => {
    const p = parsePingLine(line);
    summary.add(p);
    return p;
  });
  return { parsed, summary: summary.result() };
}

describe('ping output', () => {
  it('reads each reply of a ping of 127.0.0.1, then the statistics', () => {
    const { parsed, summary } = replay('ping-localhost.txt');
    expect(parsed[0]).toEqual({ kind: 'header', host: '127.0.0.1', address: '127.0.0.1' });
    const replies = parsed.filter((p) => p.kind === 'reply');
    expect(replies).toHaveLength(3);
    expect(replies[0]).toEqual({ kind: 'reply', reply: { bytes: 64, from: '127.0.0.1', seq: 1, ttl: 64, timeMs: 0.035 } });
    expect(replies.map((r) => r.kind === 'reply' && r.reply.seq)).toEqual([1, 2, 3]);
    expect(summary).toEqual({ transmitted: 3, received: 3, errors: 0, lossPercent: 0, timeMs: 2003, rtt: { minMs: 0.035, avgMs: 0.04, maxMs: 0.051, mdevMs: 0.007 } });
  });

  it('reads an IPv6 ping', () => {
    const { parsed, summary } = replay('ping-ipv6.txt');
    expect(parsed[0]).toEqual({ kind: 'header', host: '::1', address: '::1' });
    expect(parsed[1]).toEqual({ kind: 'reply', reply: { bytes: 64, from: '::1', seq: 1, ttl: 64, timeMs: 0.03 } });
    expect(summary?.received).toBe(2);
  });

  it('tells unanswered requests and error answers apart, and counts the errors', () => {
    const { parsed, summary } = replay('ping-no-answer.txt');
    expect(parsed.filter((p) => p.kind === 'no_answer').map((p) => p.kind === 'no_answer' && p.seq)).toEqual([1, 2]);
    const unreachable = parsed.filter((p) => p.kind === 'error_reply');
    expect(unreachable).toHaveLength(3);
    expect(unreachable[0]).toEqual({ kind: 'error_reply', from: '192.0.2.2', seq: 1, message: 'Destination Host Unreachable' });
    expect(lineKind('error_reply')).toBe('error');
    expect(summary).toMatchObject({ transmitted: 3, received: 0, errors: 3, lossPercent: 100, rtt: null });
  });

  it('reads a reply named by host, and a reply with duplicates in the statistics', () => {
    expect(parsePingLine('64 bytes from localhost (127.0.0.1): icmp_seq=7 ttl=64 time=0.021 ms')).toEqual({
      kind: 'reply',
      reply: { bytes: 64, from: 'localhost (127.0.0.1)', seq: 7, ttl: 64, timeMs: 0.021 },
    });
    expect(parsePingLine('5 packets transmitted, 5 received, +1 duplicates, 0% packet loss, time 4006ms')).toMatchObject({ kind: 'transmitted', transmitted: 5, received: 5, errors: 0 });
    expect(parsePingLine('pipe 3')).toEqual({ kind: 'other' });
  });

  it('shows ping\'s own error without the program name', () => {
    expect(pingErrorText('ping: no.such.invalid: Name or service not known')).toBe('no.such.invalid: Name or service not known');
  });
});

describe('ping arguments', () => {
  it('puts the host alone after --, never as an option', () => {
    expect(buildPingArgs('127.0.0.1', 10)).toEqual(['-n', '-O', '-c', '10', '-W', '5', '--', '127.0.0.1']);
  });

  it('refuses a host that reads as an option or holds spaces, and a count out of 1 to 1000', () => {
    expect(() => buildPingArgs('-f', 1)).toThrow(/not a plain argument/);
    expect(() => buildPingArgs('a b', 1)).toThrow(/not a plain argument/);
    expect(() => buildPingArgs('127.0.0.1', 0)).toThrow(/count/);
    expect(() => buildPingArgs('127.0.0.1', 1001)).toThrow(/count/);
  });
});
