import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { TestProviders } from '../test/render';
import { SignInDialog } from '../auth/sign-in-dialog';
import DashboardRoot from './index';
import { agentDto, user, useApiServer } from '../test/api-server';

const server = useApiServer({ signedIn: true });

function renderApp(path: string) {
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: (
          <>
            <p>landing</p>
            <SignInDialog />
          </>
        ),
      },
      {
        path: '/dashboard/*',
        element: (
          <>
            <DashboardRoot />
            <SignInDialog />
          </>
        ),
      },
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

describe('signed-in area', () => {
  it('sends a signed-out visitor to sign in, then back to the page asked for', async () => {
    server.user = null;
    server.owned = [agentDto()];
    const router = renderApp('/dashboard/agent-1');
    const dialog = await screen.findByRole('dialog', { name: 'Sign in to Gaia' });
    expect(router.state.location.pathname).toBe('/');
    expect(dialog).toBeInTheDocument();

    // The test server signs in anyone whose password is right; emulate it by setting the user on sign-in.
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ana@example.org' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'wrong-password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password.');

    server.user = user();
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'correct horse' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/agent-1'));
    expect(await screen.findByTestId('pair-badge')).toHaveTextContent('Quechua');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('sends an already signed-in user straight on from /?signin=1&next=…', async () => {
    server.owned = [agentDto()];
    const router = renderApp(`/?signin=1&next=${encodeURIComponent('/dashboard/agent-1')}`);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/agent-1'));
    expect(await screen.findByTestId('pair-badge')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('ignores a return path to another site', async () => {
    server.user = null;
    const router = renderApp(`/?signin=1&next=${encodeURIComponent('//evil.example/x')}`);
    await screen.findByRole('dialog', { name: 'Sign in to Gaia' });
    server.user = user();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ana@example.org' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'correct horse' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('signs in through the identity-provider popup and comes back to the page asked for', async () => {
    server.user = null;
    server.oidcProvider = 'Test IdP';
    server.owned = [agentDto()];
    const popup = { closed: false };
    const open = vi.spyOn(window, 'open').mockImplementation(() => popup as unknown as Window);
    try {
      const router = renderApp('/dashboard/agent-1');
      fireEvent.click(await screen.findByRole('button', { name: 'Continue with Test IdP' }));
      expect(open).toHaveBeenCalledWith('/api/auth/oidc/start', 'gaia-auth', expect.stringContaining('width=500'));
      // The gateway's callback page sets the session and posts to its opener.
      server.user = user();
      window.dispatchEvent(new MessageEvent('message', { data: { type: 'gaia-auth', ok: true }, origin: window.location.origin }));
      await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/agent-1'));
      expect(await screen.findByTestId('pair-badge')).toBeInTheDocument();
    } finally {
      popup.closed = true;
      open.mockRestore();
    }
  });

  it('reports a failed popup sign-in', async () => {
    server.user = null;
    server.oidcProvider = 'Test IdP';
    const open = vi.spyOn(window, 'open').mockImplementation(() => ({ closed: false }) as unknown as Window);
    try {
      renderApp('/dashboard');
      fireEvent.click(await screen.findByRole('button', { name: 'Continue with Test IdP' }));
      window.dispatchEvent(new MessageEvent('message', { data: { type: 'gaia-auth', ok: false }, origin: window.location.origin }));
      expect(await screen.findByRole('alert')).toHaveTextContent('Sign-in was cancelled or failed.');
    } finally {
      open.mockRestore();
    }
  });

  it('sends the user to sign in when the session ends while using the dashboard', async () => {
    server.sessionMeCalls = 1;
    server.fail.set('GET /api/agents/mine', [401, { error: 'Please sign in.' }]);
    const router = renderApp('/dashboard?tab=team');
    await screen.findByRole('dialog', { name: 'Sign in to Gaia' });
    expect(router.state.location.pathname).toBe('/');
  });

  it('validates the email before calling the server', async () => {
    server.user = null;
    renderApp('/dashboard');
    await screen.findByRole('dialog', { name: 'Sign in to Gaia' });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ana' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter a valid email address.');
    expect(server.received.some((r) => r.path === '/api/auth/signin')).toBe(false);
  });

  it('keeps server state in one cache: a change on the agent page shows on the overview, which refetches only the agents', async () => {
    server.owned = [agentDto()];
    renderApp('/dashboard');
    const row = await screen.findByTestId('agent-row');
    expect(row).toHaveTextContent('Private');
    const count = (path: string) => server.received.filter((r) => r.method === 'GET' && r.path === path).length;
    expect(count('/api/agents/mine')).toBe(1);
    fireEvent.click(row);
    fireEvent.click(await screen.findByRole('switch'));
    await waitFor(() => expect(screen.getByRole('switch')).toHaveAttribute('aria-checked', 'true'));
    fireEvent.click(screen.getByRole('button', { name: /Back/ }));
    await waitFor(() => expect(screen.getByTestId('agent-row')).toHaveTextContent('Public'));
    // The write invalidated the agent lists (refetched once); the usage summary read before is still fresh.
    expect(count('/api/agents/mine')).toBe(2);
    expect(count('/api/usage/summary')).toBe(1);
  });

  it('shows the side menu with the five sections and the logo linking to /', async () => {
    const router = renderApp('/dashboard?tab=team');
    const nav = await screen.findByRole('navigation', { name: 'Dashboard sections' });
    const links = Array.from(nav.querySelectorAll('a')).map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links).toEqual([
      ['Dashboard', '/dashboard'],
      ['Builder', '/dashboard?tab=builder'],
      ['API', '/dashboard?tab=api'],
      ['Team', '/dashboard?tab=team'],
      ['Account', '/dashboard?tab=account'],
    ]);
    expect(nav.querySelector('[aria-current="page"]')).toHaveTextContent('Team');
    expect(screen.getByRole('link', { name: 'Gaia home' })).toHaveAttribute('href', '/');
    expect(await screen.findByRole('heading', { name: 'Team', level: 1 })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('link', { name: 'Account' }));
    expect(await screen.findByRole('heading', { name: 'Account', level: 1 })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?tab=account');
  });
});
