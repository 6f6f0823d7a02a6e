import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from '../client.ts';
import { timerKeys } from './keys.ts';

function useRefreshTimers() {
  const queryClient = useQueryClient();
  return (timer?: Schemas['Timer']) => {
    if (timer) queryClient.setQueryData(timerKeys.detail(timer.id), timer);
    void queryClient.invalidateQueries({ queryKey: timerKeys.all });
  };
}

export function useCreateTimer() {
  const refresh = useRefreshTimers();
  return useMutation({ mutationFn: (body: Schemas['TimerWrite']) => unwrap(api.POST('/api/timers', { body })), onSuccess: refresh });
}

export function useUpdateTimer(id: number) {
  const refresh = useRefreshTimers();
  return useMutation({ mutationFn: (body: Schemas['TimerWrite']) => unwrap(api.PUT('/api/timers/{id}', { params: { path: { id } }, body })), onSuccess: refresh });
}

export function useSetTimerActived() {
  const refresh = useRefreshTimers();
  return useMutation({
    mutationFn: ({ id, actived }: { id: number; actived: boolean }) => unwrap(api.PUT('/api/timers/{id}/actived', { params: { path: { id } }, body: { actived } })),
    onSuccess: refresh,
  });
}

export function useDeleteTimer() {
  const refresh = useRefreshTimers();
  return useMutation({ mutationFn: (id: number) => unwrap(api.DELETE('/api/timers/{id}', { params: { path: { id } } })), onSuccess: () => refresh() });
}
