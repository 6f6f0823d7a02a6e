import { Router } from 'express';
import type { TsFanout } from '../../engine/mpegts-fanout.ts';

/** Where the running jobs of this process's node hand out their MPEG-TS fan-outs, by job key (`relay-12`). */
export interface LiveStreamSources {
  fanout(key: string): TsFanout | undefined;
}

/** Until the local node runs (and for an API without one) there is nothing to serve. */
export const NO_LIVE_STREAMS: LiveStreamSources = { fanout: () => undefined };

/**
 * HTTP MPEG-TS outputs as an origin serves them: `GET /streams/mpegts/{kind}-{id}.ts` streams the
 * job's transport stream for as long as the client reads, like the segmented outputs under
 * /streams without sign-in. A client that falls too far behind is dropped by the fan-out, never
 * slowing the job or the other clients.
 */
export function mpegtsStreamRouter(sources: LiveStreamSources): Router {
  const router = Router();
  router.get(/^\/streams\/mpegts\/((?:relay|encoding)-\d+)\.ts$/, (req, res) => {
    const key = (req.params as Record<string, string>)[0];
    const fanout = sources.fanout(key);
    if (!fanout) {
      res.status(404).type('text/plain').send(`${key} has no running MPEG-TS output on this node`);
      return;
    }
    res.status(200);
    res.setHeader('Content-Type', 'video/mp2t');
    res.setHeader('Cache-Control', 'no-cache, no-store');
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.flushHeaders();
    const unsubscribe = fanout.subscribe(res);
    req.on('close', unsubscribe);
  });
  return router;
}
