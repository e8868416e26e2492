import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { AuthProvider, useAuth } from '../../auth/auth-context';
import { DashboardDataProvider } from '../lib/dashboard-data';

/** Shows who is signed in once GET /api/auth/session answered, so tests can wait for the auth state. */
function AuthProbe() {
  const { user, loading } = useAuth();
  return loading ? null : <output data-testid="auth-probe">{user ? `signed-in:${user.uid}` : 'signed-out'}</output>;
}

/** Renders a dashboard element at `path`, inside the auth provider and the dashboard data (signed-in area). */
export function renderDashboard(element: ReactElement, { path = '/dashboard', route = '/dashboard' }: { path?: string; route?: string } = {}) {
  const router = createMemoryRouter(
    [
      {
        path: route,
        element: (
          <DashboardDataProvider>
            <AuthProbe />
            {element}
          </DashboardDataProvider>
        ),
      },
      { path: '*', element: <p>elsewhere</p> },
    ],
    { initialEntries: [path] },
  );
  return {
    router,
    ...render(
      <AuthProvider>
        <RouterProvider router={router} />
      </AuthProvider>,
    ),
  };
}
