import type { LogLevel, SrtStats } from '../types.ts';

/**
 * What srt-live-transmit 1.5 (run with `-pf:json -f`, see srt-live-transmit-args.ts) prints, read:
 *
 * - stdout: one JSON object per statistics report, e.g.
 *   `{"sid":389385385,"timepoint":"...","time":1809,"window":{...},"link":{"rtt":0.206,"bandwidth":12.096,...},
 *   "send":{"packets":98,"packetsLost":0,"packetsDropped":0,"packetsRetransmitted":0,"bytes":99440,"bytesDropped":0,"mbitRate":0.44,...},
 *   "recv":{"packets":0,...,"msTsbPdDelay":120}}` — `time` is milliseconds since the connection's
 *   socket was made, counters are the connection's totals (`-f`).
 * - stderr: its messages (`Media path: ...`, `Accepted SRT target connection`, `SRT source connected`,
 *   `SRT target disconnected`, `N bytes lost, N bytes sent, N bytes received`, `ERROR: ...`) and
 *   SRT's own log lines (`12:20:29.472998/SRT:RcvQ:w1!W:SRT.cn: processConnectRequest: rsp(REJECT): 1010 - Incorrect passphrase`).
 *
 * Pure: no I/O, no clock (the connection's own `time` measures rates), so it is tested on lines
 * recorded from the real program (tests/fixtures/srt-stats).
 */

export type SrtDirection = 'input' | 'output';

/** One statistics report. */
export interface SrtStatsSample {
  /** The SRT socket: a new one for every connection. */
  sid: number;
  /** Milliseconds since the connection's socket was made. */
  elapsedMs: number;
  /** The counters of this end: `send` for an output, `recv` for an input. */
  packets: number;
  bytes: number;
  packetsLost: number;
  packetsRetransmitted: number;
  packetsDropped: number;
  bytesDropped: number;
  bandwidthMbps: number;
  /** SRT's own rate figure (with running totals, an average since the connection began). */
  libraryRateMbps: number;
  negotiatedLatencyMs: number;
  rttMs: number;
}

type Json = Record<string, unknown>;

function num(object: unknown, key: string): number | undefined {
  if (!object || typeof object !== 'object') return undefined;
  const value = (object as Json)[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** One stdout line → a sample; undefined for anything that is not a statistics report. */
export function parseSrtStatsLine(line: string, direction: SrtDirection): SrtStatsSample | undefined {
  const text = line.trim();
  if (!text.startsWith('{')) return undefined;
  let data: Json;
  try {
    data = JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
  const sid = num(data, 'sid');
  const elapsedMs = num(data, 'time');
  const side = direction === 'output' ? data.send : data.recv;
  if (sid === undefined || elapsedMs === undefined || !side || typeof side !== 'object') return undefined;
  const field = (key: string) => num(side, key) ?? 0;
  return {
    sid,
    elapsedMs,
    packets: field('packets'),
    bytes: field('bytes'),
    packetsLost: field('packetsLost'),
    packetsRetransmitted: field('packetsRetransmitted'),
    packetsDropped: field('packetsDropped'),
    bytesDropped: field('bytesDropped'),
    bandwidthMbps: num(data.link, 'bandwidth') ?? 0,
    libraryRateMbps: field('mbitRate'),
    // srt-live-transmit prints the receiving latency only; both ends agree on the larger of what
    // they ask for, so on a sender it is the same figure unless rcvlatency/peerlatency differ.
    negotiatedLatencyMs: num(data.recv, 'msTsbPdDelay') ?? 0,
    rttMs: num(data.link, 'rtt') ?? 0,
  };
}

export interface SrtLogMessage {
  level: LogLevel;
  text: string;
  /** The line says a peer connected (`up`) or left (`down`). */
  connection?: 'up' | 'down';
}

const SRT_LOG_LINE = /^\d{2}:\d{2}:\d{2}\.\d+\/\S+?[!*.]([FEWND]):(SRT\.[\w-]+: .*)$/;
const SRT_LOG_LEVELS: Record<string, LogLevel> = { F: 'FATAL', E: 'ERROR', W: 'WARNING', N: 'NOTICE', D: 'DEBUG' };

/** One stderr line → a log level, its text and whether it tells of a connection. */
export function parseSrtLiveTransmitLine(line: string): SrtLogMessage {
  const text = line.trim();
  if (/^Accepted SRT (source|target) connection$/.test(text) || /^SRT (source|target) connected$/.test(text)) return { level: 'NOTICE', text, connection: 'up' };
  if (/^SRT (source|target) disconnected$/.test(text)) return { level: 'NOTICE', text, connection: 'down' };
  if (text.startsWith('ERROR')) return { level: 'ERROR', text };
  // Data read while no peer is connected falls on the floor; it says so every 5 s.
  if (/^\d+ bytes lost, \d+ bytes sent, \d+ bytes received$/.test(text)) return { level: 'VERBOSE', text };
  const srt = SRT_LOG_LINE.exec(text);
  if (srt) return { level: SRT_LOG_LEVELS[srt[1]] ?? 'WARNING', text: srt[2] };
  return { level: 'INFO', text };
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
/** Rates are measured over at least this much of the connection's own time. */
const RATE_WINDOW_MS = 1_000;

/**
 * The statistics of one link as they stand: fed with the companion's stdout and stderr lines (and
 * told when it exits), it keeps the latest SrtStats, with the number of peers connected and a rate
 * measured over the last second of the connection's own clock.
 */
export class SrtStatsTracker {
  private latest: SrtStats | null = null;
  private connected = 0;
  private sid: number | undefined;
  /** The socket of a connection that has ended: its late reports must not bring it back. */
  private endedSid: number | undefined;
  private anchor: SrtStatsSample | undefined;
  private rateMbps = 0;

  constructor(readonly direction: SrtDirection) {}

  get current(): SrtStats | null {
    return this.latest;
  }

  get connections(): number {
    return this.connected;
  }

  /** A stdout line; returns the new stats when it was a report. */
  stdoutLine(line: string): SrtStats | undefined {
    const sample = parseSrtStatsLine(line, this.direction);
    if (!sample || sample.sid === this.endedSid) return undefined;
    if (sample.sid !== this.sid) {
      // A new connection: its counters and its clock start again.
      this.sid = sample.sid;
      this.anchor = sample;
      this.rateMbps = sample.libraryRateMbps;
    } else if (this.anchor && sample.elapsedMs - this.anchor.elapsedMs >= RATE_WINDOW_MS) {
      this.rateMbps = ((sample.bytes - this.anchor.bytes) * 8) / ((sample.elapsedMs - this.anchor.elapsedMs) * 1000);
      this.anchor = sample;
    }
    // A report means a connection, even if the line that announced it was not seen.
    this.connected = 1;
    const meanPacketBytes = sample.packets > 0 ? sample.bytes / sample.packets : 0;
    this.latest = {
      packets: sample.packets,
      bytes: sample.bytes,
      packetsLost: sample.packetsLost,
      packetsRetransmitted: sample.packetsRetransmitted,
      bytesRetransmitted: Math.round(sample.packetsRetransmitted * meanPacketBytes),
      packetsDropped: sample.packetsDropped,
      bytesDropped: sample.bytesDropped,
      bandwidthMbps: round(sample.bandwidthMbps, 3),
      rateMbps: round(Math.max(0, this.rateMbps), 3),
      negotiatedLatencyMs: sample.negotiatedLatencyMs,
      rttMs: round(sample.rttMs, 3),
      connections: this.connected,
    };
    return this.latest;
  }

  /** A stderr line; `changed` holds the stats when a connection came or went (null: none known yet). */
  stderrLine(line: string): { message: SrtLogMessage; changed?: SrtStats | null } {
    const message = parseSrtLiveTransmitLine(line);
    if (message.connection === 'up' && this.connected === 0) {
      this.connected = 1;
      if (this.latest) this.latest = { ...this.latest, connections: 1 };
      return { message, changed: this.latest };
    }
    if (message.connection === 'down') return { message, changed: this.ended() };
    return { message };
  }

  /** The program ended (or was stopped): nobody is connected through it any more. */
  exited(): SrtStats | null {
    return this.ended();
  }

  private ended(): SrtStats | null {
    this.connected = 0;
    if (this.sid !== undefined) this.endedSid = this.sid;
    this.sid = undefined;
    this.anchor = undefined;
    this.rateMbps = 0;
    // The last figures of the connection stay visible, with nobody connected and nothing flowing.
    if (this.latest) this.latest = { ...this.latest, connections: 0, rateMbps: 0 };
    return this.latest;
  }
}
