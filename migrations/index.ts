import type { Migration } from 'kysely';
import * as foundation from './20261122T110000-foundation.ts';
import * as jobs from './20261122T120000-jobs.ts';

/** Every migration, in order. A migration that has landed is never edited: add a new one. */
export const migrations: Record<string, Migration> = {
  '20261122T110000-foundation': foundation,
  '20261122T120000-jobs': jobs,
};
