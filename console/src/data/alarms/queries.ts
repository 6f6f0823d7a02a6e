import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from '../client.ts';
import { alarmKeys, type AlarmCardQuery, type SentAlarmQuery } from './keys.ts';

export type AlarmCard = Schemas['AlarmCard'];
export type SentAlarm = Schemas['SentAlarm'];
export type AlarmSettings = Schemas['AlarmSettings'];
export type SystemAlarmSetting = Schemas['SystemAlarmSetting'];

export function useAlarmCards(query: AlarmCardQuery) {
  return useQuery({
    queryKey: alarmKeys.cards(query),
    queryFn: ({ signal }) => unwrap(api.GET('/api/alarms', { params: { query }, signal })),
    placeholderData: keepPreviousData,
  });
}

export function useSentAlarms(query: SentAlarmQuery) {
  return useQuery({
    queryKey: alarmKeys.history(query),
    queryFn: ({ signal }) => unwrap(api.GET('/api/alarms/history', { params: { query }, signal })),
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });
}

export function useAlarmSettings() {
  return useQuery({ queryKey: alarmKeys.settings, queryFn: ({ signal }) => unwrap(api.GET('/api/alarms/settings', { signal })) });
}

export function useSystemAlarms() {
  return useQuery({ queryKey: alarmKeys.system, queryFn: ({ signal }) => unwrap(api.GET('/api/alarms/system', { signal })) });
}

export function useJobAlarmSettings(jobId: number) {
  return useQuery({
    queryKey: [...alarmKeys.all, 'job', jobId],
    queryFn: ({ signal }) => unwrap(api.GET('/api/alarms/jobs/{id}', { params: { path: { id: jobId } }, signal })),
  });
}
