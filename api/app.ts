import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { type Express, type Request, type Response } from 'express';
import { buildOpenApiDocument } from '../openapi/document.ts';
import { operations } from '../openapi/paths/index.ts';
import { authenticate, refuseCrossSiteWrites } from './http/authenticate.ts';
import { docsRouter } from './http/docs.ts';
import { errorHandler } from './http/error-handler.ts';
import { mpegtsStreamRouter, NO_LIVE_STREAMS, type LiveStreamSources } from './http/mpegts-streams.ts';
import { operationsHandler } from './http/operations.ts';
import { requestContext } from './http/request-context.ts';
import { authRoutes } from './routes/auth.ts';
import { jobInsightRoutes } from './routes/job-insights.ts';
import { jobRoutes } from './routes/jobs.ts';
import { presetRoutes } from './routes/presets.ts';
import { streamRoutes } from './routes/streams.ts';
import { systemRoutes } from './routes/system.ts';
import { timerRoutes } from './routes/timers.ts';
import { toolRoutes } from './routes/tools.ts';
import { userRoutes } from './routes/users.ts';
import { watermarkRoutes } from './routes/watermarks.ts';
import { dashboardRoutes } from './routes/dashboard.ts';
import { diagnosticsRoutes } from './routes/diagnostics.ts';
import { statisticsRoutes } from './routes/statistics.ts';
import { alarmRoutes } from './routes/alarms.ts';
import { settingsRoutes } from './routes/settings.ts';
import type { Services } from './services/index.ts';

const STREAM_TYPES: Record<string, string> = {
  '.m3u8': 'application/vnd.apple.mpegurl',
  '.mpd': 'application/dash+xml',
  '.ts': 'video/mp2t',
  '.m4s': 'video/iso.segment',
  '.mp4': 'video/mp4',
  '.vtt': 'text/vtt',
};

function setStreamHeaders(res: express.Response, file: string): void {
  const type = STREAM_TYPES[path.extname(file)];
  if (type) res.setHeader('Content-Type', type);
  // Playlists and manifests change every segment; segments never change once written.
  res.setHeader('Cache-Control', /\.(m3u8|mpd)$/.test(file) ? 'no-cache' : 'public, max-age=60');
  res.setHeader('Access-Control-Allow-Origin', '*');
}

export interface AppOptions {
  /** The built console (console/dist); absent or missing: the API alone. */
  consoleDir?: string;
  log?: (line: string) => void;
  /** The MPEG-TS fan-outs of the jobs running on this process's node (HTTP MPEG-TS outputs). */
  liveStreams?: LiveStreamSources;
}

/** The Express application: the API under /api, its reference at /api/docs, the console at /. */
export function createApp(services: Services, options: AppOptions = {}): Express {
  const log = options.log ?? ((line: string) => console.error(line));
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.set('etag', false);

  let document: unknown;
  const openApiDocument = () => (document ??= buildOpenApiDocument());

  app.use(requestContext);
  // Mounted at its path, so the other requests do not walk through its routes.
  app.use('/api/docs', docsRouter());
  const json = express.json({ limit: '2mb' });
  const readBody = (req: Request, res: Response) => new Promise<void>((resolve, reject) => json(req, res, (error?: unknown) => (error ? reject(error) : resolve())));
  const implementations = [...systemRoutes(services, openApiDocument), ...authRoutes(services), ...userRoutes(services), ...streamRoutes(services), ...jobInsightRoutes(services), ...jobRoutes(services), ...presetRoutes(services), ...watermarkRoutes(services), ...toolRoutes(services), ...timerRoutes(services), ...dashboardRoutes(services), ...diagnosticsRoutes(services), ...statisticsRoutes(services), ...alarmRoutes(services), ...settingsRoutes(services)];
  const api = operationsHandler(operations, implementations, { readBody, refuse: refuseCrossSiteWrites, authenticate: (req, res) => authenticate(services.auth, req, res) });
  app.use(api);
  app.use(mpegtsStreamRouter(options.liveStreams ?? NO_LIVE_STREAMS));
  // Segmented outputs (HLS, DASH, CMAF) as an origin serves them; their keys stay behind /api.
  app.use('/streams', express.static(services.paths.streamsDir, { index: false, dotfiles: 'deny', maxAge: 0, setHeaders: setStreamHeaders }));

  const consoleDir = options.consoleDir;
  if (consoleDir && existsSync(path.join(consoleDir, 'index.html'))) {
    app.use(express.static(consoleDir, { index: false, maxAge: '1y', immutable: true, setHeaders: (res, file) => file.endsWith('.html') && res.setHeader('Cache-Control', 'no-cache') }));
    // A stream file that is not there (yet) is a 404 for the player, not the console's page.
    app.get(/^\/(?!api\/|streams\/).*/, (_req, res) => {
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(path.join(consoleDir, 'index.html'));
    });
  } else {
    app.get('/', (_req, res) => res.type('text').send('Mediaplane API is running. The console is not built: run `npm run build`.'));
  }
  const handleError = errorHandler(log);
  app.use(handleError);

  // An API request (all but /api/docs) goes straight to `api` as the router would send it (request
  // context, then `api`, then the error handler), without the router's walk: a request to the API
  // is the hot path, and the walk was about a quarter of what such a request allocates.
  const express5 = app as unknown as { handle: (req: Request, res: Response, callback?: (error?: unknown) => void) => void };
  const routed = express5.handle.bind(app);
  const direct = (req: Request, res: Response, callback?: (error?: unknown) => void): void => {
    if (!isApiPath(req.url)) return routed(req, res, callback);
    req.res = res;
    res.req = req;
    Object.setPrototypeOf(req, app.request);
    Object.setPrototypeOf(res, app.response);
    res.locals = Object.create(null) as Response['locals'];
    req.originalUrl = req.url;
    req.baseUrl = '';
    requestContext(req, res, () => api(req, res, (error?: unknown) => handleError(error ?? new Error(`${req.url} left the API unanswered`), req, res, () => {})));
  };
  express5.handle = direct;
  return app;
}

/** /api and below, but not the reference at /api/docs (a router of its own). */
function isApiPath(url: string): boolean {
  if (!url.startsWith('/api')) return false;
  const next = url.charCodeAt(4);
  if (Number.isNaN(next) || next === 63 /* ? */) return true;
  return next === 47 /* / */ && !(url.startsWith('/api/docs') && (url.length === 9 || url[9] === '/' || url[9] === '?'));
}
