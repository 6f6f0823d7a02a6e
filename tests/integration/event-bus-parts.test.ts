import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventBus, NOTIFY_LIMIT, splitUtf8, type LiveEvent } from '../../api/events/event-bus.ts';
import { createTestDatabase } from '../support/db.ts';

/**
 * The event bus on Postgres LISTEN/NOTIFY: pg_notify takes under 8000 bytes, so a longer event
 * (a media check's streams, a node's sample with many GPU processes) goes in parts, sent in one
 * transaction, and every process (this one included) receives it whole, once.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let sender: EventBus;
let other: EventBus;

beforeAll(async () => {
  database = await createTestDatabase();
  sender = new EventBus(database.url, database.db);
  other = new EventBus(database.url, database.db);
  await Promise.all([sender.start(), other.start()]);
});

afterAll(async () => {
  await Promise.all([sender?.stop(), other?.stop()]);
  await database?.drop();
});

/** The events of `topic` a bus receives until `count` arrived. */
function receive(bus: EventBus, topic: string, count: number): Promise<LiveEvent[]> {
  const got: LiveEvent[] = [];
  return new Promise((resolve) => {
    const stop = bus.subscribe((event) => {
      if (event.topic !== topic) return;
      got.push(event);
      if (got.length === count) {
        stop();
        resolve(got);
      }
    });
  });
}

describe('EventBus', () => {
  it('delivers an event far over the notification limit whole and once to every process, in order with the short ones', async () => {
    // Multi-byte characters across the cuts: a part never ends inside one.
    const text = 'ü€𝄞 stream '.repeat(6000);
    const long = { topic: 'test-parts', type: 'long', data: { text } };
    expect(Buffer.byteLength(JSON.stringify(long))).toBeGreaterThan(8 * NOTIFY_LIMIT);
    const [mine, theirs] = [receive(sender, 'test-parts', 3), receive(other, 'test-parts', 3)];
    await sender.publish({ topic: 'test-parts', type: 'short', id: 1 });
    await sender.publish(long);
    await sender.publish({ topic: 'test-parts', type: 'short', id: 2 });
    for (const events of await Promise.all([mine, theirs])) {
      expect(events.map((e) => e.type)).toEqual(['short', 'long', 'short']);
      expect((events[1].data as { text: string }).text).toBe(text);
    }
    // Nothing more arrives (no part read as an event of its own, no duplicate).
    const extra: LiveEvent[] = [];
    const stop = other.subscribe((event) => event.topic === 'test-parts' && extra.push(event));
    await sender.publish({ topic: 'test-parts', type: 'marker' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    stop();
    expect(extra.map((e) => e.type)).toEqual(['marker']);
  });

  it('cuts a payload at byte bounds without splitting a character', () => {
    const slices = splitUtf8('a€b€c', 3);
    expect(slices).toEqual(['a', '€', 'b', '€', 'c']);
    expect(slices.join('')).toBe('a€b€c');
  });
});
