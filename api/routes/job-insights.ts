import type { Response } from 'express';
import { jobInsightOperationsByKind } from '../../openapi/paths/job-insights.ts';
import { can } from '../auth/principal.ts';
import { principalOfRequest } from '../http/authenticate.ts';
import { implement, type Implementation } from '../http/operations.ts';
import type { Services } from '../services/index.ts';

/** A comment on a quiet log stream this often keeps proxies from closing it; each one re-checks the caller. */
const KEEPALIVE_MS = 15_000;
/** A client this far behind (bytes not yet sent) is let go rather than buffered without end. */
const MAX_UNSENT_BYTES = 4 * 1024 * 1024;

export function jobInsightRoutes(services: Services): Implementation[] {
  const { logs, history, mediaInfo, monitor } = services.jobInsights;
  return (['relay', 'encoding'] as const).flatMap((kind) => {
    const ops = jobInsightOperationsByKind[kind];
    const csv = (what: 'events' | 'uptimes' | 'downtimes') =>
      async ({ params, query, res }: { params: { id: number }; query: Parameters<typeof history.download>[3]; res: Response }) => {
        const { fileName, csv: body } = await history.download(kind, params.id, what, query);
        res.setHeader('Content-Disposition', `attachment; filename="${fileName}"`);
        res.setHeader('Cache-Control', 'no-store');
        res.status(200).type('text/csv; charset=utf-8').send(body);
      };
    return [
      implement(ops.getLogs, async ({ params, query }) => logs.read(kind, params.id, query)),
      implement(ops.followLogs, async ({ params, query, req, res }) => {
        const follow = await logs.prepareFollow(kind, params.id, query);
        const abort = new AbortController();
        const stop = () => abort.abort();
        openEventStream(res);
        res.on('close', stop);
        const keepalive = setInterval(() => {
          // Signed out, disabled, or no longer allowed to read logs: the stream ends.
          void principalOfRequest(services.auth, req, { touch: false })
            .then((found) => {
              if (!found || !can(found.principal, ...ops.followLogs.permission.anyOf)) stop();
              else if (!abort.signal.aborted) res.write(': keepalive\n\n');
            })
            .catch(() => undefined);
        }, KEEPALIVE_MS);
        const send = (chunk: string) => {
          if (abort.signal.aborted) return;
          if (res.writableLength > MAX_UNSENT_BYTES) return stop();
          res.write(chunk);
        };
        void follow
          .run((entry) => send(`event: log\ndata: ${JSON.stringify(entry)}\n\n`), abort.signal, () => send(': following\n\n'))
          .catch(() => undefined)
          .finally(() => {
            clearInterval(keepalive);
            res.off('close', stop);
            res.end();
          });
      }),
      implement(ops.listBatchResults, async ({ params, query }) => history.batchResults(kind, params.id, query)),
      implement(ops.listEvents, async ({ params, query }) => history.events(kind, params.id, query)),
      implement(ops.listUptimes, async ({ params, query }) => history.uptimes(kind, params.id, query)),
      implement(ops.listDowntimes, async ({ params, query }) => history.downtimes(kind, params.id, query)),
      implement(ops.downloadEvents, csv('events')),
      implement(ops.downloadUptimes, csv('uptimes')),
      implement(ops.downloadDowntimes, csv('downtimes')),
      implement(ops.detectMediaInfo, async ({ body }) => mediaInfo.detect(body)),
      implement(ops.getMediaInfo, async ({ params }) => mediaInfo.forJob(kind, params.id)),
      implement(ops.trace, async ({ params }) => mediaInfo.trace(kind, params.id)),
      implement(ops.getMonitor, async ({ params }) => monitor.monitor(kind, params.id)),
    ];
  });
}

function openEventStream(res: Response): void {
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('Connection', 'keep-alive');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  res.write('retry: 2000\n\n');
}
