import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const consoleDir = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(consoleDir, '..');
const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };

/**
 * The operator console: built into console/dist, which the API serves at / with an SPA fallback.
 * `vite --config console/vite.config.ts` serves it in development with /api proxied to the API.
 */
export default defineConfig({
  root: consoleDir,
  base: '/',
  publicDir: path.join(consoleDir, 'public'),
  esbuild: { jsx: 'automatic' },
  define: { __FRONTEND_VERSION__: JSON.stringify(pkg.version) },
  build: {
    outDir: path.join(consoleDir, 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    rollupOptions: {
      onwarn(warning, warn) {
        // "use client" of React libraries and a comment position in zod: harmless for a browser bundle.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE' || warning.code === 'INVALID_ANNOTATION') return;
        warn(warning);
      },
      output: {
        // Libraries change less often than the console: their own chunks stay cached across releases.
        manualChunks(id) {
          if (!id.includes('node_modules')) return undefined;
          // The Monitor tab's players are imported on demand: they keep chunks of their own, off the first load.
          if (/node_modules\/(hls\.js|mpegts\.js)\//.test(id)) return undefined;
          if (/node_modules\/(react|react-dom|scheduler)\//.test(id)) return 'react';
          if (id.includes('node_modules/zod/')) return 'zod';
          return 'vendor';
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://localhost:8080', changeOrigin: false } },
    // The console imports the contract from ../openapi.
    fs: { allow: [repoRoot] },
  },
});
