import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { TestProviders } from '../test/render';
import { routeFetch, startApiServer, user, type ApiServer } from '../test/api-server';
import { Header } from './header';

let server: ApiServer;
let restore: () => void;
beforeEach(async () => {
  server = await startApiServer();
  restore = routeFetch(server.origin);
});
afterEach(async () => {
  restore();
  await server.close();
});

function renderHeader(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/', element: <Header /> },
      { path: '*', element: <Header /> },
    ],
    { initialEntries: [path] },
  );
  render(
    <TestProviders>
      <RouterProvider router={router} />
    </TestProviders>,
  );
  return router;
}

const mainNav = () => screen.getByRole('navigation', { name: 'Main navigation' });

describe('Header', () => {
  it('signed out: the four public links and Sign In, no Dashboard', async () => {
    renderHeader('/pricing');
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    const links = within(mainNav())
      .getAllByRole('link')
      .map((a) => a.getAttribute('href'));
    expect(links).toEqual(['/', '/pricing', '/datasets', '/models']);
  });

  it('signed in: Dashboard link, the display name and Sign Out, which returns to /', async () => {
    server.user = user({ displayName: 'Ana' });
    const router = renderHeader('/models');
    expect(await screen.findByText('Ana')).toBeInTheDocument();
    expect(within(mainNav()).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
    fireEvent.click(screen.getByRole('button', { name: 'Sign Out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(server.signOuts).toBe(1);
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
  });

  it('falls back to the email when there is no display name, and hides Dashboard on dashboard paths', async () => {
    server.user = user({ displayName: null, email: 'ana@example.org' });
    renderHeader('/dashboard/agent-1');
    expect(await screen.findByText('ana@example.org')).toBeInTheDocument();
    expect(within(mainNav()).queryByRole('link', { name: 'Dashboard' })).not.toBeInTheDocument();
  });

  it("shows 'User' in the mobile menu when the user has neither name nor email", async () => {
    server.user = user({ displayName: null, email: '' });
    renderHeader('/');
    await screen.findByRole('button', { name: 'Sign Out' });
    fireEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    const menu = screen.getByRole('navigation', { name: 'Mobile navigation' });
    expect(within(menu).getByText('User')).toBeInTheDocument();
    expect(within(menu).getByRole('link', { name: 'Dashboard' })).toBeInTheDocument();
  });

  it('closes the mobile menu when a link is chosen', async () => {
    const router = renderHeader('/');
    fireEvent.click(await screen.findByRole('button', { name: 'Open menu' }));
    const menu = screen.getByRole('navigation', { name: 'Mobile navigation' });
    fireEvent.click(within(menu).getByRole('link', { name: 'Datasets' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/datasets'));
    expect(screen.queryByRole('navigation', { name: 'Mobile navigation' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');
  });
});
