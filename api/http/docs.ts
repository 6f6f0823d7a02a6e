import { createRequire } from 'node:module';
import path from 'node:path';
import express, { type Router } from 'express';

const require = createRequire(import.meta.url);

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Mediaplane API reference</title>
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css"></head>
<body><div id="ui"></div>
<script src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script></body></html>`;

const INIT = `window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#ui', deepLinking: true, docExpansion: 'list', defaultModelsExpandDepth: 0 });`;

/** A readable reference of the API at /api/docs (Swagger UI from its npm package; nothing fetched from the network). */
export function docsRouter(): Router {
  const router = express.Router();
  const assets = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  router.get('/', (_req, res) => res.type('html').send(PAGE));
  router.get('/init.js', (_req, res) => res.type('js').send(INIT));
  router.use('/assets', express.static(assets, { maxAge: '1d', index: false }));
  return router;
}
