import { streamOperations } from '../../openapi/paths/streams.ts';
import { implement } from '../http/operations.ts';
import type { Services } from '../services/index.ts';

const { getStreamKey } = streamOperations;

export function streamRoutes({ streams }: Services) {
  return [
    implement(getStreamKey, async ({ params, res }) => {
      const key = await streams.readKey(params.name);
      res.setHeader('Cache-Control', 'private, no-store');
      res.type('application/octet-stream').send(key);
    }),
  ];
}
