import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from '../client.ts';
import { authKeys } from './keys.ts';

function useSignedIn() {
  const queryClient = useQueryClient();
  return (session: Schemas['Session']) => {
    // A new user may have signed in: nothing cached for the previous one may show.
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'auth' });
    queryClient.setQueryData(authKeys.session, session);
  };
}

export function useLogin() {
  const signedIn = useSignedIn();
  return useMutation({
    mutationFn: (body: Schemas['LoginRequest']) => unwrap(api.POST('/api/auth/login', { body })),
    onSuccess: signedIn,
  });
}

export function useTokenLogin() {
  const signedIn = useSignedIn();
  return useMutation({
    mutationFn: (body: Schemas['TokenLoginRequest']) => unwrap(api.POST('/api/auth/token-login', { body })),
    onSuccess: signedIn,
  });
}

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST('/api/auth/logout')),
    onSettled: () => {
      queryClient.clear();
      queryClient.setQueryData(authKeys.session, null);
    },
  });
}
