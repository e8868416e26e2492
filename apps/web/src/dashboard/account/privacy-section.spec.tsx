import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { useRouteServer, user } from '../../test/api-server';
import { renderAt } from '../../test/render';
import { PrivacySection } from './privacy-section';

/** The gateway's wire format for the session and POST /api/account/delete. */
let signedIn = true;
const deletes: unknown[] = [];

beforeEach(() => {
  signedIn = true;
  deletes.length = 0;
});
useRouteServer(({ method, path, body }) => {
  if (path === '/api/auth/session') return [200, { user: signedIn ? user() : null }];
  if (path === '/api/account/delete' && method === 'POST') {
    deletes.push(body);
    signedIn = false;
    return [200, { success: true }];
  }
  return undefined;
});

describe('Account: your data', () => {
  it('offers the export as a download of /api/account/export', async () => {
    renderAt(<PrivacySection email="ana@example.org" />, { route: '/dashboard/account', path: '/dashboard/account' });
    expect(await screen.findByRole('link', { name: 'Export my data' })).toHaveAttribute('href', '/api/account/export');
  });

  it('deletes only once the email is typed, then leaves the dashboard signed out', async () => {
    const { router } = renderAt(<PrivacySection email="ana@example.org" />, { route: '/dashboard/account', path: '/dashboard/account' });
    const button = await screen.findByRole('button', { name: 'Delete my account' });
    expect(button).toBeDisabled();
    fireEvent.change(screen.getByLabelText('Type your email address to confirm'), { target: { value: 'ANA@example.org ' } });
    expect(button).toBeEnabled();
    fireEvent.click(button);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(deletes).toEqual([{ email: 'ANA@example.org' }]);
  });
});
