import { useQuery } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from '../client.ts';
import { settingsKeys } from './keys.ts';

export type ApplicationSettings = Schemas['ApplicationSettings'];
export type RedisSettings = Schemas['RedisSettings'];
export type LogSettings = Schemas['LogSettings'];
export type FeatureSetting = Schemas['FeatureSetting'];
export type StreampoolServer = Schemas['StreampoolServer'];

export function useApplicationSettings() {
  return useQuery({ queryKey: settingsKeys.application, queryFn: () => unwrap(api.GET('/api/settings/application')) });
}

export function useRedisSettings() {
  return useQuery({ queryKey: settingsKeys.redis, queryFn: () => unwrap(api.GET('/api/settings/redis')) });
}

export function useLogSettings(target: 'rixui' | 'rixjob') {
  return useQuery({ queryKey: settingsKeys.logs(target), queryFn: () => unwrap(api.GET('/api/settings/logs/{target}', { params: { path: { target } } })) });
}

export function useFeatureSettings() {
  return useQuery({ queryKey: settingsKeys.features, queryFn: () => unwrap(api.GET('/api/settings/features')) });
}

export function useStreampoolServers() {
  return useQuery({ queryKey: settingsKeys.servers, queryFn: () => unwrap(api.GET('/api/settings/streampool-servers')) });
}
