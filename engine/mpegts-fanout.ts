import { EventEmitter } from 'node:events';
import type { Readable, Writable } from 'node:stream';

/** MPEG-TS packets: 188 bytes, each starting with the sync byte 0x47. */
export const TS_PACKET_SIZE = 188;
export const TS_SYNC_BYTE = 0x47;

/** How far (in bytes waiting in its buffers) a client may fall behind before it is dropped: about 8 s at 8 Mbit/s. */
export const DEFAULT_MAX_LAG_BYTES = 8 * 1024 * 1024;

export interface TsFanoutOptions {
  /** A subscriber with more than this many bytes not yet flushed is dropped. */
  maxLagBytes?: number;
}

export type DropReason = 'slow' | 'error' | 'closed';

export interface TsFanoutEvents {
  /** A subscriber was removed: too slow, its stream failed, or the fanout closed. */
  drop: [target: Writable, reason: DropReason];
  /** Bytes that were not part of a 188-byte packet in sync were skipped (e.g. across an ffmpeg restart). */
  resync: [skippedBytes: number];
}

interface Subscriber {
  target: Writable;
  cleanup: () => void;
}

/**
 * One MPEG-TS source (ffmpeg's stdout) to many HTTP clients.
 *
 * - Every subscriber receives whole 188-byte packets only, in chunks that start on a packet
 *   boundary, so a client that joins late starts at the start of a packet (a player finds the next
 *   PAT/PMT, repeated by ffmpeg every 100 ms, and starts there).
 * - The source is never paused for a client: each client has its own buffer, and a client whose
 *   buffer grows past `maxLagBytes` (a slow or stalled reader) is dropped (its stream destroyed)
 *   instead of slowing the source and every other client.
 * - The source keeps flowing with no subscriber at all (ffmpeg is never blocked on its stdout).
 * - Bytes out of sync (a partial packet left by a process that ended, a corrupt byte) are skipped
 *   until three sync bytes line up again. A packet goes out once the next one is seen to start in
 *   sync, so the newest packet waits for the next chunk of the source.
 */
export class TsFanout extends EventEmitter<TsFanoutEvents> {
  private readonly maxLagBytes: number;
  private readonly subscribers = new Set<Subscriber>();
  private source: Readable | undefined;
  private readonly onData = (chunk: Buffer) => this.push(chunk);
  /** A partial packet waiting for the rest of its bytes. */
  private carry: Buffer = Buffer.alloc(0);
  private closed = false;
  /** Bytes received from the source, and bytes sent on in whole packets. */
  bytesIn = 0;
  packetsOut = 0;

  constructor(source?: Readable, options: TsFanoutOptions = {}) {
    super();
    this.maxLagBytes = options.maxLagBytes ?? DEFAULT_MAX_LAG_BYTES;
    if (source) this.attach(source);
  }

  /** Read from this source from now on (a new ffmpeg process), leaving any previous one. */
  attach(source: Readable): void {
    this.detach();
    this.source = source;
    source.on('data', this.onData);
    source.resume();
  }

  detach(): void {
    if (!this.source) return;
    this.source.off('data', this.onData);
    this.source = undefined;
  }

  get subscriberCount(): number {
    return this.subscribers.size;
  }

  /**
   * Send the stream to `target` (an HTTP response, any Writable) from the next packet on. The
   * subscription ends when the target closes or fails; the returned function ends it earlier.
   */
  subscribe(target: Writable): () => void {
    if (this.closed) {
      target.end();
      return () => {};
    }
    const subscriber: Subscriber = {
      target,
      cleanup: () => {
        target.off('close', onClose);
        target.off('error', onError);
      },
    };
    const onClose = () => this.remove(subscriber, 'closed', false);
    const onError = () => this.remove(subscriber, 'error', true);
    target.on('close', onClose);
    target.on('error', onError);
    this.subscribers.add(subscriber);
    return () => this.remove(subscriber, 'closed', false);
  }

  /** End every subscriber's stream and stop reading the source. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.detach();
    for (const subscriber of [...this.subscribers]) {
      this.remove(subscriber, 'closed', false);
      subscriber.target.end();
    }
  }

  private remove(subscriber: Subscriber, reason: DropReason, destroy: boolean): void {
    if (!this.subscribers.delete(subscriber)) return;
    subscriber.cleanup();
    if (destroy && !subscriber.target.destroyed) subscriber.target.destroy();
    this.emit('drop', subscriber.target, reason);
  }

  private push(chunk: Buffer): void {
    this.bytesIn += chunk.length;
    const data = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    const { packets, rest } = this.align(data);
    this.carry = rest;
    if (packets.length === 0) return;
    this.packetsOut += packets.length / TS_PACKET_SIZE;
    for (const subscriber of [...this.subscribers]) {
      const target = subscriber.target;
      if (target.destroyed || target.writableEnded) {
        this.remove(subscriber, 'closed', false);
        continue;
      }
      if (target.writableLength + packets.length > this.maxLagBytes) {
        this.remove(subscriber, 'slow', true);
        continue;
      }
      target.write(packets);
    }
  }

  /** Split `data` into whole packets in sync and the partial packet that remains. */
  private align(data: Buffer): { packets: Buffer; rest: Buffer } {
    let start = 0;
    let skipped = 0;
    const out: Buffer[] = [];
    let runStart = -1;
    while (data.length - start >= TS_PACKET_SIZE) {
      if (data[start] === TS_SYNC_BYTE) {
        // A packet is sent once the next one is seen to start in sync (so a cut-short packet is never
        // sent glued to the start of the next); the last one waits for the next chunk.
        if (start + TS_PACKET_SIZE === data.length) break;
        if (data[start + TS_PACKET_SIZE] === TS_SYNC_BYTE) {
          if (runStart < 0) runStart = start;
          start += TS_PACKET_SIZE;
          continue;
        }
      }
      // Lost sync: keep the packets so far, then look for the next place where packets line up.
      if (runStart >= 0) out.push(data.subarray(runStart, start));
      runStart = -1;
      const next = findSync(data, start + 1);
      if (next < 0) {
        // Keep the last bytes: the next chunk may complete a packet that begins in them.
        const keepFrom = Math.max(start + 1, data.length - 2 * TS_PACKET_SIZE);
        skipped += keepFrom - start;
        start = keepFrom;
        break;
      }
      skipped += next - start;
      start = next;
    }
    if (runStart >= 0) out.push(data.subarray(runStart, start));
    if (skipped > 0) this.emit('resync', skipped);
    const packets = out.length === 1 ? out[0] : Buffer.concat(out);
    return { packets, rest: Buffer.from(data.subarray(start)) };
  }
}

/** The first offset from `from` where sync bytes line up 188 bytes apart (three in a row, or as many as the data holds). */
export function findSync(data: Buffer, from: number): number {
  for (let i = from; i < data.length; i++) {
    if (data[i] !== TS_SYNC_BYTE) continue;
    let ok = true;
    for (let k = 1; k <= 2 && i + k * TS_PACKET_SIZE < data.length; k++) {
      if (data[i + k * TS_PACKET_SIZE] !== TS_SYNC_BYTE) {
        ok = false;
        break;
      }
    }
    // A candidate without the following packets in view is only taken if it starts a full packet we can check later.
    if (ok && i + TS_PACKET_SIZE <= data.length) return i;
  }
  return -1;
}
