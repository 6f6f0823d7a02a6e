import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from '../client.ts';
import { systemKeys } from '../system/queries.ts';
import { settingsKeys } from './keys.ts';

function useSaved(key: readonly unknown[]) {
  const queryClient = useQueryClient();
  return (data: unknown) => queryClient.setQueryData(key, data);
}

export function useUpdateApplicationSettings() {
  const saved = useSaved(settingsKeys.application);
  return useMutation({ mutationFn: (body: Schemas['ApplicationSettings']) => unwrap(api.PUT('/api/settings/application', { body })), onSuccess: saved });
}

export function useUpdateRedisSettings() {
  const saved = useSaved(settingsKeys.redis);
  return useMutation({ mutationFn: (body: Schemas['RedisSettingsUpdate']) => unwrap(api.PUT('/api/settings/redis', { body })), onSuccess: saved });
}

export function useUpdateLogSettings(target: 'rixui' | 'rixjob') {
  const saved = useSaved(settingsKeys.logs(target));
  return useMutation({ mutationFn: (body: Schemas['LogSettings']) => unwrap(api.PUT('/api/settings/logs/{target}', { params: { path: { target } }, body })), onSuccess: saved });
}

/** Features gate areas of the shell (ads): the shell's SystemInfo is refetched too. */
export function useUpdateFeatureSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Schemas['FeatureSettingsUpdate']) => unwrap(api.PUT('/api/settings/features', { body })),
    onSuccess: (data) => {
      queryClient.setQueryData(settingsKeys.features, data);
      void queryClient.invalidateQueries({ queryKey: systemKeys.info });
    },
  });
}

export function useSaveStreampoolServer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: Schemas['StreampoolServerInput'] }) =>
      id === undefined ? unwrap(api.POST('/api/settings/streampool-servers', { body })) : unwrap(api.PUT('/api/settings/streampool-servers/{id}', { params: { path: { id } }, body })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: settingsKeys.servers }),
  });
}

export function useDeleteStreampoolServer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => unwrap(api.DELETE('/api/settings/streampool-servers/{id}', { params: { path: { id } } })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: settingsKeys.servers }),
  });
}
