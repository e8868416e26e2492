import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { useAuth } from '../../auth/auth-context';
import { TestProviders } from '../../test/render';

/** Shows who is signed in once GET /api/auth/session answered, so tests can wait for the auth state. */
function AuthProbe() {
  const { user, loading } = useAuth();
  return loading ? null : <output data-testid="auth-probe">{user ? `signed-in:${user.uid}` : 'signed-out'}</output>;
}

/** Renders a dashboard element at `path`, inside the app's providers (signed-in area). */
export function renderDashboard(element: ReactElement, { path = '/dashboard', route = '/dashboard' }: { path?: string; route?: string } = {}) {
  const router = createMemoryRouter(
    [
      {
        path: route,
        element: (
          <>
            <AuthProbe />
            {element}
          </>
        ),
      },
      { path: '*', element: <p>elsewhere</p> },
    ],
    { initialEntries: [path] },
  );
  return {
    router,
    ...render(
      <TestProviders>
        <RouterProvider router={router} />
      </TestProviders>,
    ),
  };
}
