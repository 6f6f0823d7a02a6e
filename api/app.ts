import { existsSync } from 'node:fs';
import path from 'node:path';
import cookieParser from 'cookie-parser';
import express, { type Express } from 'express';
import { buildOpenApiDocument } from '../openapi/document.ts';
import { operations } from '../openapi/paths/index.ts';
import { NotFoundError } from './errors.ts';
import { authenticate, refuseCrossSiteWrites } from './http/authenticate.ts';
import { docsRouter } from './http/docs.ts';
import { errorHandler } from './http/error-handler.ts';
import { mountOperations } from './http/operations.ts';
import { requestContext } from './http/request-context.ts';
import { authRoutes } from './routes/auth.ts';
import { systemRoutes } from './routes/system.ts';
import { userRoutes } from './routes/users.ts';
import type { Services } from './services/index.ts';

export interface AppOptions {
  /** The built console (console/dist); absent or missing: the API alone. */
  consoleDir?: string;
  log?: (line: string) => void;
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
  app.use(docsRouter());
  const api = express.Router();
  api.use(express.json({ limit: '2mb' }));
  api.use(cookieParser());
  api.use(refuseCrossSiteWrites);
  api.use(authenticate(services.auth));
  mountOperations(api, operations, [...systemRoutes(services, openApiDocument), ...authRoutes(services), ...userRoutes(services)]);
  api.use('/api', (req, _res, next) => next(new NotFoundError(`${req.method} ${req.originalUrl}`)));
  app.use(api);

  const consoleDir = options.consoleDir;
  if (consoleDir && existsSync(path.join(consoleDir, 'index.html'))) {
    app.use(express.static(consoleDir, { index: false, maxAge: '1y', immutable: true, setHeaders: (res, file) => file.endsWith('.html') && res.setHeader('Cache-Control', 'no-cache') }));
    app.get(/^\/(?!api\/).*/, (_req, res) => {
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(path.join(consoleDir, 'index.html'));
    });
  } else {
    app.get('/', (_req, res) => res.type('text').send('Mediaplane API is running. The console is not built: run `npm run build`.'));
  }
  app.use(errorHandler(log));
  return app;
}
