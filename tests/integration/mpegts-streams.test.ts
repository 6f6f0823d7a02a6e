import express from 'express';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mpegtsStreamRouter } from '../../api/http/mpegts-streams.ts';
import { TS_PACKET_SIZE, TS_SYNC_BYTE, TsFanout } from '../../engine/mpegts-fanout.ts';

function packets(count: number, marker: number): Buffer {
  const buffer = Buffer.alloc(count * TS_PACKET_SIZE, marker);
  for (let i = 0; i < count; i += 1) buffer[i * TS_PACKET_SIZE] = TS_SYNC_BYTE;
  return buffer;
}

describe('GET /streams/mpegts/{kind}-{id}.ts', () => {
  const source = new PassThrough();
  const fanout = new TsFanout(source);
  let base = '';
  let server: ReturnType<express.Express['listen']>;

  beforeAll(async () => {
    const app = express().use(mpegtsStreamRouter({ fanout: (key) => (key === 'relay-7' ? fanout : undefined) }));
    server = await new Promise((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    fanout.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('streams the running job\'s transport stream in whole packets to a client that joins', async () => {
    const controller = new AbortController();
    const response = await fetch(`${base}/streams/mpegts/relay-7.ts`, { signal: controller.signal });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('video/mp2t');
    const reader = response.body!.getReader();
    const feed = setInterval(() => source.write(packets(10, 0x11)), 20);
    let received = Buffer.alloc(0);
    try {
      while (received.length < 20 * TS_PACKET_SIZE) {
        const { value, done } = await reader.read();
        if (done) break;
        received = Buffer.concat([received, Buffer.from(value)]);
      }
    } finally {
      clearInterval(feed);
      controller.abort();
    }
    expect(received.length).toBeGreaterThanOrEqual(20 * TS_PACKET_SIZE);
    expect(received[0]).toBe(TS_SYNC_BYTE);
    expect(received[TS_PACKET_SIZE]).toBe(TS_SYNC_BYTE);
  });

  it('lets go of a client that hangs up', async () => {
    const controller = new AbortController();
    const response = await fetch(`${base}/streams/mpegts/relay-7.ts`, { signal: controller.signal });
    expect(fanout.subscriberCount).toBe(1);
    controller.abort();
    await response.body?.cancel().catch(() => {});
    const deadline = Date.now() + 5000;
    while (fanout.subscriberCount > 0 && Date.now() < deadline) {
      source.write(packets(2, 0x22));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(fanout.subscriberCount).toBe(0);
  });

  it('answers 404 for a job with no running MPEG-TS output, and never serves another path', async () => {
    expect((await fetch(`${base}/streams/mpegts/encoding-3.ts`)).status).toBe(404);
    expect((await fetch(`${base}/streams/mpegts/..%2Frelay-7.ts`)).status).toBe(404);
  });
});
