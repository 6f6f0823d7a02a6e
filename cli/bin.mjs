#!/usr/bin/env node
// The `mediaplane` command. TypeScript sources run through tsx's loader: no build step to drift.
import { register } from 'tsx/esm/api';

register();
await import('./main.ts');
