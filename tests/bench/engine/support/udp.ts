import dgram from 'node:dgram';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/**
 * UDP on loopback: ports for a run, receivers that time the first datagram (and tell one sending
 * process from the next by its source port), and a probe that reads the PCR of a relay's output.
 */

async function udpPortFree(port: number): Promise<boolean> {
  const socket = dgram.createSocket('udp4');
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      // ffmpeg binds its UDP inputs on every address: the port must be free on all of them.
      socket.bind({ port, address: '0.0.0.0', exclusive: true }, () => resolve());
    });
    return true;
  } catch {
    return false;
  } finally {
    await new Promise<void>((resolve) => {
      try {
        socket.close(() => resolve());
      } catch {
        resolve();
      }
    });
  }
}

/**
 * The ports the kernel does not hand out as ephemeral ones: every sending socket (each ffmpeg's UDP
 * output) binds an ephemeral port, which must never be a port this run has chosen to receive on.
 */
function nonEphemeralRange(): [number, number] {
  let low = 32_768;
  let high = 60_999;
  try {
    [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
  } catch {
    // Linux's default range
  }
  return low - 1 >= 12_000 ? [10_000, low - 1] : [high + 1, 65_535];
}

/** Consecutive free ports from a random base below the ephemeral range, so that two runs (or other users of the machine) rarely meet. */
export class PortPool {
  private readonly range = nonEphemeralRange();
  private next = this.range[0] + Math.floor(Math.random() * (this.range[1] - this.range[0]) * 0.5);

  async take(): Promise<number> {
    for (let tries = 0; tries < 2000; tries++) {
      const port = this.next++;
      if (this.next > this.range[1]) this.next = this.range[0];
      if (await udpPortFree(port)) return port;
    }
    throw new Error('no free UDP port found');
  }

  async takeMany(count: number): Promise<number[]> {
    const ports: number[] = [];
    for (let i = 0; i < count; i++) ports.push(await this.take());
    return ports;
  }
}

export interface Arrival {
  /** performance.now() when the datagram was handed to us. */
  at: number;
  sourcePort: number;
  /** It carries the start of a keyframe: a TS packet with the random access indicator set. */
  keyframe: boolean;
}

/**
 * Whether MPEG-TS packets carry the start of a video keyframe: a packet that starts a video PES
 * (stream id 0xE0–0xEF) with the random access indicator set (ffmpeg's muxer sets it on every
 * audio packet too, hence the stream id).
 */
export function hasRandomAccess(datagram: Buffer): boolean {
  for (let i = 0; i + 188 <= datagram.length; i += 188) {
    if (datagram[i] !== 0x47) return false;
    const payloadStart = datagram[i + 1] & 0x40;
    const adaptation = (datagram[i + 3] >> 4) & 0x3;
    if (!payloadStart || !(adaptation & 0x2)) continue;
    const length = datagram[i + 4];
    if (length === 0 || !(datagram[i + 5] & 0x40)) continue;
    const p = i + 5 + length;
    if (p + 4 <= i + 188 && datagram[p] === 0 && datagram[p + 1] === 0 && datagram[p + 2] === 1 && (datagram[p + 3] & 0xf0) === 0xe0) return true;
  }
  return false;
}

/**
 * A receiver bound on an output port for as long as it is open. It notes the first datagram of
 * every new sending socket: ffmpeg's UDP output binds a fresh ephemeral port in each process, so a
 * new source port is a new process.
 */
export class OutputWatch {
  private socket: dgram.Socket;
  private waiters: Array<{ test: (a: Arrival) => boolean; resolve: (a: Arrival) => void }> = [];
  /** The first datagram of each sending socket, in order. */
  readonly senders: Arrival[] = [];
  datagrams = 0;
  last: Arrival | undefined;

  private constructor(readonly port: number) {
    this.socket = dgram.createSocket('udp4');
    this.socket.on('message', (msg, rinfo) => {
      const arrival = { at: performance.now(), sourcePort: rinfo.port, keyframe: hasRandomAccess(msg) };
      this.datagrams++;
      if (!this.last || this.last.sourcePort !== rinfo.port) this.senders.push(arrival);
      this.last = arrival;
      if (this.waiters.length === 0) return;
      const still = [];
      for (const waiter of this.waiters) {
        if (waiter.test(arrival)) waiter.resolve(arrival);
        else still.push(waiter);
      }
      this.waiters = still;
    });
  }

  static async open(port: number): Promise<OutputWatch> {
    const watch = new OutputWatch(port);
    await new Promise<void>((resolve, reject) => {
      watch.socket.once('error', reject);
      watch.socket.bind(port, '127.0.0.1', () => resolve());
    });
    return watch;
  }

  /** The first datagram (or the first with a keyframe) that arrives after `since` (performance.now()), optionally from another socket than `notFrom`. */
  next(options: { since: number; notFrom?: number; keyframe?: boolean; timeoutMs: number; what: string }): Promise<Arrival> {
    const test = (a: Arrival) => a.at >= options.since && (options.notFrom === undefined || a.sourcePort !== options.notFrom) && (!options.keyframe || a.keyframe);
    if (this.last && test(this.last)) return Promise.resolve(this.last);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.resolve !== done);
        reject(new Error(`no datagram on port ${this.port} within ${options.timeoutMs / 1000} s: ${options.what}`));
      }, options.timeoutMs);
      const done = (a: Arrival) => {
        clearTimeout(timer);
        resolve(a);
      };
      this.waiters.push({ test, resolve: done });
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      try {
        this.socket.close(() => resolve());
      } catch {
        resolve();
      }
    });
  }
}

/** The PCR (in seconds) of the first TS packet of a datagram that carries one. */
export function pcrOf(datagram: Buffer): number | undefined {
  for (let o = 0; o + 188 <= datagram.length; o += 188) {
    if (datagram[o] !== 0x47) continue;
    const adaptation = (datagram[o + 3] >> 4) & 3;
    if (adaptation < 2 || datagram[o + 4] < 7 || !(datagram[o + 5] & 0x10)) continue;
    const b = o + 6;
    const base = datagram[b] * 2 ** 25 + datagram[b + 1] * 2 ** 17 + datagram[b + 2] * 2 ** 9 + datagram[b + 3] * 2 + (datagram[b + 4] >> 7);
    return base / 90_000;
  }
  return undefined;
}

/**
 * Where a relay's output stands: binds its output port for a moment and takes the first datagram
 * that carries a PCR. Two readings some seconds apart tell whether the output keeps real time:
 * the PCR must advance as fast as the wall clock. Undefined when nothing with a PCR comes in time.
 */
export async function readOutputClock(port: number, timeoutMs = 3_000): Promise<{ at: number; pcr: number } | undefined> {
  const socket = dgram.createSocket('udp4');
  try {
    return await new Promise((resolve, reject) => {
      const timer = setTimeout(() => resolve(undefined), timeoutMs);
      socket.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      socket.on('message', (msg) => {
        const at = performance.now();
        const pcr = pcrOf(msg);
        if (pcr === undefined) return;
        clearTimeout(timer);
        resolve({ at, pcr });
      });
      socket.bind(port, '127.0.0.1');
    });
  } finally {
    await new Promise<void>((resolve) => {
      try {
        socket.close(() => resolve());
      } catch {
        resolve();
      }
    });
  }
}
