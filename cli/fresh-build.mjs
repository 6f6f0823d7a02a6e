// Whether the command's build (cli/dist, written by cli/build.ts) may run: it exists and no file it
// was built from changed since. Plain JavaScript: cli/bin.mjs reads it before any loader is set up.
import { readFileSync, statSync } from 'node:fs';

/**
 * The build's entry module, or undefined when there is none, a source file is newer than the
 * build or is gone, or MEDIAPLANE_FROM_SOURCES=1 asks for the sources.
 * @param {URL} cliDir the cli/ directory (its parent is the repository root)
 * @returns {URL | undefined}
 */
export function freshBuild(cliDir = new URL('./', import.meta.url), env = process.env) {
  if (env.MEDIAPLANE_FROM_SOURCES === '1') return undefined;
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(new URL('dist/sources.json', cliDir), 'utf8'));
  } catch {
    return undefined; // not built (or a build was cut short)
  }
  const root = new URL('../', cliDir);
  for (const source of manifest.sources) {
    const stat = statSync(new URL(source, root), { throwIfNoEntry: false });
    if (!stat || stat.mtimeMs > manifest.builtAt) return undefined;
  }
  return new URL(`dist/${manifest.entry}`, cliDir);
}
