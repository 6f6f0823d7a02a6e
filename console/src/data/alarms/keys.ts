import type { paths } from '../../../../openapi/client/index.ts';

export type SentAlarmQuery = NonNullable<paths['/api/alarms/history']['get']['parameters']['query']>;
export type AlarmCardQuery = NonNullable<paths['/api/alarms']['get']['parameters']['query']>;

/** Everything under ['alarms']. */
export const alarmKeys = {
  all: ['alarms'] as const,
  cards: (query: AlarmCardQuery) => ['alarms', 'cards', query] as const,
  history: (query: SentAlarmQuery) => ['alarms', 'history', query] as const,
  settings: ['alarms', 'settings'] as const,
  system: ['alarms', 'system'] as const,
};
