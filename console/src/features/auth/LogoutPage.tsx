import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { useLogout } from '../../data/auth/mutations.ts';
import { FullPageMessage } from '../../shell/Shell.tsx';

/** /logout: ends the session on the server, forgets everything cached, and returns to /login. */
export function LogoutPage() {
  const logout = useLogout();
  const navigate = useNavigate();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    logout
      .mutateAsync()
      .catch(() => undefined)
      .finally(() => navigate('/login', { replace: true }));
  }, [logout, navigate]);
  return <FullPageMessage>Signing out ...</FullPageMessage>;
}
