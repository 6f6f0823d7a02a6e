import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { parseUrl } from '../ffmpeg/validate.ts';
import type { SrtLinkStatus } from '../srt/srt-bridges.ts';
import type { InputSpec, JobSpec, OutputSpec } from '../types.ts';
import { ByteRate } from './byte-rate.ts';
import { bytesReadByProcess } from './proc-io.ts';
import { SegmentBytes } from './segment-bytes.ts';
import { TcpBytes, type TcpSocket } from './tcp-counters.ts';
import type { KernelUdpCounters, UdpFlow, UdpFlowWatch } from './udp-counters.ts';

/**
 * The bitrates of a job's inputs and outputs, each measured where its bytes really pass, never
 * guessed from another figure. null means "not measured" (nothing here can see those bytes), not 0.
 *
 * | link                                   | measured by                                                     |
 * |----------------------------------------|-----------------------------------------------------------------|
 * | UDP / RTP input or output              | kernel counters of the flow (udp-counters.ts; root/CAP_NET_ADMIN) |
 * | SRT input or output                    | the srt-live-transmit companion's byte counts (engine/srt)     |
 * | TCP, RTMP(S), HTTP(S) input            | the kernel's byte counts of ffmpeg's TCP connections (tcp-counters.ts) |
 * | TCP or RTMP output                     | the same, of the connection to (or from) the output's address  |
 * | file input (storage, file path)        | bytes ffmpeg has read, /proc/<pid>/io                           |
 * | HTTP MPEG-TS output                    | bytes the fan-out received from ffmpeg                          |
 * | HLS, DASH, CMAF output                 | growth of the segment files                                     |
 * | a job's only output, sent without tee  | ffmpeg's own `total_size` (the first output file's bytes; no kernel counter then) |
 * | RTSP (media may come over UDP), playlist, dvb, dev, multiviewer inputs | not measured (null)      |
 *
 * Rates are over the last few seconds; SRT counts are taken without their UDP/IP and SRT headers
 * (44 bytes a packet), kernel counts without UDP/IP (or TCP) headers, so every figure is the
 * stream's rate (TLS adds its own few percent to HTTPS and RTMPS).
 */
export interface LinkRate {
  /** Output index, or input index (0 primary, 1 failover). */
  index: number;
  /** Bits per second; null: not measured. */
  bps: number | null;
}

export interface JobIoRates {
  /** The rate of the input the job reads now; null when not measured. */
  inputBps: number | null;
  /** Every enabled output together; null unless every one of them is measured. */
  outputBps: number | null;
  /** The primary input (0) and, with failover, the failover input (1). */
  inputs: LinkRate[];
  /** Each enabled output, by its index. */
  outputs: LinkRate[];
}

/** What the runner knows at a sample: the fan-out's count and the SRT companions' latest statistics. */
export interface JobIoContext {
  fanoutBytes?: number;
  srt: SrtLinkStatus[];
}

type Method =
  | { kind: 'none' }
  | { kind: 'udp'; flow: UdpFlow; watch?: UdpFlowWatch }
  | { kind: 'srt' }
  | { kind: 'tcp'; counter: TcpBytes }
  | { kind: 'file' }
  | { kind: 'fanout' }
  | { kind: 'segments'; meter: SegmentBytes };

interface Link {
  direction: 'input' | 'output';
  index: number;
  enabled: boolean;
  method: Method;
  rate: ByteRate;
}

const SRT_PACKET_OVERHEAD = 44;
const POLLED_WINDOW_MS = 4_000;

function isMulticast(address: string): boolean {
  if (isIP(address) === 4) return Number(address.split('.')[0]) >= 224 && Number(address.split('.')[0]) <= 239;
  return isIP(address) === 6 && /^ff/i.test(address);
}

function bare(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** How an input's bytes are measured. */
export function inputMethod(input: InputSpec | undefined): 'udp' | 'srt' | 'tcp' | 'file' | 'none' {
  if (!input) return 'none';
  if (input.type === 'storage') return 'file';
  if (input.type !== 'uri') return 'none';
  if (input.uri.startsWith('/') || /^file:/i.test(input.uri)) return 'file';
  if (/^(udp|rtp):\/\//i.test(input.uri)) return 'udp';
  if (/^srt:\/\//i.test(input.uri)) return 'srt';
  if (/^(tcp|rtmps?|https?):\/\//i.test(input.uri)) return 'tcp';
  return 'none';
}

async function resolve(host: string): Promise<string | undefined> {
  const address = bare(host);
  if (!address) return undefined;
  if (isIP(address) !== 0) return address;
  try {
    return (await lookup(address, { family: 4 })).address;
  } catch {
    return undefined;
  }
}

/** Which of ffmpeg's TCP connections carry a TCP or RTMP output: to its address, or from its clients when it listens. */
export async function outputConnections(output: Extract<OutputSpec, { type: 'tcp' | 'rtmp' }>): Promise<((socket: TcpSocket) => boolean) | undefined> {
  if (output.type === 'tcp') {
    if (output.listen) return (socket) => socket.localPort === output.port;
    const address = await resolve(output.host);
    return address ? (socket) => socket.peerAddress === address && socket.peerPort === output.port : undefined;
  }
  try {
    const url = parseUrl(output.url, ['rtmp', 'rtmps'], 'RTMP URL');
    const address = await resolve(url.host);
    const port = url.port ?? (url.scheme === 'rtmps' ? 443 : 1935);
    return address ? (socket) => socket.peerAddress === address && socket.peerPort === port : undefined;
  } catch {
    return undefined;
  }
}

/** The UDP flow an udp:// or rtp:// input receives: its port, and its group when it joins one. */
export function inputFlow(uri: string): UdpFlow | undefined {
  try {
    const url = parseUrl(uri, ['udp', 'rtp'], 'Input URI', { allowEmptyHost: true });
    if (url.port === undefined) return undefined;
    const host = bare(url.host);
    return { direction: 'in', port: url.port, ...(host && isMulticast(host) ? { address: host } : {}) };
  } catch {
    return undefined;
  }
}

/** The UDP flow an udp output sends: to its host (resolved when it is a name) and port. */
export async function outputFlow(output: Extract<OutputSpec, { type: 'udp' }>): Promise<UdpFlow | undefined> {
  const address = await resolve(output.host ?? '');
  return address ? { direction: 'out', port: output.port, address } : undefined;
}

export class JobIoMeter {
  private links: Link[] = [];
  private pid: number | undefined;
  private activeInput = 0;
  /** The output whose bytes ffmpeg's `total_size` counts in the current process. */
  private progressOutput: number | undefined;
  private configured = 0;
  private spec: JobSpec | undefined;
  private countedByFfmpeg: number | undefined;

  constructor(private readonly counters: KernelUdpCounters | null) {}

  /**
   * The links of the spec the job runs (at start and on reload), each with how it is measured.
   * `countedByFfmpeg`: the output whose bytes ffmpeg's own progress will count (FfmpegCommand's
   * progressOutput), which then needs no kernel counter; when a process counts another one, the
   * output left uncounted gets its kernel counter then (processStarted → countAgain).
   */
  async configure(spec: JobSpec, countedByFfmpeg?: number): Promise<void> {
    const seq = ++this.configured;
    this.spec = spec;
    this.countedByFfmpeg = countedByFfmpeg;
    const links: Link[] = [];
    const inputs = [spec.input, ...(spec.failover ? [spec.failover.input] : [])];
    for (const [index, input] of inputs.entries()) {
      const kind = inputMethod(input);
      const flow = kind === 'udp' && input.type === 'uri' ? inputFlow(input.uri) : undefined;
      const method: Method =
        kind === 'udp' ? (flow ? { kind: 'udp', flow } : { kind: 'none' }) : kind === 'tcp' ? { kind: 'tcp', counter: new TcpBytes('received') } : { kind };
      links.push({ direction: 'input', index, enabled: true, method, rate: new ByteRate({ windowMs: POLLED_WINDOW_MS, staleMs: 3_000 }) });
    }
    for (const output of spec.outputs) {
      const enabled = !output.disabled;
      let method: Method = { kind: 'none' };
      let rate = new ByteRate({ windowMs: POLLED_WINDOW_MS, staleMs: 3_000 });
      if (enabled && output.type === 'udp' && output.index === countedByFfmpeg) {
        method = { kind: 'none' };
      } else if (enabled && output.type === 'udp') {
        const flow = await outputFlow(output);
        if (flow) method = { kind: 'udp', flow };
      } else if (enabled && (output.type === 'tcp' || output.type === 'rtmp')) {
        const select = await outputConnections(output);
        if (select) method = { kind: 'tcp', counter: new TcpBytes('sent', select) };
      } else if (enabled && output.type === 'srt') method = { kind: 'srt' };
      else if (enabled && output.type === 'mpegts') method = { kind: 'fanout' };
      else if (enabled && (output.type === 'hls' || output.type === 'dash' || output.type === 'cmaf')) {
        method = { kind: 'segments', meter: new SegmentBytes(output.dir) };
        // Whole segments may appear at once: the window spans several, and a stop shows after two missed.
        const segmentMs = Math.max(500, output.segmentDurationSeconds * 1000);
        rate = new ByteRate({ windowMs: 3 * segmentMs + 2_000, staleMs: 2 * segmentMs + 4_000, minSpanMs: Math.min(segmentMs, 900) });
      }
      links.push({ direction: 'output', index: output.index, enabled, method, rate });
    }
    await Promise.all(
      links.map(async (link) => {
        if (link.method.kind === 'udp' && this.counters) link.method.watch = await this.counters.watch(link.method.flow);
        if (link.method.kind === 'segments') await link.method.meter.read();
      }),
    );
    if (seq !== this.configured) {
      await Promise.all(links.map((link) => (link.method.kind === 'udp' ? link.method.watch?.release() : undefined)));
      return;
    }
    const old = this.links;
    this.links = links;
    await Promise.all(old.map((link) => (link.method.kind === 'udp' ? link.method.watch?.release() : undefined)));
  }

  /** A new process runs (its counters start from 0), reading the given input. */
  processStarted(pid: number, input: 'primary' | 'failover', progressOutput: number | undefined): void {
    const previous = this.progressOutput;
    if (progressOutput !== this.countedByFfmpeg) void this.countAgain(this.countedByFfmpeg);
    this.countedByFfmpeg = progressOutput;
    this.pid = pid;
    this.activeInput = input === 'primary' ? 0 : 1;
    this.progressOutput = progressOutput;
    for (const link of this.links) {
      // Counts of the process (bytes read, its connections, ffmpeg's own count) start again with it.
      const perProcess = link.method.kind === 'file' || (link.method.kind === 'tcp' && link.direction === 'input');
      const countedByFfmpeg = link.direction === 'output' && (link.index === progressOutput || link.index === previous);
      if (perProcess || countedByFfmpeg) link.rate.reset();
    }
  }

  /** An output left to ffmpeg's count that this process does not count: it gets its kernel counter now. */
  private async countAgain(index: number | undefined): Promise<void> {
    const output = this.spec?.outputs.find((o) => o.index === index);
    const link = this.links.find((l) => l.direction === 'output' && l.index === index);
    if (!output || output.type !== 'udp' || !link || link.method.kind !== 'none' || !link.enabled) return;
    const flow = await outputFlow(output);
    const watch = flow && this.counters ? await this.counters.watch(flow) : undefined;
    if (!flow) return;
    if (this.links.includes(link)) link.method = { kind: 'udp', flow, watch };
    else await watch?.release();
  }

  processEnded(): void {
    this.pid = undefined;
  }

  /** A progress block of the current process: `total_size` is the bytes of its first output file. */
  progress(totalSizeBytes: number | undefined): void {
    if (totalSizeBytes === undefined || this.progressOutput === undefined) return;
    this.links.find((l) => l.direction === 'output' && l.index === this.progressOutput)?.rate.add(Date.now(), totalSizeBytes);
  }

  async sample(context: JobIoContext): Promise<JobIoRates> {
    const now = Date.now();
    const running = this.pid !== undefined;
    await Promise.all(this.links.map((link) => this.read(link, context, now)));
    const rateOf = (link: Link): number | null => {
      if (!link.enabled) return null;
      if (link.direction === 'output' && link.index === this.progressOutput && running) return link.rate.bps(now);
      if (link.method.kind === 'none') return null;
      if (link.method.kind === 'udp' && !link.method.watch) return null;
      if (link.method.kind === 'srt' && !context.srt.some((s) => s.direction === link.direction && s.index === link.index)) return null;
      if ((link.method.kind === 'file' || (link.method.kind === 'tcp' && link.direction === 'input')) && link.index !== this.activeInput) return null;
      return link.rate.bps(now);
    };
    const inputs = this.links.filter((l) => l.direction === 'input').map((l) => ({ index: l.index, bps: rateOf(l) }));
    // Enabled outputs only: a disabled one sends nothing.
    const outputs = this.links.filter((l) => l.direction === 'output' && l.enabled).map((l) => ({ index: l.index, bps: rateOf(l) }));
    const outputBps = outputs.length && outputs.every((o) => o.bps !== null) ? outputs.reduce((sum, o) => sum + (o.bps ?? 0), 0) : null;
    return { inputBps: inputs.find((i) => i.index === this.activeInput)?.bps ?? null, outputBps, inputs, outputs };
  }

  /** Stops counting (the kernel counters are released). */
  async dispose(): Promise<void> {
    this.configured++;
    const links = this.links;
    this.links = [];
    await Promise.all(links.map((link) => (link.method.kind === 'udp' ? link.method.watch?.release() : undefined)));
  }

  private async read(link: Link, context: JobIoContext, now: number): Promise<void> {
    if (!link.enabled) return;
    if (link.direction === 'output' && link.index === this.progressOutput) return; // fed by progress()
    const method = link.method;
    switch (method.kind) {
      case 'udp': {
        const count = await method.watch?.read().catch(() => undefined);
        if (count) link.rate.add(count.at, count.bytes);
        return;
      }
      case 'srt': {
        const status = context.srt.find((s) => s.direction === link.direction && s.index === link.index);
        if (status?.stats && status.at !== null) link.rate.add(status.at, Math.max(0, status.stats.bytes - status.stats.packets * SRT_PACKET_OVERHEAD));
        return;
      }
      case 'tcp': {
        if ((link.direction === 'input' && link.index !== this.activeInput) || this.pid === undefined) return;
        const count = await method.counter.read(this.pid);
        if (count) link.rate.add(count.at, count.bytes);
        return;
      }
      case 'file': {
        if (link.index !== this.activeInput || this.pid === undefined) return;
        const bytes = await bytesReadByProcess(this.pid);
        if (bytes !== undefined) link.rate.add(now, bytes);
        return;
      }
      case 'fanout':
        if (context.fanoutBytes !== undefined) link.rate.add(now, context.fanoutBytes);
        return;
      case 'segments': {
        const sample = await method.meter.read();
        if (sample) link.rate.add(sample.at, sample.bytes);
        return;
      }
      case 'none':
        return;
    }
  }
}
