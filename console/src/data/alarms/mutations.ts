import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from '../client.ts';
import { alarmKeys } from './keys.ts';

function useRefresh() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: alarmKeys.all });
}

export function useUpdateAlarmSettings() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: (body: Schemas['AlarmSettingsUpdate']) => unwrap(api.PUT('/api/alarms/settings', { body })), onSuccess: refresh });
}

export function useUpdateSystemAlarms() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: (body: Schemas['SystemAlarmUpdate']) => unwrap(api.PUT('/api/alarms/system', { body })), onSuccess: refresh });
}

export function useSendTestEmail() {
  return useMutation({ mutationFn: (address: string) => unwrap(api.POST('/api/alarms/test-email', { body: { address } })) });
}

export function useDeleteSentAlarms() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: () => unwrap(api.DELETE('/api/alarms/history')), onSuccess: refresh });
}

export function useUpdateJobAlarmSettings(jobId: number) {
  const refresh = useRefresh();
  return useMutation({ mutationFn: (body: Schemas['JobAlarmSettingsUpdate']) => unwrap(api.PUT('/api/alarms/jobs/{id}', { params: { path: { id: jobId } }, body })), onSuccess: refresh });
}
