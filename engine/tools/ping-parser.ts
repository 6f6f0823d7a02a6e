/**
 * Reads the output of iputils ping (`ping -n -O`, LC_ALL=C) line by line: the replies as they
 * come, the lines of unanswered or refused requests, and the statistics at the end.
 */

export interface PingReply {
  bytes: number | null;
  from: string;
  seq: number;
  ttl: number | null;
  timeMs: number | null;
}

export interface PingSummary {
  transmitted: number;
  received: number;
  errors: number;
  lossPercent: number;
  timeMs: number | null;
  rtt: { minMs: number; avgMs: number; maxMs: number; mdevMs: number } | null;
}

export type PingLine =
  | { kind: 'header'; host: string; address: string }
  | { kind: 'reply'; reply: PingReply }
  | { kind: 'no_answer'; seq: number }
  | { kind: 'error_reply'; from: string; seq: number | null; message: string }
  | { kind: 'statistics_header' }
  | { kind: 'transmitted'; transmitted: number; received: number; errors: number; lossPercent: number; timeMs: number | null }
  | { kind: 'rtt'; minMs: number; avgMs: number; maxMs: number; mdevMs: number }
  | { kind: 'other' };

const number = (value: string | undefined) => (value === undefined ? null : Number(value));

export function parsePingLine(line: string): PingLine {
  let m = /^PING ([^\s(]+) ?\(([^)]+)\)/.exec(line);
  if (m) return { kind: 'header', host: m[1], address: m[2] };
  // "64 bytes from 127.0.0.1: icmp_seq=1 ttl=64 time=0.041 ms", "from host (1.2.3.4): ...", IPv6 "from ::1: ..."
  m = /^(?:(\d+) bytes )?from (.+?): icmp_seq=(\d+)(?: ttl=(\d+))?(?: time=([\d.]+) ms)?/.exec(line);
  if (m) return { kind: 'reply', reply: { bytes: number(m[1]), from: m[2], seq: Number(m[3]), ttl: number(m[4]), timeMs: number(m[5]) } };
  m = /^no answer yet for icmp_seq=(\d+)/.exec(line);
  if (m) return { kind: 'no_answer', seq: Number(m[1]) };
  // "From 10.0.0.1 icmp_seq=1 Destination Host Unreachable"
  m = /^From (\S+)(?: \([^)]*\))?:? (?:icmp_seq=(\d+) )?(.+)$/.exec(line);
  if (m) return { kind: 'error_reply', from: m[1], seq: number(m[2]), message: m[3] };
  if (/^--- .+ ping statistics ---$/.test(line)) return { kind: 'statistics_header' };
  m = /^(\d+) packets transmitted, (\d+) (?:packets )?received(?:, \+(\d+) duplicates)?(?:, \+(\d+) errors)?, ([\d.]+)% packet loss(?:, time (\d+)ms)?/.exec(line);
  if (m) return { kind: 'transmitted', transmitted: Number(m[1]), received: Number(m[2]), errors: Number(m[4] ?? 0), lossPercent: Number(m[5]), timeMs: number(m[6]) };
  m = /^(?:rtt|round-trip) min\/avg\/max\/(?:mdev|stddev) = ([\d.]+)\/([\d.]+)\/([\d.]+)\/([\d.]+) ms/.exec(line);
  if (m) return { kind: 'rtt', minMs: Number(m[1]), avgMs: Number(m[2]), maxMs: Number(m[3]), mdevMs: Number(m[4]) };
  return { kind: 'other' };
}

/** How a line shows: a reply, a request left unanswered, an error answer (unreachable ...), the rest. */
export type PingLineKind = 'reply' | 'no_answer' | 'error' | 'info';

export function lineKind(kind: PingLine['kind']): PingLineKind {
  return kind === 'reply' ? 'reply' : kind === 'no_answer' ? 'no_answer' : kind === 'error_reply' ? 'error' : 'info';
}

/** Collects the statistics lines into a summary. */
export class PingSummaryReader {
  private summary: PingSummary | null = null;

  add(parsed: PingLine): void {
    if (parsed.kind === 'transmitted') {
      this.summary = { transmitted: parsed.transmitted, received: parsed.received, errors: parsed.errors, lossPercent: parsed.lossPercent, timeMs: parsed.timeMs, rtt: null };
    } else if (parsed.kind === 'rtt' && this.summary) {
      this.summary.rtt = { minMs: parsed.minMs, avgMs: parsed.avgMs, maxMs: parsed.maxMs, mdevMs: parsed.mdevMs };
    }
  }

  result(): PingSummary | null {
    return this.summary;
  }
}

/** ping's own error line on stderr, without the program name: "ping: nohost: Name or service not known" -> "nohost: Name or service not known". */
export function pingErrorText(line: string): string {
  return line.replace(/^ping: /, '').trim();
}
