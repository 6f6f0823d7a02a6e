import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { TS_PACKET_SIZE, TsFanout, findSync } from '../../engine/mpegts-fanout.ts';

/** `count` TS packets; each carries its number in bytes 4..7 so order and completeness can be checked. */
function packets(count: number, first = 0): Buffer {
  const data = Buffer.alloc(count * TS_PACKET_SIZE, 0xff);
  for (let i = 0; i < count; i++) {
    data[i * TS_PACKET_SIZE] = 0x47;
    data.writeUInt32BE(first + i, i * TS_PACKET_SIZE + 4);
  }
  return data;
}

function numbersIn(data: Buffer): number[] {
  const numbers: number[] = [];
  for (let i = 0; i < data.length; i += TS_PACKET_SIZE) {
    expect(data[i]).toBe(0x47);
    numbers.push(data.readUInt32BE(i + 4));
  }
  return numbers;
}

/** A subscriber that keeps everything it is sent. */
function collector(): { stream: PassThrough; received: () => Buffer } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, received: () => Buffer.concat(chunks) };
}

/** A subscriber that never reads: its buffer only grows. */
function stalled(): Writable {
  return new Writable({ highWaterMark: 1024, write: () => {} });
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** The newest packet waits until the next one shows it was whole: one more packet lets it out. */
const NEXT = 9999;
function releaseLast(source: PassThrough): void {
  source.write(packets(1, NEXT));
}

describe('TsFanout', () => {
  it('sends whole, aligned 188-byte packets whatever the chunking of the source', async () => {
    const source = new PassThrough();
    const fanout = new TsFanout(source);
    const client = collector();
    fanout.subscribe(client.stream);
    const data = packets(20);
    // Chunks cut mid-packet, at odd sizes.
    for (const [from, to] of [[0, 100], [100, 377], [377, 1000], [1000, 3000], [3000, data.length]]) source.write(data.subarray(from, to));
    releaseLast(source);
    await tick();
    const received = client.received();
    expect(received.length % TS_PACKET_SIZE).toBe(0);
    expect(numbersIn(received)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('a subscriber joining late starts at a packet boundary', async () => {
    const source = new PassThrough();
    const fanout = new TsFanout(source);
    const early = collector();
    fanout.subscribe(early.stream);
    const data = packets(10);
    source.write(data.subarray(0, 5 * TS_PACKET_SIZE + 50));
    await tick();
    const late = collector();
    fanout.subscribe(late.stream);
    source.write(data.subarray(5 * TS_PACKET_SIZE + 50));
    releaseLast(source);
    await tick();
    expect(numbersIn(early.received())).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(numbersIn(late.received())).toEqual([5, 6, 7, 8, 9]);
  });

  it('drops a client that falls too far behind, and the others get everything', async () => {
    const source = new PassThrough();
    const fanout = new TsFanout(source, { maxLagBytes: 50 * TS_PACKET_SIZE });
    const fast = collector();
    const slow = stalled();
    const drops: string[] = [];
    fanout.on('drop', (target, reason) => drops.push(`${target === slow ? 'slow' : 'fast'}:${reason}`));
    fanout.subscribe(fast.stream);
    fanout.subscribe(slow);
    for (let i = 0; i < 10; i++) source.write(packets(10, i * 10));
    releaseLast(source);
    await tick();
    expect(drops).toEqual(['slow:slow']);
    expect(slow.destroyed).toBe(true);
    expect(fanout.subscriberCount).toBe(1);
    expect(numbersIn(fast.received())).toHaveLength(100);
  });

  it('keeps reading the source with no subscriber and when a subscriber leaves', async () => {
    const source = new PassThrough({ highWaterMark: 188 });
    const fanout = new TsFanout(source);
    for (let i = 0; i < 100; i++) expect(source.write(packets(10))).toBe(true);
    await tick();
    expect(fanout.bytesIn).toBe(100 * 10 * TS_PACKET_SIZE);
    const client = collector();
    const unsubscribe = fanout.subscribe(client.stream);
    source.write(packets(2, 500));
    await tick();
    unsubscribe();
    source.write(packets(2, 600));
    await tick();
    // The packet held back before it joined, and the first of its two.
    expect(numbersIn(client.received())).toEqual([9, 500]);
    client.stream.destroy();
    expect(fanout.subscriberCount).toBe(0);
  });

  it('forgets a client whose stream closes', async () => {
    const source = new PassThrough();
    const fanout = new TsFanout(source);
    const client = collector();
    fanout.subscribe(client.stream);
    client.stream.destroy();
    await tick();
    expect(fanout.subscriberCount).toBe(0);
  });

  it('finds sync again after bytes that are not packets (e.g. a partial packet from a process that ended)', async () => {
    const source = new PassThrough();
    const fanout = new TsFanout(source);
    const client = collector();
    const skipped: number[] = [];
    fanout.on('resync', (bytes) => skipped.push(bytes));
    fanout.subscribe(client.stream);
    source.write(packets(3, 0));
    source.write(packets(1, 99).subarray(0, 100)); // a packet cut short
    source.write(packets(4, 3));
    releaseLast(source);
    await tick();
    expect(numbersIn(client.received())).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(skipped.reduce((a, b) => a + b, 0)).toBe(100);
  });

  it('follows a new source attached after a restart', async () => {
    const fanout = new TsFanout(new PassThrough());
    const client = collector();
    fanout.subscribe(client.stream);
    const next = new PassThrough();
    fanout.attach(next);
    next.write(packets(2, 40));
    releaseLast(next);
    await tick();
    expect(numbersIn(client.received())).toEqual([40, 41]);
  });

  it('close ends every subscriber', async () => {
    const source = new PassThrough();
    const fanout = new TsFanout(source);
    const client = collector();
    let ended = false;
    client.stream.on('end', () => (ended = true));
    fanout.subscribe(client.stream);
    fanout.close();
    await tick();
    expect(ended).toBe(true);
    expect(fanout.subscriberCount).toBe(0);
  });

  it('finds three sync bytes 188 apart', () => {
    const data = Buffer.concat([Buffer.from([0x47, 1, 2, 0x47]), packets(3)]);
    expect(findSync(data, 0)).toBe(4);
  });
});
