import { QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useNavigate } from 'react-router-dom';
import { DialogProvider } from './components/dialogs.tsx';
import { ToastProvider } from './components/toasts.tsx';
import { authKeys } from './data/auth/keys.ts';
import { connectClient } from './data/client.ts';
import { queryClient } from './data/query-client.ts';
import { LoginPage } from './features/auth/LoginPage.tsx';
import { LogoutPage } from './features/auth/LogoutPage.tsx';
import { UnavailablePage } from './features/auth/UnavailablePage.tsx';
import { AREAS } from './shell/routes.tsx';
import { Guard, RequireSession, Shell } from './shell/Shell.tsx';

/** Lets the API client move to /login or the 502 page from outside React. */
function ClientConnector() {
  const navigate = useNavigate();
  const client = useQueryClient();
  useEffect(
    () =>
      connectClient({
        navigate: (to) => navigate(to, { replace: to === '/502' }),
        onSignedOut: () => client.setQueryData(authKeys.session, null),
      }),
    [navigate, client],
  );
  return null;
}

const relative = (path: string) => path.replace(/^\/my\/?/, '');

function areaRoutes() {
  return AREAS.flatMap((area) => {
    const base = relative(area.path);
    const main =
      base === '' ? (
        <Route key={area.path} index element={<Guard route={area}>{area.element}</Guard>} />
      ) : (
        <Route key={area.path} path={base} element={<Guard route={area}>{area.element}</Guard>} />
      );
    const screens = (area.screens ?? []).map((screen) => (
      <Route
        key={`${area.path}/${screen.path}`}
        path={base ? `${base}/${screen.path}` : screen.path}
        element={
          <Guard route={area}>
            <Guard route={{ anyOf: screen.anyOf }}>{screen.element}</Guard>
          </Guard>
        }
      />
    ));
    return [main, ...screens];
  });
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <ToastProvider>
          <DialogProvider>
            <ClientConnector />
            <Routes>
              <Route path="/login" element={<LoginPage mode="password" />} />
              <Route path="/setplex-login" element={<LoginPage mode="token" />} />
              <Route path="/logout" element={<LogoutPage />} />
              <Route path="/502" element={<UnavailablePage />} />
              <Route
                path="/my"
                element={
                  <RequireSession>
                    <Shell />
                  </RequireSession>
                }
              >
                {areaRoutes()}
                <Route path="*" element={<Navigate to="/my" replace />} />
              </Route>
              <Route path="*" element={<Navigate to="/my" replace />} />
            </Routes>
          </DialogProvider>
        </ToastProvider>
      </BrowserRouter>
    </QueryClientProvider>
  );
}
