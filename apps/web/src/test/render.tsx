import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { AuthProvider } from '../auth/auth-context';

/** Renders an element at `path` of a memory router, inside the auth provider. */
export function renderAt(element: ReactElement, { path = '/', route = '/' }: { path?: string; route?: string } = {}) {
  const router = createMemoryRouter([{ path: route, element }], { initialEntries: [path] });
  return { router, ...render(<AuthProvider><RouterProvider router={router} /></AuthProvider>) };
}
