import { fireEvent, screen, waitFor } from '@testing-library/react';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { routeFetch, user } from '../../test/api-server';
import { renderAt } from '../../test/render';
import { PrivacySection } from './privacy-section';

/** The gateway's wire format for the session and POST /api/account/delete. */
let server: Server;
let restore: () => void;
let signedIn = true;
const deletes: unknown[] = [];

beforeEach(async () => {
  signedIn = true;
  deletes.length = 0;
  server = createServer(async (req, res) => {
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/api/auth/session') return json(200, { user: signedIn ? user() : null });
    if (req.url === '/api/account/delete' && req.method === 'POST') {
      let raw = '';
      for await (const c of req) raw += c;
      deletes.push(JSON.parse(raw));
      signedIn = false;
      return json(200, { success: true });
    }
    return json(404, { error: 'Not found' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  restore = routeFetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
afterEach(async () => {
  restore();
  await new Promise((r) => server.close(r));
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
