import { expect } from 'vitest';
import type { Schemas } from '../../openapi/client/index.ts';
import type { TestApp } from '../support/app.ts';

/** Read `count` status events of a dashboard stream (`GET /api/dashboard/stream`), and the way to close it. */
export async function readDashboardStatuses(app: TestApp, cookie: string, count: number, query = ''): Promise<{ statuses: Schemas['DashboardStatus'][]; close: () => void }> {
  const abort = new AbortController();
  const response = await app.request(`/api/dashboard/stream${query}`, { cookie, signal: abort.signal });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const statuses: Schemas['DashboardStatus'][] = [];
  while (statuses.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block.split('\n').find((l) => l.startsWith('data: '));
      if (block.includes('event: status') && data) statuses.push(JSON.parse(data.slice(6)) as Schemas['DashboardStatus']);
    }
  }
  return { statuses, close: () => abort.abort() };
}
