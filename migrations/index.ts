import type { Migration } from 'kysely';
import * as foundation from './20261122T110000-foundation.ts';
import * as jobs from './20261122T120000-jobs.ts';
import * as jobsList from './20261123T100000-jobs-list.ts';
import * as jobStatusIo from './20261123T110000-job-status-io.ts';
import * as timers from './20261125T090000-timers.ts';
import * as alarms from './20261126T090000-alarms.ts';
import * as streampoolServers from './20261126T100000-streampool-servers.ts';
import * as systemAlarmStatesPerNode from './20261127T090000-system-alarm-states-per-node.ts';

/** Every migration, in order. A migration that has landed is never edited: add a new one. */
export const migrations: Record<string, Migration> = {
  '20261122T110000-foundation': foundation,
  '20261122T120000-jobs': jobs,
  '20261123T100000-jobs-list': jobsList,
  '20261123T110000-job-status-io': jobStatusIo,
  '20261125T090000-timers': timers,
  '20261126T090000-alarms': alarms,
  '20261126T100000-streampool-servers': streampoolServers,
  '20261127T090000-system-alarm-states-per-node': systemAlarmStatesPerNode,
};
