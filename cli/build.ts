/**
 * Builds the `mediaplane` command into cli/dist, so that a server (or any command) runs plain
 * JavaScript: no TypeScript loader thread, no transforms at start, a smaller heap.
 *
 * esbuild bundles the project's own TypeScript (cli/, api/, engine/, openapi/, migrations/) from
 * cli/main.ts; packages stay in node_modules, and every module loaded with `import()` gets a chunk
 * of its own, so each command still loads only what it uses. Last, cli/dist/sources.json lists the
 * files the build came from and when it began: cli/bin.mjs runs the build only while none of
 * them changed since, and the sources through tsx otherwise, so an edit never runs stale code.
 *
 * `npm run build` (and so `npm start` and `npm test`) runs it, in well under a second.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BUILD_DIR = path.join(ROOT, 'cli/dist');
const ENTRY = 'main.js';

/** What cli/bin.mjs reads to decide between the build and the sources. */
export interface BuildManifest {
  /** ms since the epoch, taken before the first source was read. */
  builtAt: number;
  /** The module to import, relative to cli/dist. */
  entry: string;
  /** Every source file bundled, relative to the repository root. */
  sources: string[];
}

export async function buildCommand(): Promise<BuildManifest> {
  const builtAt = Date.now();
  // Built beside, then swapped in: a failed build leaves the previous one (or none) whole.
  const staging = `${BUILD_DIR}.staging`;
  rmSync(staging, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: { main: 'cli/main.ts' },
    outdir: staging,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    metafile: true,
    logLevel: 'warning',
  });
  // esbuild read tsconfig.json too (the JSX transform): a change to it is a change to the build.
  const sources = [...Object.keys(result.metafile.inputs), 'tsconfig.json'].sort();
  const manifest: BuildManifest = { builtAt, entry: ENTRY, sources };
  mkdirSync(staging, { recursive: true });
  writeFileSync(path.join(staging, 'sources.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  rmSync(BUILD_DIR, { recursive: true, force: true });
  renameSync(staging, BUILD_DIR);
  return manifest;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = performance.now();
  const manifest = await buildCommand();
  console.log(`built cli/dist from ${manifest.sources.length} source files in ${Math.round(performance.now() - started)} ms`);
}
