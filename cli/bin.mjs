#!/usr/bin/env node
// The `mediaplane` command. It runs the build in cli/dist (`npm run build`, see cli/build.ts) when
// no source file it was built from changed since; otherwise the TypeScript sources through tsx's
// loader, so an edit never runs stale code. MEDIAPLANE_FROM_SOURCES=1 always runs the sources.
import { freshBuild } from './fresh-build.mjs';

const build = freshBuild();
if (build) {
  await import(build.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./main.ts');
}
