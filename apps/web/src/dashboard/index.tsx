import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { useAuth } from '../auth/auth-context';
import { AgentPage } from './agent/agent-page';
import { closeSocket } from './lib/realtime';
import { DashboardShell } from './shell/dashboard-shell';
import { DashboardTabs } from './shell/dashboard-tabs';
import './dashboard.css';

/** Where a signed-out visitor is sent: the landing page's sign-in, coming back to `path` afterwards. */
export function signInRedirect(path: string): string {
  return `/?signin=1&next=${encodeURIComponent(path)}`;
}

/** The signed-in area: /dashboard (tabs) and /dashboard/:modelId (the owner's agent page). */
export default function DashboardRoot() {
  const { t } = useTranslation('dashboard');
  const { user, loading } = useAuth();
  const location = useLocation();
  const uid = user?.uid ?? null;
  // The socket is authenticated by the session at its handshake: a new user (or leaving) needs a new one.
  useEffect(() => () => closeSocket(), [uid]);
  if (loading) {
    return (
      <p className="container page loading-text" role="status">
        {t('loading')}
      </p>
    );
  }
  if (!user) return <Navigate to={signInRedirect(location.pathname + location.search)} replace />;
  return (
    <Routes>
      <Route element={<DashboardShell />}>
        <Route index element={<DashboardTabs />} />
        <Route path=":modelId" element={<AgentPage />} />
      </Route>
    </Routes>
  );
}
