import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { AuthCard } from './AuthCard.tsx';

/** The 502 page: shown whenever the console cannot reach the API. */
export function UnavailablePage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(() => {
    document.title = 'Service is temporarily unavailable · Mediaplane';
  }, []);
  function reload() {
    // Start afresh: the session probe runs again at /login.
    queryClient.clear();
    navigate('/login', { replace: true });
  }
  return (
    <AuthCard title="Service is temporarily unavailable">
      <div className="unavailable">
        <div className="unavailable-code" aria-hidden="true">
          502
        </div>
        <p>Please try again later or contact support if the problem persists.</p>
        <button type="button" className="button button-block" onClick={reload} autoFocus>
          Reload
        </button>
      </div>
    </AuthCard>
  );
}
