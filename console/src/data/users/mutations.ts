import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from '../client.ts';
import { authKeys } from '../auth/keys.ts';
import { userKeys } from './keys.ts';

/** After any change to users: refresh the lists, and the session (the signed-in user may be the one changed). */
function useRefreshUsers() {
  const queryClient = useQueryClient();
  return (user?: Schemas['User']) => {
    if (user) queryClient.setQueryData(userKeys.detail(user.id), user);
    void queryClient.invalidateQueries({ queryKey: userKeys.all });
    void queryClient.invalidateQueries({ queryKey: authKeys.session });
  };
}

export function useCreateUser() {
  const refresh = useRefreshUsers();
  return useMutation({
    mutationFn: (body: Schemas['UserCreate']) => unwrap(api.POST('/api/users', { body })),
    onSuccess: refresh,
  });
}

export function useUpdateUser(id: number) {
  const refresh = useRefreshUsers();
  return useMutation({
    mutationFn: (body: Schemas['UserUpdate']) => unwrap(api.PUT('/api/users/{id}', { params: { path: { id } }, body })),
    onSuccess: refresh,
  });
}

export function useSetUserEnabled() {
  const refresh = useRefreshUsers();
  return useMutation({
    mutationFn: ({ id, enabled }: { id: number; enabled: boolean }) => unwrap(api.PUT('/api/users/{id}/enabled', { params: { path: { id } }, body: { enabled } })),
    onSuccess: refresh,
  });
}

export function useDeleteUser() {
  const refresh = useRefreshUsers();
  return useMutation({
    mutationFn: (id: number) => unwrap(api.DELETE('/api/users/{id}', { params: { path: { id } } })),
    onSuccess: () => refresh(),
  });
}
