import { render } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { createQueryClient, QueryProvider } from '../api/query-client';
import { AuthProvider } from '../auth/auth-context';

/** The app's providers around a test render: a fresh query cache (no retries: a failure shows at once) and auth. */
export function TestProviders({ children }: { children: ReactNode }) {
  return (
    <QueryProvider client={createQueryClient({ retry: false })}>
      <AuthProvider>{children}</AuthProvider>
    </QueryProvider>
  );
}

/** Renders an element at `path` of a memory router, inside the app's providers. */
export function renderAt(element: ReactElement, { path = '/', route = '/' }: { path?: string; route?: string } = {}) {
  const router = createMemoryRouter([{ path: route, element }], { initialEntries: [path] });
  return {
    router,
    ...render(
      <TestProviders>
        <RouterProvider router={router} />
      </TestProviders>,
    ),
  };
}
