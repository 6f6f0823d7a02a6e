import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freshBuild } from '../../cli/fresh-build.mjs';

/** A repository in a temp directory: cli/dist/sources.json built at `builtAt` from two sources. */
describe('freshBuild: the build runs only while no source changed since', () => {
  let root: string;
  let cliDir: URL;
  const builtAt = Date.now() - 60_000;
  const at = (ms: number) => new Date(ms);

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'mediaplane-fresh-build-'));
    mkdirSync(path.join(root, 'cli/dist'), { recursive: true });
    mkdirSync(path.join(root, 'api'));
    for (const file of ['cli/main.ts', 'api/server.ts']) {
      writeFileSync(path.join(root, file), '');
      utimesSync(path.join(root, file), at(builtAt - 5_000), at(builtAt - 5_000));
    }
    writeFileSync(path.join(root, 'cli/dist/sources.json'), JSON.stringify({ builtAt, entry: 'main.js', sources: ['api/server.ts', 'cli/main.ts'] }));
    cliDir = pathToFileURL(path.join(root, 'cli/'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('runs the build when every source is older than it', () => {
    expect(freshBuild(cliDir, {})?.href).toBe(pathToFileURL(path.join(root, 'cli/dist/main.js')).href);
  });

  it('runs the sources when one was edited after the build', () => {
    utimesSync(path.join(root, 'api/server.ts'), at(builtAt + 1_000), at(builtAt + 1_000));
    expect(freshBuild(cliDir, {})).toBeUndefined();
  });

  it('runs the sources when one the build came from is gone', () => {
    rmSync(path.join(root, 'cli/main.ts'));
    expect(freshBuild(cliDir, {})).toBeUndefined();
  });

  it('runs the sources when there is no build, or a build cut short (no manifest)', () => {
    rmSync(path.join(root, 'cli/dist/sources.json'));
    expect(freshBuild(cliDir, {})).toBeUndefined();
  });

  it('runs the sources when MEDIAPLANE_FROM_SOURCES=1 asks for them', () => {
    expect(freshBuild(cliDir, { MEDIAPLANE_FROM_SOURCES: '1' })).toBeUndefined();
  });
});
