import { Suspense } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { loginPathFor } from '../data/client.ts';
import { useGranted, useSession } from '../data/auth/queries.ts';
import { LiveUpdatesProvider } from '../data/live.ts';
import { useSystemInfo } from '../data/system/queries.ts';
import { PageTitleProvider } from './breadcrumbs.tsx';
import { Header } from './Header.tsx';
import { mayOpen } from './routes.tsx';
import { Sidebar } from './Sidebar.tsx';

export function FullPageMessage({ children }: { children: React.ReactNode }) {
  return (
    <div className="full-page-message" role="status">
      {children}
    </div>
  );
}

/** /my/* needs a session: without one, to /login and back here after signing in. */
export function RequireSession({ children }: { children: React.ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (session.isPending) return <FullPageMessage>Loading ...</FullPageMessage>;
  if (session.isError) return <FullPageMessage>{session.error.message}</FullPageMessage>;
  if (!session.data) return <Navigate to={loginPathFor(location)} replace />;
  return <>{children}</>;
}

/** A route the user may not open (permissions, or a feature that is off) goes to the dashboard. */
export function Guard({ route, children }: { route: { anyOf?: readonly string[]; feature?: string; group?: string }; children: React.ReactNode }) {
  const granted = useGranted();
  const { data: info, isPending } = useSystemInfo();
  const needsInfo = Boolean(route.feature || route.group);
  if (needsInfo && isPending) return <div className="page-loading">Loading ...</div>;
  if (!mayOpen(route, granted, info?.features ?? {})) return <Navigate to="/my" replace />;
  return <>{children}</>;
}

/** The signed-in layout: dark sidebar, header bar, and the screen; one live connection for all screens. */
export function Shell() {
  return (
    <PageTitleProvider>
      <LiveUpdatesProvider>
        <div className="shell">
          <Sidebar />
          <div className="shell-main">
            <Header />
            <main className="content" id="content">
              <Suspense fallback={<div className="page-loading">Loading ...</div>}>
                <Outlet />
              </Suspense>
            </main>
          </div>
        </div>
      </LiveUpdatesProvider>
    </PageTitleProvider>
  );
}
